import { join } from 'node:path';
import { DataSource, DataSourceOptions, getMetadataArgsStorage } from 'typeorm';
import type { EntityMetadata } from 'typeorm';
import type { IndexMetadata } from 'typeorm/metadata/IndexMetadata';
import { Dialect, dialectOfServerVersion, noPadCollation } from './sql-dialect';

/** Every entity file, for data sources that load entities by path (the TypeORM CLI, the schema test). */
export const ENTITY_FILES = [join(__dirname, '..', '**', '*.entity.{ts,js}')];

/**
 * Default of every `created_at` column: the current time with milliseconds. Entities write it in
 * SQLite's words; on MySQL the data source swaps in CURRENT_TIMESTAMP(3) (see below).
 */
export const CURRENT_TIMESTAMP_MS = (): string => "(strftime('%Y-%m-%d %H:%M:%f', 'now'))";

/**
 * A DataSource whose entity metadata describes the columns exactly as the migrations create them on
 * either database, so that the schema builder (`schema:log`, `migration:generate`) sees no
 * difference. TypeORM has no per-database column options, so entities are written for SQLite and
 * the MySQL differences, the same ones the migrations make, are applied here in one place:
 *
 * - text and varchar columns compare byte-wise with trailing spaces significant: utf8mb4 with the
 *   server's no-pad binary collation (utf8mb4_nopad_bin on MariaDB, utf8mb4_0900_bin on MySQL 8;
 *   sql-dialect.ts), which this data source detects once, on connecting;
 * - text is MEDIUMTEXT, so long JSON lists fit; MySQL before 8.0.13 cannot default it, so a text
 *   column has no default there (the application always writes a value);
 * - datetimes keep milliseconds: DATETIME(3), and `created_at` defaults to CURRENT_TIMESTAMP(3);
 * - a foreign key without ON UPDATE reads back as RESTRICT (the same as NO ACTION on MySQL);
 * - a unique column is a unique index, which the schema API names like a constraint (UQ_…), where
 *   entity metadata would name it like an index (IDX_…).
 */
export class FlagkeeperDataSource extends DataSource {
  /** The server's flavour, detected once on connecting; `dialectOf()` reads it. */
  serverDialect?: Dialect;

  /**
   * @param describeDefaults false for the application: with a column default in its metadata,
   * TypeORM reads every row inserted through `insert()` back with a SELECT on databases without
   * INSERT … RETURNING (SQLite, MySQL), doubling the statements of every create. The application
   * always writes every column and needs no schema comparison, so it leaves defaults to the
   * database. The CLI and the schema test describe them (the default, true).
   */
  constructor(
    options: DataSourceOptions,
    private readonly describeDefaults = true,
  ) {
    super(options);
  }

  protected override async buildMetadatas(): Promise<void> {
    await super.buildMetadatas();
    const type = this.options.type;
    if (type === 'mysql' || type === 'mariadb') {
      // The driver has connected by now; its own version parse drops the "-MariaDB" suffix.
      const [row]: Array<{ version: string }> = await this.query('SELECT VERSION() AS version');
      this.serverDialect = dialectOfServerVersion(row.version);
      this.adaptToMysql(noPadCollation(this.serverDialect));
    } else {
      this.serverDialect = 'sqlite';
    }
    if (!this.describeDefaults) {
      for (const entity of this.entityMetadatas) {
        for (const column of entity.columns) column.default = undefined;
      }
    }
  }

  private adaptToMysql(collation: string): void {
    for (const entity of this.entityMetadatas) {
      for (const foreignKey of entity.foreignKeys) {
        if (!foreignKey.onUpdate || foreignKey.onUpdate === 'NO ACTION')
          foreignKey.onUpdate = 'RESTRICT';
      }
      for (const index of this.uniqueIndices(entity)) {
        index.name = this.namingStrategy.uniqueConstraintName(
          entity.tableName,
          index.columns.map((column) => column.databaseName),
        );
      }
    }
    for (const column of this.entityMetadatas.flatMap((entity) => entity.columns)) {
      if (column.type === 'varchar' || column.type === 'text') {
        column.charset = 'utf8mb4';
        column.collation = collation;
      }
      if (column.type === 'text') {
        column.type = 'mediumtext';
        column.default = undefined;
      }
      if (column.type === 'datetime') {
        column.precision = 3;
        if (column.default === CURRENT_TIMESTAMP_MS) column.default = () => 'CURRENT_TIMESTAMP(3)';
      }
    }
  }

  /** The indexes MySQL metadata made from `unique: true` columns (not from a unique @Index). */
  private uniqueIndices(entity: EntityMetadata): IndexMetadata[] {
    const declared = getMetadataArgsStorage()
      .filterUniques(entity.inheritanceTree)
      .filter((unique) => !unique.name && Array.isArray(unique.columns))
      .map((unique) => (unique.columns as string[]).join(','));
    return entity.indices.filter(
      (index) =>
        index.isUnique &&
        !index.givenName &&
        declared.includes(index.columns.map((column) => column.propertyName).join(',')),
    );
  }
}
