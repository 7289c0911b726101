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
