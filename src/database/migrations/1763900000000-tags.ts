import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';
import { ColumnKit } from './schema-helpers';

/**
 * Tags as things of their own, as in Unleash: `POST /api/admin/tags` creates a tag before any
 * feature carries it, and `GET /api/admin/tags` lists it. The tags already on features are
 * copied in, so the list is complete from the start.
 */
export class Tags1763900000000 implements MigrationInterface {
  name = 'Tags1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = new ColumnKit(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'tags',
        columns: [
          c.name('tag_type', { isPrimary: true }),
          c.varchar('tag_value', 50, { isPrimary: true }),
          c.createdAt(),
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
