import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import Database from 'better-sqlite3';
import type { DataSource, EntityManager } from 'typeorm';
import { dialectOf } from './sql-dialect';

/** What a store needs to read: `EntityManager.query`'s shape, so a transaction's manager fits too. */
export type SqlReader = Pick<EntityManager, 'query'>;

/** Rows handed over per batch: one await per batch rather than per row. */
const BATCH_ROWS = 256;

/**
 * Characters of text handed over per batch of `texts` (or one text, when it alone is more): a
 * batch of BATCH_ROWS kept runs would hold the whole list, megabytes, at once.
 */
const BATCH_CHARS = 256 * 1024;

/** How much of a batch's bound a row takes. */
type Weigh<T> = (row: T) => number;
const oneRow: Weigh<unknown> = () => 1;
const textLength: Weigh<string> = (text) => text.length;

/**
 * One consistent snapshot of the database that stays open while its rows are read out lazily,
 * for a reader (the export, issue 15) that writes what it reads as the response asks for it, so
 * memory does not grow with the size of the answer. Only one statement's rows are in flight at
 * a time: finish (or abandon) one `batches` before the next statement.
 */
export interface ReadSnapshot extends SqlReader {
  /** The rows of one statement, in batches, read from the database as they are asked for. */
  batches<T>(sql: string, parameters?: unknown[]): AsyncIterable<T[]>;
  /**
   * The same for a statement that selects one large text column (the export's kept runs, issue
   * 15): its values, in batches of about BATCH_CHARS characters.
   */
  texts(sql: string, parameters?: unknown[]): AsyncIterable<string[]>;
  /** The same for a statement of a few columns: each row as an array of its values, in order. */
  tuples<T extends unknown[]>(sql: string, parameters?: unknown[]): AsyncIterable<T[]>;
  /** Ends the snapshot (its transaction, and a SQLite connection of its own). Idempotent. */
  close(): Promise<void>;
}

/** Idle read-only SQLite connections kept for the next snapshot: exports seldom overlap. */
const MAX_IDLE_READERS = 2;

/**
 * Where snapshots come from, for one data source. On a SQLite file it keeps up to
 * MAX_IDLE_READERS read-only connections between snapshots, because a connection opened per
 * snapshot pays again for its page cache and its first reads: measured on the 5,000-flag peer
 * data, the export's reads took 130 ms of CPU on a fresh connection and 58 ms on a kept one
 * (docs/decisions-export.md). A kept connection holds no transaction between snapshots, so it
 * neither pins the WAL nor sees old data. `close` closes the idle ones; the owner calls it when
 * the application shuts down.
 */
