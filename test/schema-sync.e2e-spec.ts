import type { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config';
import { buildDataSourceOptions } from '../src/database/database-options';
import { dialectOf, noPadCollation } from '../src/database/sql-dialect';
import { ENTITY_FILES, FlagkeeperDataSource } from '../src/database/flagkeeper-data-source';
import { startTestApp, TestApp } from './support/test-app';

/** What `schema:log` would print: the statements that would bring the schema to the entities. */
async function pendingStatements(dataSource: DataSource): Promise<string[]> {
  const sql = await dataSource.driver.createSchemaBuilder().log();
  return sql.upQueries.map((query) => query.query);
}

async function migratedTables(dataSource: DataSource): Promise<string[]> {
  const sql =
    dataSource.options.type === 'better-sqlite3'
      ? `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
      : `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()`;
  const rows: Array<{ name: string }> = await dataSource.query(sql);
  // TypeORM's own record of the migrations, and the lock row that serialises them on Galera
  // (migration-lock.store.ts), are not part of the application's schema.
  return rows
    .map((row) => row.name)
    .filter((name) => name !== 'migrations' && name !== 'migrations_lock')
    .sort();
}

function entityTables(dataSource: DataSource): string[] {
  return dataSource.entityMetadatas.map((entity) => entity.tableName).sort();
}

// The migrations are the schema; the entities must describe it exactly, on both databases, so that
// `npm run typeorm -- migration:generate` produces only the change a developer made to an entity.
describe('entities match the migrated schema', () => {
  let t: TestApp;
  let cli: DataSource;

  beforeAll(async () => {
    t = await startTestApp();
    // The data source of the TypeORM CLI (ormconfig.ts), on the same freshly migrated database.
    const { database } = loadConfig({ DATABASE_URL: t.database.url });
    cli = await new FlagkeeperDataSource(
      buildDataSourceOptions(database, ENTITY_FILES),
    ).initialize();
  });
  afterAll(async () => {
    await cli?.destroy();
    await t?.close();
  });

  it('the application registers an entity for every migrated table', async () => {
    expect(entityTables(t.dataSource)).toEqual(await migratedTables(t.dataSource));
  });

  // TypeORM's schema builder does not compare collations on MySQL, so this is checked here: every
  // text column, and the database's default, has the no-pad binary collation the entities declare
  // (trailing spaces count, rules.md §2). SQLite compares bytes and has no collation to check.
  it('every text column has the collation of its entity (no-pad binary on MySQL)', async () => {
    if (cli.options.type === 'better-sqlite3') {
      expect(dialectOf(cli)).toBe('sqlite');
      return;
    }
    const dialect = dialectOf(cli);
    if (dialect === 'sqlite') throw new Error('a MySQL data source must have a MySQL dialect');
    const collation = noPadCollation(dialect);
    const declared = cli.entityMetadatas.flatMap((entity) =>
      entity.columns
        .filter((column) => column.collation !== undefined)
        .map((column) => `${entity.tableName}.${column.databaseName} ${column.collation}`),
    );
    const rows: Array<{ name: string; collation: string }> = await cli.query(
      `SELECT CONCAT(TABLE_NAME, '.', COLUMN_NAME) AS name, COLLATION_NAME AS collation
         FROM information_schema.COLUMNS
        WHERE TABLE_SCHEMA = DATABASE() AND COLLATION_NAME IS NOT NULL
          AND TABLE_NAME NOT IN ('migrations', 'migrations_lock')`,
    );
    expect(declared.sort()).toEqual(rows.map((row) => `${row.name} ${row.collation}`).sort());
    expect(new Set(rows.map((row) => row.collation))).toEqual(new Set([collation]));
    const [schema]: Array<{ collation: string }> = await cli.query(
      `SELECT DEFAULT_COLLATION_NAME AS collation FROM information_schema.SCHEMATA
        WHERE SCHEMA_NAME = DATABASE()`,
    );
    expect(schema.collation).toBe(collation);
  });

  it('the CLI data source (all entity files) has an entity for every table and nothing to change', async () => {
    expect(entityTables(cli)).toEqual(await migratedTables(cli));
    expect(await pendingStatements(cli)).toEqual([]);
  });
});
