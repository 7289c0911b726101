import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableColumnOptions,
  TableForeignKey,
  TableIndex,
} from 'typeorm';

// A migration is a snapshot: everything it needs is written out in this file, so that a later change
// to shared code cannot change what a database created by this migration received. Do not edit it;
// change the schema with a new migration (docs/development.md, "Entities and migrations").

/**
 * Column builders of this migration, so that it serves SQLite and MySQL alike: names compare
 * byte-wise on both (utf8mb4_bin on MySQL, SQLite's default BINARY), and timestamps keep
 * milliseconds (datetime(3) on MySQL).
 */
class ColumnKit {
  readonly mysql: boolean;

  constructor(queryRunner: QueryRunner) {
    const type = queryRunner.connection.options.type;
    this.mysql = type === 'mysql' || type === 'mariadb';
  }

  name(name: string, options: Partial<TableColumnOptions> = {}): TableColumnOptions {
    return this.varchar(name, 100, options);
  }

  varchar(
    name: string,
    length: number,
    options: Partial<TableColumnOptions> = {},
  ): TableColumnOptions {
    return {
      name,
      type: 'varchar',
      length: String(length),
      ...(this.mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {}),
      ...options,
    };
  }

  /** Long text (descriptions, JSON documents). MEDIUMTEXT on MySQL so JSON lists fit. */
  text(name: string, options: Partial<TableColumnOptions> = {}): TableColumnOptions {
    return {
      name,
      type: this.mysql ? 'mediumtext' : 'text',
      ...(this.mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {}),
      ...options,
    };
  }

  /** A JSON document stored as text, so raw reads return a string on both databases. */
  json(name: string, defaultJson: string): TableColumnOptions {
    // MySQL before 8.0.13 cannot default a TEXT column; the entities always write a value.
    return this.text(name, this.mysql ? {} : { default: `'${defaultJson}'` });
  }

  bool(name: string, defaultValue: boolean): TableColumnOptions {
    return { name, type: 'boolean', default: defaultValue ? 1 : 0 };
  }

  int(name: string, options: Partial<TableColumnOptions> = {}): TableColumnOptions {
    return { name, type: 'integer', ...options };
  }

  id(name = 'id'): TableColumnOptions {
    return {
      name,
      type: 'integer',
      isPrimary: true,
      isGenerated: true,
      generationStrategy: 'increment',
    };
  }

  timestamp(name: string, options: Partial<TableColumnOptions> = {}): TableColumnOptions {
    return { name, type: 'datetime', ...(this.mysql ? { precision: 3 } : {}), ...options };
  }

  createdAt(name = 'created_at'): TableColumnOptions {
    return this.timestamp(name, {
      default: this.mysql ? 'CURRENT_TIMESTAMP(3)' : "(strftime('%Y-%m-%d %H:%M:%f', 'now'))",
    });
  }

  double(name: string, options: Partial<TableColumnOptions> = {}): TableColumnOptions {
    return { name, type: this.mysql ? 'double' : 'real', ...options };
  }
}

type OnDelete = 'CASCADE' | 'RESTRICT' | 'SET NULL';

function fk(columns: string[], table: string, referenced: string[], onDelete: OnDelete) {
  return new TableForeignKey({
    columnNames: columns,
    referencedTableName: table,
    referencedColumnNames: referenced,
    onDelete,
  });
}

/**
 * The whole schema of the first release. Written with TypeORM's schema API so that the same
 * migration creates the tables on SQLite and on MySQL/MariaDB.
 */
