import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Each listed feature's item text, kept between lists (issue 15; docs/decisions-features.md,
 * "Kept items"):
 * - `features.list_stamp`: bumped in the transaction of every change to what the feature's item
 *   shows;
 * - `feature_list_generation`: one row whose number is bumped by changes that reach many items
 *   at once (an environment cloned, linked or reordered, an import);
 * - `feature_list_items`: an item's text with the stamp and the generation it was written from.
 *   It is used only while both still match, so a change made meanwhile can never be answered
 *   from an older text. The database's default collation applies (no-pad binary on MySQL).
 * A snapshot: nothing but typeorm is imported.
 */
export class ListItems1764500000000 implements MigrationInterface {
  name = 'ListItems1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type !== 'better-sqlite3';
    // Plain ALTER TABLE on both databases: TypeORM's addColumn rebuilds a SQLite table, which the
    // foreign keys pointing at features do not survive unharmed.
    await queryRunner.query(
      `ALTER TABLE features ADD COLUMN list_stamp integer NOT NULL DEFAULT 0`,
    );
    await queryRunner.createTable(
      new Table({
        name: 'feature_list_generation',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'generation', type: 'integer', default: 0 },
        ],
      }),
    );
    await queryRunner.query(`INSERT INTO feature_list_generation (id, generation) VALUES (1, 0)`);
    await queryRunner.createTable(
      new Table({
        name: 'feature_list_items',
        columns: [
          { name: 'feature_name', type: 'varchar', length: '100', isPrimary: true },
          { name: 'stamp', type: 'integer' },
          { name: 'generation', type: 'integer' },
          { name: 'item', type: mysql ? 'mediumtext' : 'text' },
        ],
        foreignKeys: [
          {
            columnNames: ['feature_name'],
            referencedTableName: 'features',
            referencedColumnNames: ['name'],
            onDelete: 'CASCADE',
          },
        ],
      }),
      false,
      true,
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('feature_list_items');
    await queryRunner.dropTable('feature_list_generation');
    await queryRunner.query(`ALTER TABLE features DROP COLUMN list_stamp`);
  }
}