export class ReadSnapshots {
  private readonly idle: Database.Database[] = [];
  private closed = false;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Opens a read snapshot.
   *
   * - **SQLite** (a file): a read-only connection of its own (a kept one when there is one), in a
   *   deferred transaction (one snapshot from its first read; WAL, so it neither waits for nor
   *   blocks the app's writes). The app's one shared connection is serialised per transaction
   *   (sqlite-serializer.ts), so holding it while a client reads slowly would stop every other
   *   request; a second connection does not. Its statements are reported to the data source's
   *   logger like the app's.
   * - **MySQL/MariaDB**: a pooled connection in a `REPEATABLE READ` transaction (stated, so that a
   *   server set to READ COMMITTED still gives one snapshot), rows streamed with backpressure.
   * - **SQLite in memory** (`:memory:`, which no second connection can see): a transaction of the
   *   shared connection, held until `close`; other requests wait for it meanwhile.
   */
  async open(): Promise<ReadSnapshot> {
    const dataSource = this.dataSource;
    if (dataSource.options.type === 'better-sqlite3') {
      const file = dataSource.options.database;
      if (file !== ':memory:') {
        const db = this.idle.pop() ?? openReader(file);
        const reader = sqliteReader(db, dataSource);
        try {
          await reader.query('BEGIN');
        } catch (error) {
          db.close();
          throw error;
        }
        return withClose(reader, async () => {
          try {
            await reader.query('COMMIT');
          } catch (error) {
            db.close();
            throw error;
          }
          this.keep(db);
        });
      }
      const held = await holdTransaction(dataSource);
      // Inside the held transaction: its BEGIN was sent on this very connection, and the
      // serialiser's lock keeps every other request off it until `close`.
      const shared = (dataSource.driver as unknown as { databaseConnection: Database.Database })
        .databaseConnection;
      return withClose(sqliteReader(shared, dataSource), held.end);
    }
    const held = await holdTransaction(dataSource);
    return withClose(
      {
        query: <T = unknown[]>(sql: string, parameters?: unknown[]) =>
          held.tx.query<T>(sql, parameters),
        batches: <T>(sql: string, parameters?: unknown[]) =>
          streamedBatches<T>(held.tx, sql, parameters, 'objects'),
        texts: (sql: string, parameters?: unknown[]) =>
          streamedBatches<string>(held.tx, sql, parameters, 'first', textLength, BATCH_CHARS),
        tuples: <T extends unknown[]>(sql: string, parameters?: unknown[]) =>
          streamedBatches<T>(held.tx, sql, parameters, 'arrays'),
      },
      held.end,
    );
  }

  /** Closes the idle connections; a snapshot still open closes its own when it ends. */
  close(): void {
    this.closed = true;
    for (const db of this.idle.splice(0)) db.close();
  }

  private keep(db: Database.Database): void {
    if (this.closed || this.idle.length >= MAX_IDLE_READERS) db.close();
    else this.idle.push(db);
  }
}

/**
 * A read-only connection with SQLite's own page cache of about 2 MB (`cache_size = -2000`)
 * instead of better-sqlite3's 16 MB: an export reads the file once, the operating system caches
 * its pages anyway, and up to MAX_IDLE_READERS connections are kept. Measured (docs/benchmarks.md,
 * second session of 2026-12-07): 20 back-to-back exports of the benchmark's data peaked about
 * 10 MiB lower; the peer data's exports took the same time, the 10,000-feature ones 4–11% more.
 * The export's keep writes through a cache of this size too (ExportRunsStore.keep).
 */
export const READER_CACHE_SIZE = -2000;

function openReader(file: string): Database.Database {
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 10000 });
  db.pragma(`cache_size = ${READER_CACHE_SIZE}`);
  return db;
}

function withClose(reader: Omit<ReadSnapshot, 'close'>, end: () => Promise<void>): ReadSnapshot {
  let closing: Promise<void> | undefined;
  return Object.assign(reader, { close: () => (closing ??= end()) });
}

/** Statements on a better-sqlite3 connection, reported to the data source's logger. */
function sqliteReader(db: Database.Database, dataSource: DataSource): Omit<ReadSnapshot, 'close'> {
  const logger = dataSource.logger;
  return {
    async query<T = unknown[]>(sql: string, parameters: unknown[] = []): Promise<T> {
      logger.logQuery(sql, parameters);
      const statement = db.prepare(sql);
      if (statement.reader) return statement.all(...parameters) as T;
      statement.run(...parameters);
      return [] as T;
    },
    // Generators, so that the statement starts only when its rows are first asked for: an
    // iterating statement keeps the connection busy until it is done or returned.
    async *batches<T>(sql: string, parameters: unknown[] = []): AsyncIterable<T[]> {
      logger.logQuery(sql, parameters);
      yield* inBatches(db.prepare(sql).iterate(...parameters) as IterableIterator<T>);
    },
    async *texts(sql: string, parameters: unknown[] = []): AsyncIterable<string[]> {
      logger.logQuery(sql, parameters);
      const statement = db.prepare(sql).pluck(true);
      const rows = statement.iterate(...parameters) as IterableIterator<string>;
      yield* inBatches(rows, textLength, BATCH_CHARS);
    },
    async *tuples<T extends unknown[]>(
      sql: string,
      parameters: unknown[] = [],
    ): AsyncIterable<T[]> {
      logger.logQuery(sql, parameters);
      const statement = db.prepare(sql).raw(true);
      yield* inBatches(statement.iterate(...parameters) as IterableIterator<T>);
    },
  };
}

/** better-sqlite3 steps the statement as the iterator is pulled: rows are read when asked. */
async function* inBatches<T>(
  rows: IterableIterator<T>,
  weigh: Weigh<T> = oneRow,
  bound = BATCH_ROWS,
): AsyncIterable<T[]> {
  try {
    for (;;) {
      const batch: T[] = [];
      let weight = 0;
      let next = rows.next();
      while (!next.done) {
        batch.push(next.value);
        weight += weigh(next.value);
        if (weight >= bound) break;
        next = rows.next();
      }
      if (batch.length > 0) yield batch;
      if (next.done) return;
    }
  } finally {
    rows.return?.();
  }
}

