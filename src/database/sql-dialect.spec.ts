import Database from 'better-sqlite3';
import { escape, format } from 'mysql2';
import type { EntityManager } from 'typeorm';
import {
  createDatabaseSql,
  dialectOfServerVersion,
  insertValues,
  jsonRecords,
  jsonStrings,
  nextTurn,
  sendInTurn,
  sqlIsoTimestamp,
  sqlLiteral,
  whileRunning,
} from './sql-dialect';
import { sqlTimestamp } from './sql-values';

/**
 * Collects the statements insertValues sends: the text mysql2 makes of them (what is under test
 * here), and the template it is given, whose placeholders mysql2 scans for.
 */
function recorder(): { tx: EntityManager; statements: Array<{ sql: string; template: string }> } {
  const statements: Array<{ sql: string; template: string }> = [];
  const tx = {
    query: (template: string, params?: Parameters<typeof format>[1]) => {
      statements.push({ sql: format(template, params ?? []), template });
      return Promise.resolve([]);
    },
  } as unknown as EntityManager;
  return { tx, statements };
}

describe('insertValues', () => {
  const head = 'INSERT INTO t (a, b, c)';

  it('sends one statement when the rows fit, the values escaped, as one value of a short template', async () => {
    const { tx, statements } = recorder();
    await insertValues(
      tx,
      head,
      [
        ["it's", 1, null],
        ['back\\slash ? "q"', 2, 'x'],
      ],
      'ON DUPLICATE KEY UPDATE b = VALUES(b)',
    );
    expect(statements).toEqual([
      {
        sql: `INSERT INTO t (a, b, c) VALUES ('it\\'s',1,NULL),('back\\\\slash ? "q"',2,'x') ON DUPLICATE KEY UPDATE b = VALUES(b)`,
        template: 'INSERT INTO t (a, b, c) VALUES ? ON DUPLICATE KEY UPDATE b = VALUES(b)',
      },
    ]);
  });

  it('splits by bytes, never over the limit, keeping every row once and in order', async () => {
    const { tx, statements } = recorder();
    const rows = Array.from({ length: 1000 }, (_, i) => [`row-${i}-é`, i, 'z'.repeat(i % 50)]);
    await insertValues(tx, head, rows, '', 4096);
    expect(statements.length).toBeGreaterThan(5);
    for (const { sql } of statements) expect(Buffer.byteLength(sql)).toBeLessThanOrEqual(4096);
    const sent = statements.flatMap(({ sql }) =>
      [...sql.matchAll(/\('row-(\d+)-é'/g)].map((m) => Number(m[1])),
    );
    expect(sent).toEqual(rows.map((_, i) => i));
  });

  it('sends nothing for no rows', async () => {
    const { tx, statements } = recorder();
    await insertValues(tx, head, []);
    expect(statements).toEqual([]);
  });
});

/**
 * What a MySQL-family server reads from a single-quoted literal (backslash escapes on, the
 * default sql_mode): the table of "String Literals" in the MySQL manual, where a backslash before
 * any other character stands for that character.
 */
function readLiteral(literal: string): string {
  if (!/^'[^]*'$/.test(literal)) throw new Error(`${literal} is not a quoted literal`);
  const escapes: Record<string, string> = {
    '0': '\0',
    b: '\b',
    n: '\n',
    r: '\r',
    t: '\t',
    Z: '\x1a',
  };
  let value = '';
  for (let i = 1; i < literal.length - 1; i++) {
    const c = literal[i];
    if (c === '\\') {
      const next = literal[++i];
      value += escapes[next] ?? next;
    } else if (c === "'") {
      throw new Error(`an unescaped quote ends ${literal} early`);
    } else {
      value += c;
    }
  }
  return value;
}

describe('sqlLiteral', () => {
  it('gives the server the value, as mysql2 escaping does, for any text', () => {
    const alphabet = [
      'a',
      'é',
      '"',
      "'",
      '\\',
      '\0',
      '\b',
      '\t',
      '\n',
      '\r',
      '\x1a',
      '%',
      '_',
      '?',
      '😀',
    ];
    let state = 3;
    const wrong: string[] = [];
    for (let round = 0; round < 2000; round++) {
      let text = '';
      const length = round % 17;
      for (let i = 0; i < length; i++) {
        state = (state * 1103515245 + 12345) % 2147483648;
        text += alphabet[state % alphabet.length];
      }
      const read = readLiteral(sqlLiteral(text));
      if (read !== text || read !== readLiteral(escape(text))) wrong.push(text);
    }
    expect(wrong).toEqual([]);
    expect(sqlLiteral('{"a":"b"}')).toBe(`'{"a":"b"}'`);
    expect(sqlLiteral(null)).toBe('NULL');
    expect(sqlLiteral(12)).toBe(escape(12));
    expect(sqlLiteral(-3)).toBe(escape(-3));
  });
});

describe('sendInTurn', () => {
  /** Statements whose building is logged, and a sender whose replies the test releases. */
  function harness(count: number, failing?: string) {
    const log: string[] = [];
    const replies: Array<() => void> = [];
    function* statements(): Generator<string> {
      for (let i = 1; i <= count; i++) {
        log.push(`build ${i}`);
        yield `s${i}`;
      }
    }
    const send = (sql: string) => {
      log.push(`send ${sql}`);
      return new Promise<void>((resolve, reject) => {
        replies.push(() => {
          log.push(`reply ${sql}`);
          if (sql === failing) reject(new Error(`${sql} failed`));
          else resolve();
        });
      });
    };
    /** Waits until the log holds this entry (the code under test runs in between). */
    const until = async (entry: string) => {
      for (let turn = 0; turn < 100 && !log.includes(entry); turn++) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    return { log, replies, statements, send, until };
  }

  it('builds the next statement while one runs, and sends them in order, one at a time', async () => {
    const h = harness(3);
    const done = sendInTurn(h.statements(), h.send);
    // Each reply comes once the next statement is built (or, for the last, at once).
    for (let i = 0; i < 3; i++) {
      await h.until(i < 2 ? `build ${i + 2}` : 'send s3');
      h.replies[i]();
    }
    await done;
    expect(h.log).toEqual([
      'build 1',
      'send s1',
      'build 2',
      'reply s1',
      'send s2',
      'build 3',
      'reply s2',
      'send s3',
      'reply s3',
    ]);
  });

  it('sends nothing after a statement fails, and answers with its failure', async () => {
    const h = harness(3, 's2');
    const done = sendInTurn(h.statements(), h.send);
    const outcome = expect(done).rejects.toThrow('s2 failed');
    await h.until('build 2');
    h.replies[0]();
    await h.until('build 3');
    h.replies[1]();
    await outcome;
    expect(h.log).toEqual([
      'build 1',
      'send s1',
      'build 2',
      'reply s1',
      'send s2',
      'build 3',
      'reply s2',
    ]);
    expect(h.replies).toHaveLength(2);
  });
});

describe('whileRunning', () => {
  /** A chain of statements, each answered on the next turn of the event loop. */
  async function chain(log: string[], count: number, failing?: number): Promise<string> {
    for (let i = 1; i <= count; i++) {
      log.push(`statement ${i}`);
      await nextTurn();
      if (i === failing) throw new Error(`statement ${i} failed`);
    }
    return 'written';
  }

  /** Work that lets the event loop run between its steps, as the import's rows() does. */
  async function work(log: string[], steps: number, failing?: number): Promise<string> {
    for (let i = 1; i <= steps; i++) {
      if (i === failing) throw new Error(`step ${i} failed`);
      log.push(`step ${i}`);
      await nextTurn();
    }
    return 'prepared';
  }

  it('lets a chain of statements go on while asynchronous work yields, and answers both', async () => {
    const log: string[] = [];
    const answer = await whileRunning(chain(log, 3), () => work(log, 3));
    expect(answer).toEqual(['written', 'prepared']);
    // The work began before the chain had sent its last statement, and the chain sent the next
    // one while the work yielded: the two ran interleaved.
    expect(log.indexOf('step 1')).toBeLessThan(log.indexOf('statement 3'));
    expect(log.indexOf('statement 2')).toBeLessThan(log.indexOf('step 3'));
  });

  it('answers with the chain’s failure once the work is done', async () => {
    const log: string[] = [];
    await expect(whileRunning(chain(log, 3, 1), () => work(log, 3))).rejects.toThrow(
      'statement 1 failed',
    );
    expect(log).toContain('step 3');
    expect(log).not.toContain('statement 2');
  });

  it('answers a failed work only once the chain has ended, so that nothing runs on after it', async () => {
    const log: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const statement = (async () => {
      log.push('statement sent');
      await held;
      log.push('statement answered');
    })();
    const outcome = whileRunning(statement, () => work(log, 3, 2)).catch((error: Error) => {
      log.push(`failed: ${error.message}`);
    });
    for (let turn = 0; turn < 10; turn++) await nextTurn();
    expect(log).toEqual(['statement sent', 'step 1']);
    release();
    await outcome;
    expect(log).toEqual([
      'statement sent',
      'step 1',
      'statement answered',
      'failed: step 2 failed',
    ]);
  });
});

describe('sqlIsoTimestamp on SQLite', () => {
  it('writes what toISOString() writes, for the stored form the app writes and for others', () => {
    const db = new Database(':memory:');
    const iso = (value: string | null): unknown =>
      db
        .prepare(`SELECT ${sqlIsoTimestamp('sqlite', 'v.t')} AS iso FROM (SELECT ? AS t) v`)
        .get(value);
    const at = new Date('2026-11-28T02:40:04.749Z');
    // The app's own form takes the cut-and-join branch...
    expect(iso(sqlTimestamp(at))).toEqual({ iso: at.toISOString() });
    // ... and what a column default or a hand-written row holds goes through strftime.
    expect(iso('2026-11-28 02:40:04')).toEqual({ iso: '2026-11-28T02:40:04.000Z' });
    expect(iso('2026-11-28 02:40:04.7')).toEqual({ iso: '2026-11-28T02:40:04.700Z' });
    expect(iso(null)).toEqual({ iso: null });
    db.close();
  });
});

// Only MariaDB runs here; the MySQL 8 spelling is pinned by these tests (issue 13, D11).
describe('the no-pad collation of each server flavour', () => {
  it('tells MariaDB from MySQL by SELECT VERSION()', () => {
    expect(dialectOfServerVersion('10.11.19-MariaDB-0+deb12u1')).toBe('mariadb');
    expect(dialectOfServerVersion('11.4.2-MariaDB-log')).toBe('mariadb');
    expect(dialectOfServerVersion('8.4.3')).toBe('mysql8');
    expect(dialectOfServerVersion('8.0.36-standard')).toBe('mysql8');
  });

  it('names the no-pad binary collation, never utf8mb4_bin, in run-time SQL', () => {
    expect(jsonStrings('mariadb')).toContain('COLLATE utf8mb4_nopad_bin PATH');
    expect(jsonStrings('mysql8')).toContain('COLLATE utf8mb4_0900_bin PATH');
    const records = jsonRecords('mysql8', { name: 'name', text: 'text', n: 'int' });
    expect(records.match(/COLLATE utf8mb4_0900_bin/g)).toHaveLength(2);
    expect(jsonStrings('sqlite')).not.toContain('COLLATE');
    for (const sql of [jsonStrings('mariadb'), jsonRecords('mariadb', { a: 'name', b: 'text' })]) {
      expect(sql).not.toContain('utf8mb4_bin');
    }
  });

  it('creates test and benchmark databases with it', () => {
    expect(createDatabaseSql('fk_x', '10.11.6-MariaDB')).toBe(
      'CREATE DATABASE `fk_x` CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin',
    );
    expect(createDatabaseSql('fk_x', '8.4.3')).toBe(
      'CREATE DATABASE `fk_x` CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_bin',
    );
  });
});
