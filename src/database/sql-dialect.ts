import { raw } from 'mysql2';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * The SQL a data source's server speaks. MariaDB and MySQL (8 or later) share every statement
 * the stores send; they differ in the name of the no-pad binary collation, so the server's
 * flavour is detected once, when the data source connects (FlagkeeperDataSource), and travels
 * with the dialect. Code that only needs "MySQL or SQLite" tests `dialect !== 'sqlite'`.
 */
export type Dialect = 'sqlite' | 'mariadb' | 'mysql8';

/** The dialect of a MySQL-family server, from its `SELECT VERSION()` ("10.11.6-MariaDB-…", "8.4.3"). */
export function dialectOfServerVersion(version: string): Exclude<Dialect, 'sqlite'> {
  return /mariadb/i.test(version) ? 'mariadb' : 'mysql8';
}

/**
 * The collation of every text column, temporary table and JSON_TABLE column on a MySQL-family
 * server: utf8mb4, compared byte by byte, and NO PAD, so that `x` and `x ` are two values
 * (rules.md §2; issue 13, D11). utf8mb4_bin would compare bytes too, but it is a PAD SPACE
 * collation: it ignores trailing spaces. Each flavour names its no-pad binary collation
 * differently, and neither knows the other's name.
 */
export function noPadCollation(dialect: Exclude<Dialect, 'sqlite'>): string {
  return dialect === 'mariadb' ? 'utf8mb4_nopad_bin' : 'utf8mb4_0900_bin';
}

/**
 * The statement that creates an empty Flagkeeper database on a MySQL-family server (tests,
 * benchmarks), given the server's `SELECT VERSION()`: utf8mb4 with the no-pad binary collation,
 * as the migrations leave it (1764100000000-no-pad-collation.ts).
 */
export function createDatabaseSql(name: string, serverVersion: string): string {
  const collation = noPadCollation(dialectOfServerVersion(serverVersion));
  return `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE ${collation}`;
}

/** A data source that knows its server's flavour (FlagkeeperDataSource, once initialised). */
interface FlavouredDataSource {
  serverDialect?: Dialect;
}

export function dialectOf(dataSource: DataSource): Dialect {
  const type = dataSource.options.type;
  if (type !== 'mysql' && type !== 'mariadb') return 'sqlite';
  const detected = (dataSource as DataSource & FlavouredDataSource).serverDialect;
  if (!detected) {
    throw new Error('A MySQL data source must be an initialised FlagkeeperDataSource');
  }
  return detected;
}

/** `CHARACTER SET utf8mb4 COLLATE <no-pad binary>`: the text type suffix of run-time DDL. */
export function textCharset(dialect: Exclude<Dialect, 'sqlite'>): string {
  return `CHARACTER SET utf8mb4 COLLATE ${noPadCollation(dialect)}`;
}

/**
 * A sub-select yielding the strings of a JSON array bound as ONE parameter, so that a list of
 * any length costs one placeholder (SQLite allows 32,766, MySQL 65,535) and one statement. The
 * MySQL column has the name columns' no-pad binary collation, so that it compares byte-wise (a
 * different collation would also fail the comparison with "Illegal mix of collations"); values
 * are at most 100 characters (the DTO and the name columns say so), so nothing is truncated.
 */
export function jsonStrings(dialect: Dialect): string {
  return dialect !== 'sqlite'
    ? `SELECT jt.v FROM JSON_TABLE(?, '$[*]' COLUMNS (v VARCHAR(100) ${textCharset(dialect)} PATH '$')) jt`
    : `SELECT value FROM json_each(?)`;
}

/** How a field of a JSON record becomes a column: a name (byte-wise, ≤ 100), free text, an integer. */
export type JsonFieldType = 'name' | 'text' | 'int';

/**
 * A sub-select yielding one row per object of a JSON array bound as ONE parameter, with one
 * column per field, so that a multi-row write costs one placeholder and one statement whatever
 * the number of rows. A field that is missing from an object reads as NULL on both databases
 * (callers leave out null values rather than rely on how each reads a JSON null). Nested JSON
 * goes in as a string field and comes out as the text to store.
 */
