import type { DataSource } from 'typeorm';

export type Dialect = 'sqlite' | 'mysql';

export function dialectOf(dataSource: DataSource): Dialect {
  const type = dataSource.options.type;
  return type === 'mysql' || type === 'mariadb' ? 'mysql' : 'sqlite';
}

/**
 * A sub-select yielding the strings of a JSON array bound as ONE parameter, so that a list of
 * any length costs one placeholder (SQLite allows 32,766, MySQL 65,535) and one statement. The
 * MySQL column is utf8mb4_bin like the name columns, so that it compares byte-wise; values are
 * at most 100 characters (the DTO and the name columns say so), so nothing is truncated.
 */
export function jsonStrings(dialect: Dialect): string {
  return dialect === 'mysql'
    ? `SELECT jt.v FROM JSON_TABLE(?, '$[*]' COLUMNS (v VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin PATH '$')) jt`
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
  if (dialect === 'mysql') {
    const types: Record<JsonFieldType, string> = {
      name: 'VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin',
      text: 'LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin',
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
 * The tail of an `INSERT ... SELECT` that updates the row when its key exists: `ON CONFLICT`
 * (SQLite, which needs the `WHERE true` to parse the SELECT's end) or `ON DUPLICATE KEY UPDATE`.
 */
export function upsertTail(dialect: Dialect, key: string[], update: string[]): string {
  if (dialect === 'mysql') {
    return `ON DUPLICATE KEY UPDATE ${update.map((c) => `${c} = VALUES(${c})`).join(', ')}`;
  }
  return `WHERE true ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${update
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
  return dialect === 'mysql' ? ' FOR UPDATE' : '';
}

/**
 * The shared form of forUpdate: the rows may not change or vanish until the transaction ends,
 * while other readers that share the lock go on. MariaDB and MySQL 8 both accept this spelling.
 */
export function forShare(dialect: Dialect): string {
  return dialect === 'mysql' ? ' LOCK IN SHARE MODE' : '';
}

/**
 * An ORDER BY term in the UTF-8 byte order of the text (contract §6's "by name"). SQLite's
 * default BINARY collation is that order. MySQL's utf8mb4_bin compares code points, which is the
 * same order, but pads with spaces (PAD SPACE: `'a '` equals `'a'` and sorts after `'a\t'`);
 * utf8mb4_nopad_bin does not. Same character set, so the index may still serve when the column
 * is nopad_bin already.
 */
export function inByteOrder(dialect: Dialect, column: string): string {
  return dialect === 'mysql' ? `${column} COLLATE utf8mb4_nopad_bin` : column;
}
