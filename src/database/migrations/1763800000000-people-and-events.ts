import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableIndex } from 'typeorm';

/**
 * Users, their sign-in sessions, sign-in attempts (the rate limit), favourites, and the event log
 * (issue 12). A snapshot: the column helpers below are this migration's own, so that a later change
 * to the app's helpers cannot change what it creates.
 */
export class PeopleAndEvents1763800000000 implements MigrationInterface {
  name = 'PeopleAndEvents1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type !== 'better-sqlite3';
    const binary = mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {};
    const varchar = (name: string, length: number, extra: Partial<TableColumnOptions> = {}) =>
      ({
        name,
        type: 'varchar',
        length: String(length),
        ...binary,
        ...extra,
      }) as TableColumnOptions;
    const text = (name: string, extra: Partial<TableColumnOptions> = {}) =>
      ({ name, type: mysql ? 'mediumtext' : 'text', ...binary, ...extra }) as TableColumnOptions;
    const int = (name: string, extra: Partial<TableColumnOptions> = {}) =>
      ({ name, type: 'integer', ...extra }) as TableColumnOptions;
    const id = (): TableColumnOptions => ({
      name: 'id',
      type: 'integer',
      isPrimary: true,
      isGenerated: true,
      generationStrategy: 'increment',
    });
    const timestamp = (name: string, extra: Partial<TableColumnOptions> = {}) =>
      ({
        name,
        type: 'datetime',
        ...(mysql ? { precision: 3 } : {}),
        ...extra,
      }) as TableColumnOptions;
    const create = (table: Table) => queryRunner.createTable(table, false, true, true);

    await create(
      new Table({
        name: 'users',
        columns: [
          id(),
          varchar('name', 255, { isNullable: true }),
          varchar('username', 100, { isNullable: true, isUnique: true }),
          varchar('email', 255, { isNullable: true, isUnique: true }),
          varchar('image_url', 2048, { isNullable: true }),
          int('root_role_id'),
          varchar('password_hash', 255, { isNullable: true }),
          timestamp('created_at'),
          timestamp('seen_at', { isNullable: true }),
        ],
        foreignKeys: [
          {
            columnNames: ['root_role_id'],
            referencedTableName: 'roles',
            referencedColumnNames: ['id'],
            onDelete: 'RESTRICT',
          },
        ],
        indices: [new TableIndex({ columnNames: ['root_role_id'] })],
      }),
    );

    await create(
      new Table({
        name: 'user_sessions',
        columns: [
          varchar('id_hash', 64, { isPrimary: true }),
          int('user_id'),
          timestamp('created_at'),
          timestamp('last_seen_at'),
          timestamp('expires_at'),
        ],
        foreignKeys: [
          {
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
        indices: [new TableIndex({ columnNames: ['user_id'] })],
      }),
    );

    await create(
      new Table({
        name: 'login_attempts',
        columns: [
          varchar('attempt_key', 200, { isPrimary: true }),
          timestamp('window_start'),
          int('failures'),
        ],
      }),
    );

    await create(
      new Table({
        name: 'favorite_features',
        columns: [
          int('user_id', { isPrimary: true }),
          varchar('feature_name', 100, { isPrimary: true }),
        ],
        foreignKeys: [
          {
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            columnNames: ['feature_name'],
            referencedTableName: 'features',
            referencedColumnNames: ['name'],
            onDelete: 'CASCADE',
          },
        ],
        indices: [new TableIndex({ columnNames: ['feature_name'] })],
      }),
    );

    await create(
      new Table({
        name: 'events',
        columns: [
          id(),
          varchar('type', 100),
          timestamp('created_at'),
          varchar('created_by', 255),
          int('created_by_user_id', { isNullable: true }),
          varchar('project', 100, { isNullable: true }),
          varchar('environment', 100, { isNullable: true }),
          varchar('feature_name', 100, { isNullable: true }),
          text('data', { isNullable: true }),
          text('pre_data', { isNullable: true }),
        ],
        // No foreign keys: the log outlives what it describes.
        indices: [
          new TableIndex({ columnNames: ['feature_name', 'id'] }),
          new TableIndex({ columnNames: ['type', 'id'] }),
          new TableIndex({ columnNames: ['project', 'id'] }),
          new TableIndex({ columnNames: ['created_by', 'id'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['events', 'favorite_features', 'login_attempts', 'user_sessions', 'users'])
      await queryRunner.dropTable(table, true);
  }
}