export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = new ColumnKit(queryRunner);
    const create = (table: Table) => queryRunner.createTable(table, false, true, true);

    await create(
      new Table({
        name: 'projects',
        columns: [
          c.name('id', { isPrimary: true }),
          c.varchar('name', 255),
          c.text('description', { isNullable: true }),
          c.createdAt(),
        ],
      }),
    );

    await create(
      new Table({
        name: 'environments',
        columns: [
          c.name('name', { isPrimary: true }),
          c.name('type'),
          c.bool('enabled', true),
          c.bool('protected', false),
          c.int('sort_order', { default: 0 }),
          c.createdAt(),
        ],
      }),
    );

    await create(
      new Table({
        name: 'project_environments',
        columns: [
          c.name('project_id', { isPrimary: true }),
          c.name('environment_name', { isPrimary: true }),
        ],
        foreignKeys: [
          fk(['project_id'], 'projects', ['id'], 'CASCADE'),
          fk(['environment_name'], 'environments', ['name'], 'CASCADE'),
        ],
        indices: [new TableIndex({ columnNames: ['environment_name'] })],
      }),
    );

    await create(
      new Table({
        name: 'tag_types',
        columns: [
          c.name('name', { isPrimary: true }),
          c.text('description', { isNullable: true }),
          c.varchar('icon', 255, { isNullable: true }),
          c.createdAt(),
        ],
      }),
    );

    await create(
      new Table({
        name: 'context_fields',
        columns: [
          c.name('name', { isPrimary: true }),
          c.text('description', { isNullable: true }),
          c.bool('stickiness', false),
          c.int('sort_order', { default: 0 }),
          c.json('legal_values', '[]'),
          c.createdAt(),
        ],
      }),
    );

    await create(
      new Table({
        name: 'strategy_types',
        columns: [
          c.name('name', { isPrimary: true }),
          c.varchar('title', 255, { isNullable: true }),
          c.text('description', { isNullable: true }),
          c.json('parameters', '[]'),
          c.bool('built_in', false),
          c.createdAt(),
        ],
      }),
    );

    await create(
      new Table({
        name: 'segments',
        columns: [
          c.id(),
          c.name('name', { isUnique: true }),
          c.text('description', { isNullable: true }),
          c.name('project_id', { isNullable: true }),
          c.json('constraints', '[]'),
          c.createdAt(),
        ],
        foreignKeys: [fk(['project_id'], 'projects', ['id'], 'CASCADE')],
      }),
    );

    await create(
      new Table({
        name: 'features',
        columns: [
          c.name('name', { isPrimary: true }),
          c.name('project_id'),
          c.varchar('type', 100, { default: "'release'" }),
          c.text('description', { isNullable: true }),
          c.bool('stale', false),
          c.bool('impression_data', false),
          c.timestamp('archived_at', { isNullable: true }),
          c.int('created_by_user_id', { isNullable: true }),
          c.createdAt(),
        ],
        foreignKeys: [fk(['project_id'], 'projects', ['id'], 'RESTRICT')],
        indices: [new TableIndex({ columnNames: ['project_id'] })],
      }),
    );

    await create(
      new Table({
        name: 'feature_environments',
        columns: [
          c.name('feature_name', { isPrimary: true }),
          c.name('environment_name', { isPrimary: true }),
          c.bool('enabled', false),
          c.json('variants', '[]'),
          c.timestamp('last_seen_at', { isNullable: true }),
        ],
        foreignKeys: [
          fk(['feature_name'], 'features', ['name'], 'CASCADE'),
          fk(['environment_name'], 'environments', ['name'], 'CASCADE'),
        ],
        indices: [new TableIndex({ columnNames: ['environment_name', 'feature_name'] })],
      }),
    );

    await create(
      new Table({
        name: 'feature_strategies',
        columns: [
          c.varchar('id', 36, { isPrimary: true }),
          c.name('feature_name'),
          c.name('environment_name'),
          c.name('strategy_name'),
          c.varchar('title', 255, { isNullable: true }),
          c.json('parameters', '{}'),
          c.json('constraints', '[]'),
          c.json('variants', '[]'),
          c.int('sort_order', { default: 0 }),
          c.bool('disabled', false),
          c.createdAt(),
        ],
        foreignKeys: [
          fk(['feature_name'], 'features', ['name'], 'CASCADE'),
          fk(['environment_name'], 'environments', ['name'], 'CASCADE'),
          fk(['strategy_name'], 'strategy_types', ['name'], 'RESTRICT'),
        ],
        indices: [
          new TableIndex({ columnNames: ['environment_name', 'feature_name', 'sort_order'] }),
          new TableIndex({ columnNames: ['feature_name'] }),
        ],
      }),
    );

    await create(
      new Table({
        name: 'feature_strategy_segments',
        columns: [
          c.varchar('strategy_id', 36, { isPrimary: true }),
          c.int('segment_id', { isPrimary: true }),
        ],
        foreignKeys: [
          fk(['strategy_id'], 'feature_strategies', ['id'], 'CASCADE'),
          fk(['segment_id'], 'segments', ['id'], 'RESTRICT'),
        ],
        indices: [new TableIndex({ columnNames: ['segment_id'] })],
      }),
    );

    await create(
      new Table({
        name: 'feature_tags',
        columns: [
          c.name('feature_name', { isPrimary: true }),
          c.name('tag_type', { isPrimary: true }),
          c.varchar('tag_value', 50, { isPrimary: true }),
          c.int('created_by_user_id', { isNullable: true }),
          c.createdAt(),
        ],
        foreignKeys: [
          fk(['feature_name'], 'features', ['name'], 'CASCADE'),
          fk(['tag_type'], 'tag_types', ['name'], 'CASCADE'),
        ],
        indices: [new TableIndex({ columnNames: ['tag_value'] })],
      }),
    );

    await create(
      new Table({
        name: 'feature_dependencies',
        columns: [
          c.name('child', { isPrimary: true }),
          c.name('parent', { isPrimary: true }),
          c.bool('enabled', true),
          c.json('variants', '[]'),
        ],
        foreignKeys: [
          fk(['child'], 'features', ['name'], 'CASCADE'),
          fk(['parent'], 'features', ['name'], 'CASCADE'),
        ],
        indices: [new TableIndex({ columnNames: ['parent'] })],
      }),
    );

    await create(
      new Table({
        name: 'feature_lifecycles',
        columns: [
          c.name('feature_name', { isPrimary: true }),
          c.varchar('stage', 20, { isPrimary: true }),
          c.timestamp('entered_stage_at'),
          c.varchar('status', 20, { isNullable: true }),
          c.varchar('status_value', 255, { isNullable: true }),
        ],
        foreignKeys: [fk(['feature_name'], 'features', ['name'], 'CASCADE')],
      }),
    );

    await create(
      new Table({
        name: 'roles',
        columns: [
          c.id(),
          c.name('name', { isUnique: true }),
          c.text('description', { isNullable: true }),
          c.varchar('type', 20, { default: "'custom'" }),
          c.createdAt(),
        ],
      }),
    );

    await create(
      new Table({
        name: 'role_permissions',
        columns: [
          c.id(),
          c.int('role_id'),
          c.varchar('permission', 100),
          c.name('environment_name', { isNullable: true }),
        ],
        foreignKeys: [
          fk(['role_id'], 'roles', ['id'], 'CASCADE'),
          fk(['environment_name'], 'environments', ['name'], 'CASCADE'),
        ],
        indices: [
          new TableIndex({ columnNames: ['role_id'] }),
          new TableIndex({ columnNames: ['environment_name'] }),
        ],
      }),
    );

    await create(
      new Table({
        name: 'api_tokens',
        columns: [
          c.id(),
          c.varchar('token_name', 255),
          c.varchar('type', 20),
          c.varchar('secret_hash', 64, { isUnique: true }),
          c.name('environment_name', { isNullable: true }),
          c.json('projects', '[]'),
          c.int('role_id', { isNullable: true }),
          c.timestamp('expires_at', { isNullable: true }),
          c.createdAt(),
        ],
        foreignKeys: [
          fk(['environment_name'], 'environments', ['name'], 'CASCADE'),
          fk(['role_id'], 'roles', ['id'], 'RESTRICT'),
        ],
        indices: [new TableIndex({ columnNames: ['environment_name'] })],
      }),
    );

    await create(
      new Table({
        name: 'feedback',
        columns: [
          c.id(),
          c.varchar('category', 100),
          c.varchar('user_type', 100, { isNullable: true }),
          c.double('difficulty_score', { isNullable: true }),
          c.text('positive', { isNullable: true }),
          c.text('areas_for_improvement', { isNullable: true }),
          c.createdAt(),
        ],
        indices: [
          new TableIndex({ columnNames: ['created_at', 'id'] }),
          new TableIndex({ columnNames: ['category', 'created_at'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'feedback',
      'api_tokens',
      'role_permissions',
      'roles',
      'feature_lifecycles',
      'feature_dependencies',
      'feature_tags',
      'feature_strategy_segments',
      'feature_strategies',
      'feature_environments',
      'features',
      'segments',
      'strategy_types',
      'context_fields',
      'tag_types',
      'project_environments',
      'environments',
      'projects',
    ]) {
      await queryRunner.dropTable(table, true);
    }
  }
}
