import { Worker } from 'node:worker_threads';

/**
 * A read-only SQLite connection in a worker thread, for read snapshots (read-snapshot.ts): the
 * export steps its statements there while the main thread checks and writes what the last batch
 * brought, so that a long export uses the machine's second core instead of stopping every other
 * request for its reads (issue 15). The worker reads one batch ahead: as soon as it has handed a
 * batch over, it steps the statement for the next one, and holds it until it is asked for. It
 * never holds more than that one batch, so memory does not grow with the size of the answer.
 *
 * The worker's code is a plain script given to `new Worker(..., { eval: true })`: it runs the same
 * from compiled JavaScript and under ts-jest, which a worker file of TypeScript would not. It
 * requires better-sqlite3 by the path the main thread resolved. Every request is answered with
 * the same `id`, or with an error record (message and SQLite's code) that becomes an Error here.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true, timeout: 10000 });
let cursor = null;

function nextBatch() {
  const rows = [];
  let done = false;
  while (rows.length < workerData.batchRows) {
    const next = cursor.iterator.next();
    if (next.done) { done = true; break; }
    rows.push(next.value);
  }
  return { rows, done };
}

function endCursor() {
  if (cursor !== null) { cursor.iterator.return(); cursor = null; }
}

parentPort.on('message', (message) => {
  const { id } = message;
  try {
    if (message.op === 'query') {
      endCursor();
      const statement = db.prepare(message.sql);
      const rows = statement.reader ? statement.all(...message.params) : (statement.run(...message.params), []);
      parentPort.postMessage({ id, rows });
    } else if (message.op === 'open') {
      endCursor();
      const statement = db.prepare(message.sql);
      if (message.pluck) statement.pluck(true);
      cursor = { iterator: statement.iterate(...message.params), ahead: null };
      cursor.ahead = nextBatch();
      parentPort.postMessage({ id });
    } else if (message.op === 'next') {
      const batch = cursor.ahead;
      parentPort.postMessage({ id, rows: batch.rows, done: batch.done });
      if (batch.done) cursor = null;
      else cursor.ahead = nextBatch();
    } else if (message.op === 'return') {
      endCursor();
      parentPort.postMessage({ id });
    } else if (message.op === 'close') {
      endCursor();
      db.close();
      parentPort.postMessage({ id });
    }
  } catch (error) {
    if (message.op !== 'query') cursor = null;
    parentPort.postMessage({ id, error: { message: error.message, code: error.code } });
  }
});
`;

interface Reply {
  id: number;
  rows?: unknown[];
  done?: boolean;
  error?: { message: string; code?: string };
}

type Request =
  | { op: 'query'; sql: string; params: unknown[] }
  | { op: 'open'; sql: string; params: unknown[]; pluck: boolean }
  | { op: 'next' }
  | { op: 'return' }
  | { op: 'close' };

/** One worker thread with its read-only connection, used by one snapshot at a time. */
export class SqliteReadWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve: (reply: Reply) => void; reject: (error: Error) => void }
  >();
  private nextId = 1;
  private failure?: Error;

  constructor(file: string, batchRows: number) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver: require.resolve('better-sqlite3'), file, batchRows },
    });
    // A worker that fails or stops rejects what it had not answered, and is not used again.
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', () => fail(new Error('the SQLite read worker stopped')));
    this.worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      waiting?.resolve(reply);
    });
  }

  /**
   * While a snapshot uses it, the thread keeps the process alive like any pending I/O; an idle
   * one kept for the next snapshot does not.
   */
  inUse(busy: boolean): void {
    if (busy) this.worker.ref();
    else this.worker.unref();
  }

  /** Whether it can take another snapshot. */
  get usable(): boolean {
    return this.failure === undefined;
  }

  async query<T>(sql: string, params: unknown[]): Promise<T> {
    return (await this.request({ op: 'query', sql, params })).rows as T;
  }

  /** The rows of one statement, in batches (the first column alone with `pluck`). */
  async *batches<T>(sql: string, params: unknown[], pluck: boolean): AsyncIterable<T[]> {
    await this.request({ op: 'open', sql, params, pluck });
    let done = false;
    try {
      while (!done) {
        const reply = await this.request({ op: 'next' });
        done = reply.done === true;
        if ((reply.rows as T[]).length > 0) yield reply.rows as T[];
      }
    } finally {
      if (!done && this.usable) await this.request({ op: 'return' });
    }
  }

  /** Closes the connection and ends the thread. */
  async close(): Promise<void> {
    if (this.usable) await this.request({ op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }

  private request(request: Request): Promise<Reply> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    }).then((reply) => {
      if (reply.error)
        throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
      return reply;
    });
  }
}
