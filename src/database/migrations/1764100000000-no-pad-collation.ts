import { MigrationInterface, QueryRunner } from 'typeorm';

// A migration is a snapshot: everything it needs is written out in this file, so that a later change
// to shared code cannot change what a database migrated by it received. Do not edit it; change the
// schema with a new migration (docs/development.md, "Entities and migrations").

/** The collation the earlier migrations gave every text column on MySQL: binary, but PAD SPACE. */
const PAD_BINARY = 'utf8mb4_bin';

/** Column types whose values carry a collation. */
const TEXT_TYPES = ['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext'];

interface ForeignKey {
  table: string;
  name: string;
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  onDelete: string;
  onUpdate: string;
}

const quote = (identifier: string) => `\`${identifier.replace(/`/g, '``')}\``;

/**
 * Trailing spaces become significant on MySQL-family servers, as they are on SQLite (rules.md §2;
 * issue 13, D11): every text column of every table, and the database's default, move from
 * utf8mb4_bin (PAD SPACE: `x ` equals `x`) to the server's no-pad binary collation,
 * utf8mb4_nopad_bin on MariaDB, utf8mb4_0900_bin on MySQL 8. SQLite compares bytes already.
 *
 * The server refuses to change the collation of a column that a foreign key uses (error 1833,
 * even with foreign_key_checks = 0), so the foreign keys on text columns are dropped first and
 * recreated at the end, with the same names and rules, one ALTER per table, tables in name order.
 * Everything is read from information_schema, so the migration works on whatever the database
 * holds, in a deterministic order. DDL is not transactional on MySQL; on Galera each ALTER is
 * replicated in total order (TOI), and every table keeps its primary key.
 *
 * Existing data: under PAD SPACE a child row could hold `development ` for the parent
 * `development` (before path names were checked for spaces). Such a row was that parent's in
 * every query, so it is first rewritten to the parent's exact bytes; otherwise recreating its
 * foreign key would fail. No-pad never merges values, so no unique key can break on the way up.
 */
export class NoPadCollation1764100000000 implements MigrationInterface {
  name = 'NoPadCollation1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    const [row]: Array<{ version: string }> = await queryRunner.query(
      'SELECT VERSION() AS version',
    );
    const noPad = /mariadb/i.test(row.version) ? 'utf8mb4_nopad_bin' : 'utf8mb4_0900_bin';
    await convertDatabase(queryRunner, noPad, true);
  }

  /**
   * Back to utf8mb4_bin. Fails on the unique keys (duplicate entry) if the data holds two values
   * that differ only in trailing spaces: under PAD SPACE they would be one.
   */
  async down(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    await convertDatabase(queryRunner, PAD_BINARY, false);
  }
}

function isMysql(queryRunner: QueryRunner): boolean {
  const type = queryRunner.connection.options.type;
  return type === 'mysql' || type === 'mariadb';
}

async function convertDatabase(
  queryRunner: QueryRunner,
  collation: string,
  alignChildren: boolean,
): Promise<void> {
  const tables = await tablesToConvert(queryRunner, collation);
  const foreignKeys = await textForeignKeys(queryRunner);
  if (alignChildren) {
    for (const key of foreignKeys) await alignChildValues(queryRunner, key);
  }
  for (const [table, keys] of byTable(foreignKeys)) {
    await queryRunner.query(
      `ALTER TABLE ${quote(table)} ${keys.map((key) => `DROP FOREIGN KEY ${quote(key.name)}`).join(', ')}`,
    );
  }
  for (const table of tables) {
    await queryRunner.query(
      `ALTER TABLE ${quote(table)} CONVERT TO CHARACTER SET utf8mb4 COLLATE ${collation}`,
    );
  }
  // New tables and columns get it by default; the migrations still name it for each column.
  await queryRunner.query(`ALTER DATABASE CHARACTER SET utf8mb4 COLLATE ${collation}`);
  for (const [table, keys] of byTable(foreignKeys)) {
    await queryRunner.query(`ALTER TABLE ${quote(table)} ${keys.map(addForeignKey).join(', ')}`);
  }
}

