import { Readable } from 'node:stream';
import type { DataSource, EntityManager } from 'typeorm';
import { insertValues, SqlValue } from './sql-dialect';

/**
 * MySQL's bulk path for the import's largest tables (issue 14): `LOAD DATA LOCAL INFILE`, the rows
 * sent as tab-separated text after the statement. MariaDB reads that text without parsing a
 * literal per value: for the 20,000 strategies of the import benchmark (6.5 MB of JSON columns)
 * the server's CPU was 300 ms against 495 ms for one multi-row INSERT of the same rows (a bare
 * script, interleaved runs), and the text is written ahead as the VALUES lists were
 * (docs/decisions-import.md, "Strategies loaded as data").
 *
 * What LOCAL changes, and how it is held to an INSERT's rules:
 * - The server cannot stop a client's file halfway, so with LOCAL it turns every row error
 *   (duplicate key, missing parent row, a value that does not fit) into a warning and skips or
 *   adjusts the row, as if IGNORE were given. loadValues therefore counts the rows it sends and
 *   reads the warnings: any warning, or fewer rows written than sent, is thrown as the error an
 *   INSERT would have raised (its mysql2 code), so the caller's transaction is rolled back and
 *   its error handling (retry on a foreign key, 400 for a value) is unchanged.
 * - mysql2 answers the server's request for the "file" with the stream given here and nothing
 *   else (it refuses such a request when a statement has no stream), so the server can never read
 *   a file of the client's.
 * - A server with `local_infile` off (MySQL 8's default) refuses the statement before any row; the
 *   rows then go in with insertValues, and this data source is not asked again.
 */

/** The server refused LOCAL data once: these data sources insert their rows instead. */
const refusing = new WeakSet<DataSource>();

/**
 * How a server with `local_infile` off refuses LOCAL data: ER_LOAD_INFILE_CAPABILITY_DISABLED
 * (MariaDB 10.11, seen here), ER_CLIENT_LOCAL_FILES_DISABLED (MySQL 8), ER_NOT_ALLOWED_COMMAND
 * (older servers of both).
 */
const REFUSED_ERRNOS = new Set([4166, 3948, 1148]);

/**
 * mysql2's codes for the warnings a LOCAL load turns errors into, so that database-errors.ts
 * recognises them as it recognises the INSERT's errors.
 */
const WARNING_CODES: Record<number, string> = {
  1048: 'ER_BAD_NULL_ERROR',
  1062: 'ER_DUP_ENTRY',
  1264: 'ER_WARN_DATA_OUT_OF_RANGE',
  1292: 'ER_TRUNCATED_WRONG_VALUE',
  1366: 'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD',
  1406: 'ER_DATA_TOO_LONG',
  1451: 'ER_ROW_IS_REFERENCED_2',
  1452: 'ER_NO_REFERENCED_ROW_2',
};

/** A row of LOAD DATA's default text format: tab between fields, `\N` for NULL, one line. */
export function dataLine(values: ReadonlyArray<SqlValue>): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) line += '\t';
    line += dataField(values[i]);
  }
  return `${line}\n`;
}

/** The characters LOAD DATA's default format escapes with a backslash. */
const DATA_ESCAPES = /[\\\t\n\r\0]/g;
/** The same test without the global flag, which would make `test` resume where it left off. */
const NEEDS_ESCAPE = /[\\\t\n\r\0]/;
const DATA_ESCAPE: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\0': '\\0',
};

function dataField(value: SqlValue): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  // The usual value has nothing to escape: a test finds that fastest.
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(DATA_ESCAPES, (c) => DATA_ESCAPE[c]);
}

/** The lines of `rows`, and how many there are (what the server must report written). */
export interface DataText {
  text: string;
  rows: number;
}

export function dataText(rows: Iterable<ReadonlyArray<SqlValue>>): DataText {
  const lines: string[] = [];
  for (const row of rows) lines.push(dataLine(row));
  return { text: lines.join(''), rows: lines.length };
}

/**
 * The text's bytes in pieces of at most `size`: mysql2 sends each piece as one packet, and a
 * server refuses a packet over its `max_allowed_packet` (16 MiB by default on MariaDB, 64 MiB on
 * MySQL 8), while an import's strategies may hold more. None is empty: an empty packet would end
 * the file.
 */
export function* dataPackets(text: string, size = 1024 * 1024): Generator<Buffer> {
  const bytes = Buffer.from(text, 'utf8');
  for (let start = 0; start < bytes.length; start += size) {
    yield bytes.subarray(start, start + size);
  }
}

/** The parts of a mysql2 connection that loadValues uses. */
interface LoadingConnection {
  query(
    options: { sql: string; infileStreamFactory: () => Readable },
    callback: (error: Error | null, result: LoadResult) => void,
  ): void;
}

interface LoadResult {
  affectedRows: number;
  warningStatus: number;
}

/**
 * MySQL only: writes `rows` (values in the order of `columns`) into `table` with one
 * `LOAD DATA LOCAL INFILE`, or with insertValues where the server refuses LOCAL data. `written`
 * is their text made ahead (dataText of the same rows); without it, it is made here.
 */
export async function loadValues(
  tx: EntityManager,
  table: string,
  columns: readonly string[],
  rows: () => Iterable<ReadonlyArray<SqlValue>>,
  written?: DataText,
): Promise<void> {
  const dataSource = tx.connection;
  const insert = () => insertValues(tx, `INSERT INTO ${table} (${columns.join(', ')})`, rows());
  if (refusing.has(dataSource)) return insert();
  const data = written ?? dataText(rows());
  if (data.rows === 0) return;
  const sql = `LOAD DATA LOCAL INFILE '${table}' INTO TABLE ${table} CHARACTER SET utf8mb4
    FIELDS TERMINATED BY '\\t' ESCAPED BY '\\\\' LINES TERMINATED BY '\\n'
    (${columns.join(', ')})`;
  // The transaction's own connection, as read-snapshot.ts streams on it: TypeORM's query() has
  // no way to hand mysql2 the rows' stream.
  const connection = (await (
    tx.queryRunner as unknown as { connect(): Promise<LoadingConnection> }
  ).connect()) as LoadingConnection;
  dataSource.logger.logQuery(sql);
  let result: LoadResult;
  try {
    result = await new Promise<LoadResult>((resolve, reject) =>
      connection.query(
        { sql, infileStreamFactory: () => Readable.from(dataPackets(data.text)) },
        (error, answer) => (error ? reject(error) : resolve(answer)),
      ),
    );
  } catch (error) {
    if (!REFUSED_ERRNOS.has((error as { errno?: number }).errno ?? 0)) throw error;
    refusing.add(dataSource);
    return insert();
  }
  if (result.warningStatus === 0 && result.affectedRows === data.rows) return;
  throw await loadError(tx, table, data.rows, result.affectedRows);
}

/** The error an INSERT of the same rows would have raised, from the load's first warning. */
async function loadError(
  tx: EntityManager,
  table: string,
  sent: number,
  written: number,
): Promise<Error> {
  const [warning]: Array<{ Code: number; Message: string }> =
    await tx.query('SHOW WARNINGS LIMIT 1');
  const error = new Error(
    warning
      ? `Loading ${table}: ${warning.Message}`
      : `Loading ${table}: ${written} of ${sent} rows written`,
  );
  if (warning) Object.assign(error, { errno: warning.Code, code: WARNING_CODES[warning.Code] });
  return error;
}

/** For tests: lets a data source that met a refusal try LOCAL data again. */
export function forgetLocalDataRefusal(dataSource: DataSource): void {
  refusing.delete(dataSource);
}
