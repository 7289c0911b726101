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

/**
 * Like jsonStrings, for a JSON array of objects: a sub-select with one column per named string
 * property (each at most `length` characters, byte-wise on MySQL), from ONE parameter.
 */
export function jsonObjects(dialect: Dialect, columns: Array<{ name: string; length: number }>) {
  if (dialect === 'mysql') {
    const list = columns
      .map(
        (c) =>
          `${c.name} VARCHAR(${c.length}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin PATH '$.${c.name}'`,
      )
      .join(', ');
    return `SELECT ${columns.map((c) => `jt.${c.name}`).join(', ')} FROM JSON_TABLE(?, '$[*]' COLUMNS (${list})) jt`;
  }
  const list = columns.map((c) => `json_extract(value, '$.${c.name}') AS ${c.name}`).join(', ');
  return `SELECT ${list} FROM json_each(?)`;
}