/** A transaction of the data source kept open until `end`, on its own (pooled) connection. */
async function holdTransaction(
  dataSource: DataSource,
): Promise<{ tx: EntityManager; end: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let entered!: (manager: EntityManager) => void;
  const manager = new Promise<EntityManager>((resolve) => (entered = resolve));
  const body = (tx: EntityManager) => {
    entered(tx);
    return released;
  };
  // InnoDB's default, stated so that a server set to READ COMMITTED still gives one snapshot.
  // SQLite's transactions are serializable already (and TypeORM accepts no other level there).
  const transaction =
    dialectOf(dataSource) !== 'sqlite'
      ? dataSource.transaction('REPEATABLE READ', body)
      : dataSource.transaction(body);
  // A failure to begin rejects `transaction` before `manager` resolves.
  const tx = await Promise.race([
    manager,
    transaction.then(() => {
      throw new Error('the read transaction ended before it started');
    }),
  ]);
  return {
    tx,
    end: async () => {
      release();
      await transaction;
    },
  };
}

/** The part of a mysql2 connection that streams a statement's rows. */
interface StreamingConnection {
  query(
    options: { sql: string; timeout: undefined; rowsAsArray: boolean },
    values?: unknown[],
  ): { stream(): Readable };
}

/**
 * mysql2's row stream, in batches. Pausing the stream pauses the socket, so rows stay in the
 * server until they are asked for. A reader that stops early leaves rows on the wire, which must
 * be read before the connection can roll back: they are drained (and dropped) in `finally`.
 */
async function* streamedBatches<T>(
  tx: EntityManager,
  sql: string,
  parameters: unknown[] | undefined,
  shape: 'objects' | 'arrays' | 'first',
  weigh: Weigh<T> = oneRow,
  bound = BATCH_ROWS,
): AsyncIterable<T[]> {
  // The connection itself rather than QueryRunner.stream: a statement of the request traffic
  // gets a client-side timeout (bounded-waits.ts, 3.5 s), but a streamed statement lasts as long
  // as its reader takes to write the body, so it is sent with the timeout set, to none.
  const connection = (await (
    tx.queryRunner as unknown as { connect(): Promise<StreamingConnection> }
  ).connect()) as StreamingConnection;
  tx.connection.logger.logQuery(sql, parameters);
  const stream = connection
    .query({ sql, timeout: undefined, rowsAsArray: shape !== 'objects' }, parameters)
    .stream();
  let ended = false;
  // The stream is destroyed with the statement's error, which it also emits: an emitter with no
  // 'error' listener would throw it out of the process. moreRows reads it from `errored`.
  const keepError = () => undefined;
  stream.on('error', keepError);
  try {
    // Rows are taken with read() as far as the stream holds them, and awaited only when it runs
    // dry. The stream's async iterator awaits a promise per row, and with the app's
    // AsyncLocalStorage each promise also runs the async hooks. Measured on a MariaDB export of
    // 5,000 flags: Node's CPU about 150 ms with the iterator, 100–125 ms with read()
    // (docs/benchmarks.md, third session of 2026-11-28).
    let batch: T[] = [];
    let weight = 0;
    for (;;) {
      for (let row = stream.read() as unknown; row !== null; row = stream.read() as unknown) {
        const value = (shape === 'first' ? (row as unknown[])[0] : row) as T;
        batch.push(value);
        weight += weigh(value);
        if (weight >= bound) {
          yield batch;
          batch = [];
          weight = 0;
        }
      }
      if (stream.readableEnded) break;
      await moreRows(stream);
    }
    ended = true;
    if (batch.length > 0) yield batch;
  } finally {
    if (!ended) {
      stream.resume();
      await finished(stream).catch(() => undefined);
    }
    stream.off('error', keepError);
  }
}

/**
 * Resolves when a paused stream that read() found empty has more rows or has ended; rejects with
 * its error, or when it closes before its end.
 */
function moreRows(stream: Readable): Promise<void> {
  if (stream.errored) return Promise.reject(stream.errored);
  if (stream.destroyed) return Promise.reject(new Error('the row stream closed before its end'));
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      stream.off('readable', onReadable);
      stream.off('end', onReadable);
      stream.off('error', onError);
      stream.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onReadable = () => settle();
    const onError = (error: Error) => settle(error);
    const onClose = () =>
      settle(stream.readableEnded ? undefined : new Error('the row stream closed before its end'));
    stream.on('readable', onReadable);
    stream.on('end', onReadable);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}
