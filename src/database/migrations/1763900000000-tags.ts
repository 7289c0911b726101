import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableColumnOptions,
  TableForeignKey,
} from 'typeorm';

/**
 * Tags as things of their own, as in Unleash: `POST /api/admin/tags` creates a tag before any
 * feature carries it, and `GET /api/admin/tags` lists it. The tags already on features are
 * copied in, so the list is complete from the start. A snapshot: its column helpers are its own.
 */
export class Tags1763900000000 implements MigrationInterface {
  name = 'Tags1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type !== 'better-sqlite3';
    const varchar = (name: string, length: number, extra: Partial<TableColumnOptions> = {}) =>
      ({
        name,
        type: 'varchar',
        length: String(length),
        ...(mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {}),
        ...extra,
      }) as TableColumnOptions;
    await queryRunner.createTable(
      new Table({
        name: 'tags',
        columns: [
          varchar('tag_type', 100, { isPrimary: true }),
          varchar('tag_value', 50, { isPrimary: true }),
          {
            name: 'created_at',
            type: 'datetime',
            ...(mysql
              ? { precision: 3, default: 'CURRENT_TIMESTAMP(3)' }
              : { default: "(strftime('%Y-%m-%d %H:%M:%f', 'now'))" }),
          },
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['tag_type'],
            referencedTableName: 'tag_types',
            referencedColumnNames: ['name'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
      false,
      true,
      true,
    );
    await queryRunner.query(
      `INSERT INTO tags (tag_type, tag_value, created_at)
       SELECT tag_type, tag_value, MIN(created_at) FROM feature_tags GROUP BY tag_type, tag_value`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('tags', true);
  }
}