export function jsonRecords(dialect: Dialect, fields: Record<string, JsonFieldType>): string {
  const entries = Object.entries(fields);
  if (dialect !== 'sqlite') {
    const types: Record<JsonFieldType, string> = {
      name: `VARCHAR(100) ${textCharset(dialect)}`,
      text: `LONGTEXT ${textCharset(dialect)}`,
      int: 'BIGINT',
    };
    const columns = entries.map(([field, type]) => `${field} ${types[type]} PATH '$.${field}'`);
    return `SELECT ${entries.map(([field]) => `jt.${field}`).join(', ')}
      FROM JSON_TABLE(?, '$[*]' COLUMNS (${columns.join(', ')})) jt`;
  }
  return `SELECT ${entries.map(([field]) => `json_extract(value, '$.${field}') AS ${field}`).join(', ')}
    FROM json_each(?)`;
}

/**
 * An UPDATE that claims the rows of `table` whose `name` is one of the JSON array of strings bound
 * as its one parameter: `write_claim` flipped, as the stores' single-row claims do
 * (docs/decisions-concurrency.md). A join on MySQL: MariaDB 10.11 runs a single-table UPDATE's
 * IN (...) per row, reading and locking every row of the table; the join reads the named rows only.
 * STRAIGHT_JOIN keeps the names first: on a small table MariaDB planned the other way round,
 * walking and locking the whole table, and 19 of 20 concurrent claims of new rows deadlocked.
 */
export function sqlClaimNames(dialect: Dialect, table: string): string {
  const flip = 'write_claim = 1 - write_claim';
  return dialect !== 'sqlite'
    ? `UPDATE (${jsonStrings(dialect)}) j STRAIGHT_JOIN ${table} t ON t.name = j.v SET t.${flip}`
    : `UPDATE ${table} SET ${flip} WHERE name IN (${jsonStrings(dialect)})`;
}

/**
 * The tail of an `INSERT ... SELECT` that updates the row when its key exists: `ON CONFLICT`
 * (SQLite, which needs a WHERE to parse the SELECT's end: `WHERE true` unless the SELECT has its
 * own, `selectHasWhere`) or `ON DUPLICATE KEY UPDATE`.
 */
export function upsertTail(
  dialect: Dialect,
  key: string[],
  update: string[],
  { selectHasWhere = false } = {},
): string {
  if (dialect !== 'sqlite') {
    return `ON DUPLICATE KEY UPDATE ${update.map((c) => `${c} = VALUES(${c})`).join(', ')}`;
  }
  return `${selectHasWhere ? '' : 'WHERE true '}ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${update
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}`;
}

/**
 * The clause that makes a SELECT lock the rows it reads, exclusively, until its transaction
 * ends: the way a write claims the rows that decide whether it is allowed (see
 * docs/decisions-concurrency.md). SQLite needs none: serializeSqliteTransactions already runs
 * one transaction at a time.
 */
export function forUpdate(dialect: Dialect): string {
  return dialect !== 'sqlite' ? ' FOR UPDATE' : '';
}

/**
 * The shared form of forUpdate: the rows may not change or vanish until the transaction ends,
 * while other readers that share the lock go on. MariaDB and MySQL 8 both accept this spelling.
 */
export function forShare(dialect: Dialect): string {
  return dialect !== 'sqlite' ? ' LOCK IN SHARE MODE' : '';
}

/**
 * The largest MySQL statement insertValues sends: half of MariaDB's default max_allowed_packet
 * (16 MiB; MySQL 8's is 64 MiB), so that no configured default refuses it.
 */
export const MAX_STATEMENT_BYTES = 8 * 1024 * 1024;

/**
 * Sends statements one after the other, building each while the server runs the one before:
 * `statements` is iterated lazily, and the next item is only taken once the previous statement has
 * left for the server. At most one statement is in flight, they arrive in the iteration's order,
 * and none is sent (or built) after one has failed: the failure is what this returns.
 */
export async function sendInTurn<T>(
  statements: Iterable<T>,
  send: (statement: T) => Promise<unknown>,
): Promise<void> {
  let pending: Promise<unknown> | undefined;
  for (const statement of statements) {
    if (pending) await pending;
    pending = send(statement);
    // Handled here so that a failure arriving while the next statement is built is not reported
    // as unhandled; the await above (or below) still throws it.
    pending.catch(() => undefined);
    // TypeORM hands the statement to the driver after a few awaits of its own: let them run, so
    // that it is on its way to the server before the next one is built.
    await nextTurn();
  }
  await pending;
}