/** The base tables with a text column, or a default, in another collation; by name. */
async function tablesToConvert(queryRunner: QueryRunner, collation: string): Promise<string[]> {
  const rows: Array<{ name: string }> = await queryRunner.query(
    `SELECT t.TABLE_NAME AS name FROM information_schema.TABLES t
      WHERE t.TABLE_SCHEMA = DATABASE() AND t.TABLE_TYPE = 'BASE TABLE'
        AND (t.TABLE_COLLATION <> ?
          OR EXISTS (SELECT 1 FROM information_schema.COLUMNS c
                      WHERE c.TABLE_SCHEMA = t.TABLE_SCHEMA AND c.TABLE_NAME = t.TABLE_NAME
                        AND c.DATA_TYPE IN (${TEXT_TYPES.map(() => '?').join(', ')})
                        AND c.COLLATION_NAME <> ?))
      ORDER BY t.TABLE_NAME`,
    [collation, ...TEXT_TYPES, collation],
  );
  return rows.map((row) => row.name);
}

/** The foreign keys with a text column, by table and name, columns in key order. */
async function textForeignKeys(queryRunner: QueryRunner): Promise<ForeignKey[]> {
  const rows: Array<{
    tableName: string;
    constraintName: string;
    columnName: string;
    referencedTable: string;
    referencedColumn: string;
    onDelete: string;
    onUpdate: string;
  }> = await queryRunner.query(
    `SELECT k.TABLE_NAME AS tableName, k.CONSTRAINT_NAME AS constraintName,
            k.COLUMN_NAME AS columnName, k.REFERENCED_TABLE_NAME AS referencedTable,
            k.REFERENCED_COLUMN_NAME AS referencedColumn,
            r.DELETE_RULE AS onDelete, r.UPDATE_RULE AS onUpdate
       FROM information_schema.KEY_COLUMN_USAGE k
       JOIN information_schema.REFERENTIAL_CONSTRAINTS r
         ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.TABLE_NAME = k.TABLE_NAME
        AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME
      WHERE k.TABLE_SCHEMA = DATABASE() AND k.REFERENCED_TABLE_NAME IS NOT NULL
        AND EXISTS (SELECT 1 FROM information_schema.KEY_COLUMN_USAGE k2
                      JOIN information_schema.COLUMNS c
                        ON c.TABLE_SCHEMA = k2.TABLE_SCHEMA AND c.TABLE_NAME = k2.TABLE_NAME
                       AND c.COLUMN_NAME = k2.COLUMN_NAME
                     WHERE k2.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA
                       AND k2.TABLE_NAME = k.TABLE_NAME
                       AND k2.CONSTRAINT_NAME = k.CONSTRAINT_NAME
                       AND c.DATA_TYPE IN (${TEXT_TYPES.map(() => '?').join(', ')}))
      ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION`,
    TEXT_TYPES,
  );
  const keys: ForeignKey[] = [];
  for (const row of rows) {
    let key = keys.at(-1);
    if (!key || key.table !== row.tableName || key.name !== row.constraintName) {
      key = {
        table: row.tableName,
        name: row.constraintName,
        columns: [],
        referencedTable: row.referencedTable,
        referencedColumns: [],
        onDelete: row.onDelete,
        onUpdate: row.onUpdate,
      };
      keys.push(key);
    }
    key.columns.push(row.columnName);
    key.referencedColumns.push(row.referencedColumn);
  }
  return keys;
}

/** Foreign keys grouped by their table, in the (sorted) order they came in. */
function byTable(keys: ForeignKey[]): Map<string, ForeignKey[]> {
  const tables = new Map<string, ForeignKey[]>();
  for (const key of keys) tables.set(key.table, [...(tables.get(key.table) ?? []), key]);
  return tables;
}

/**
 * Rewrites the child rows that match their parent only under PAD SPACE (trailing spaces) to the
 * parent's bytes. Runs under the old collation, where the join still pairs them.
 */
async function alignChildValues(queryRunner: QueryRunner, key: ForeignKey): Promise<void> {
  const pairs = key.columns.map((column, i) => [
    `c.${quote(column)}`,
    `p.${quote(key.referencedColumns[i])}`,
  ]);
  await queryRunner.query(
    `UPDATE ${quote(key.table)} c JOIN ${quote(key.referencedTable)} p
        ON ${pairs.map(([child, parent]) => `${child} = ${parent}`).join(' AND ')}
        SET ${pairs.map(([child, parent]) => `${child} = ${parent}`).join(', ')}
      WHERE NOT (${pairs.map(([child, parent]) => `BINARY ${child} = BINARY ${parent}`).join(' AND ')})`,
  );
}

function addForeignKey(key: ForeignKey): string {
  return (
    `ADD CONSTRAINT ${quote(key.name)} FOREIGN KEY (${key.columns.map(quote).join(', ')}) ` +
    `REFERENCES ${quote(key.referencedTable)} (${key.referencedColumns.map(quote).join(', ')}) ` +
    `ON DELETE ${key.onDelete} ON UPDATE ${key.onUpdate}`
  );
}