/**
 * Awaits `statement` (already sent) while `work` runs: the caller's own computing overlaps the
 * server's. The statement is handed to the driver first (as in sendInTurn), and its failure
 * still reaches the caller, after `work`. `statement` may be a chain of statements and `work`
 * asynchronous: work that lets the event loop run now and then (nextTurn) lets the chain send
 * its next statement meanwhile. Either way nothing of `statement` is left running on return, so
 * that a transaction is never ended under it.
 */
export async function whileRunning<T, W>(
  statement: Promise<T>,
  work: () => W,
): Promise<[T, Awaited<W>]> {
  statement.catch(() => undefined);
  await nextTurn();
  let done: Awaited<W>;
  try {
    done = await work();
  } catch (error) {
    await statement.catch(() => undefined);
    throw error;
  }
  return [await statement, done];
}

/** Lets pending I/O run (a statement's reply, the next one's sending) before going on. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/** A value insertValues writes: text, a number, or NULL. */
export type SqlValue = string | number | null;

/** The characters mysql2 escapes in a string literal, but `"`, which a single-quoted one may hold. */
// \cZ is U+001A, which mysql2 writes as \Z.
const LITERAL_ESCAPES = /[\0\b\t\n\r\cZ'\\]/g;
const CONTROL_ESCAPES = /[\0\b\t\n\r\cZ]/;
const LITERAL_ESCAPE: Record<string, string> = {
  '\0': '\\0',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\x1a': '\\Z',
  "'": "\\'",
  '\\': '\\\\',
};

/**
 * A value as a MySQL literal, with mysql2's escapes (a backslash and a letter, as for bound
 * parameters), except that `"` stays as it is: it has no meaning inside single quotes, and the
 * import's JSON texts are full of them, so a typical text needs no escape at all and is only
 * scanned and quoted. The server reads the same value either way (sql-dialect.spec.ts).
 */
export function sqlLiteral(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return String(value);
  // The usual value has nothing to escape: two indexOf (native) and a test say so fastest.
  if (value.indexOf("'") === -1 && value.indexOf('\\') === -1 && !CONTROL_ESCAPES.test(value)) {
    return `'${value}'`;
  }
  return `'${value.replace(LITERAL_ESCAPES, (c) => LITERAL_ESCAPE[c])}'`;
}

/**
 * MySQL only: writes `rows` (values in the order of `head`'s columns) with multi-row
 * `INSERT … VALUES (…), (…)` statements, each at most `maxBytes` long, the values escaped as
 * sqlLiteral escapes them. MariaDB reads a JSON_TABLE of a 10 MB document
 * slowly (seconds for the import's 20,000 strategies, issue 14), and parses VALUES lists fast.
 * The number of statements grows with the bytes written, not with the rows: at most
 * ⌈bytes / maxBytes⌉, so one for any import under 8 MiB per table (docs/decisions-import.md).
 * The VALUES list goes to mysql2 as one raw, already escaped value: mysql2 scans a statement's
 * text for `?` placeholders whenever it is given parameters or none (it substitutes `[]`), and that
 * scan over megabytes of values cost tens of milliseconds per statement; with one placeholder in
 * the short template it scans only the template (a `?` inside a value stays a character).
 * Statements are built while the previous one runs (sendInTurn).
 */
export async function insertValues(
  tx: EntityManager,
  head: string,
  rows: Iterable<ReadonlyArray<SqlValue>>,
  tail = '',
  maxBytes = MAX_STATEMENT_BYTES,
): Promise<void> {
  const template = valuesTemplate(head, tail);
  await sendInTurn(valuesLists(head, rows, tail, maxBytes), (values) =>
    tx.query(template, [raw(values)]),
  );
}

/** An insertValues statement's text around its one placeholder, the VALUES list. */
function valuesTemplate(head: string, tail = ''): string {
  return `${head} VALUES ? ${tail}`;
}

/**
 * The VALUES lists of insertValues' statements for `rows`, one per statement, each statement at
 * most `maxBytes` long; made lazily, as they are taken.
 */
function* valuesLists(
  head: string,
  rows: Iterable<ReadonlyArray<SqlValue>>,
  tail: string,
  maxBytes: number,
): Generator<string> {
  const room = maxBytes - Buffer.byteLength(valuesTemplate(head, tail)) + 1;
  let batch: string[] = [];
  let bytes = 0;
  for (const row of rows) {
    let text = '(';
    for (let i = 0; i < row.length; i++) {
      text += i === 0 ? sqlLiteral(row[i]) : `,${sqlLiteral(row[i])}`;
    }
    text += ')';
    const size = Buffer.byteLength(text) + 1;
    if (bytes + size > room && batch.length > 0) {
      yield batch.join(',');
      batch = [];
      bytes = 0;
    }
    batch.push(text);
    bytes += size;
  }
  if (batch.length > 0) yield batch.join(',');
}

/*
 * Building JSON text in SQL (the project feature list and the export, issue 15): both databases
 * have JSON_QUOTE (compact, escaped) and GROUP_CONCAT(x ORDER BY …) with ',' as the separator
 * (SQLite since 3.44), so only the functions below that take a dialect differ.
 */

/**
 * A JSON object's text built by the database from `[key, value SQL]` pairs, in their order. The
 * keys are written as they are: plain words of our own, nothing to escape. Each value must be
 * JSON text that is never NULL (see sqlJsonString and sqlJsonBoolean), or the object is NULL.
 */
export function sqlJsonObject(dialect: Dialect, fields: ReadonlyArray<[string, string]>): string {
  const parts = fields.flatMap(([key, value], index) => [
    `'${index === 0 ? '{' : ','}"${key}":'`,
    value,
  ]);
  return sqlConcat(dialect, [...parts, `'}'`]);
}

/**
 * A nullable text column as a JSON string, `null` when NULL (JSON_QUOTE(NULL) is NULL on MySQL).
 * MariaDB escapes control characters with upper-case hex digits where JSON.stringify writes lower
 * case: a reader that needs JSON.stringify's bytes checks them (canonicalScan).
 */
export function sqlJsonString(column: string): string {
  return `COALESCE(JSON_QUOTE(${column}), 'null')`;
}

/**
 * The SELECT planned without semi-joins on MariaDB, so that a read whose `IN (sub-select)` keeps
 * most of its table walks the table in key order, checking each row against the sub-select's
 * materialised result, instead of looking each selected row up and sorting the result (the
 * export's large selections, docs/decisions-export.md). Other dialects get the SELECT as it is:
 * SQLite needs no hint, and MySQL 8 spells it differently and has not been measured.
 */
export function withoutSemiJoins(dialect: Dialect, select: string): string {
  return dialect === 'mariadb'
    ? `SET STATEMENT optimizer_switch='semijoin=off' FOR ${select}`
    : select;
}

/** A condition as the JSON literal `true` or `false`. */
export function sqlJsonBoolean(condition: string): string {
  return `CASE WHEN ${condition} THEN 'true' ELSE 'false' END`;
}

/** A stored JSON text column as it is, `empty` when it is NULL or empty text. */
export function sqlStoredJson(column: string, empty: '[]' | '{}'): string {
  return `COALESCE(NULLIF(${column}, ''), '${empty}')`;
}

/**
 * String concatenation that is NULL when any part is NULL, on both databases. On MySQL-family
 * servers JSON functions answer in utf8mb4_bin while the columns are no-pad, and CONCAT refuses to
 * mix two implicit collations; a leading empty string with an explicit collation settles it.
 */
export function sqlConcat(dialect: Dialect, parts: string[]): string {
  if (dialect === 'sqlite') return `(${parts.join(' || ')})`;
  return `CONCAT('' COLLATE ${noPadCollation(dialect)}, ${parts.join(', ')})`;
}

/**
 * A timestamp column as the text of `Date.prototype.toISOString()` (UTC, milliseconds). SQLite
 * holds the app's timestamps as the 23 characters `YYYY-MM-DD HH:MM:SS.SSS` (sqlTimestamp), which
 * become the ISO text by cutting and joining: a quarter of what strftime's parse and format cost,
 * and the project list formats about 15,000 of them at 5,000 flags (docs/benchmarks.md). Text of
 * any other length (a column default's `YYYY-MM-DD HH:MM:SS`, say) still goes through strftime.
 */
export function sqlIsoTimestamp(dialect: Dialect, column: string): string {
  if (dialect !== 'sqlite') {
    return `CONCAT(LEFT(DATE_FORMAT(${column}, '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z')`;
  }
  return `(CASE WHEN length(${column}) = 23
    THEN substr(${column}, 1, 10) || 'T' || substr(${column}, 12) || 'Z'
    ELSE strftime('%Y-%m-%dT%H:%M:%fZ', ${column}) END)`;
}

/** The number of items of a JSON array column. */
export function sqlJsonLength(dialect: Dialect, column: string): string {
  return dialect !== 'sqlite' ? `JSON_LENGTH(${column})` : `json_array_length(${column})`;
}
