import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Each feature's strategy items in one environment as the export writes them, kept between
 * exports (issue 15; docs/decisions-export.md, "Kept strategy items per feature"): the items'
 * checked text, what they name (context fields, segments), and the feature's list stamp and the
 * list generation it was written from (migration 1764500000000). It is used only while both
 * still match, so a change made meanwhile is never answered from an older text.
 * A snapshot: nothing but typeorm is imported.
 */
export class ExportStrategyItems1764600000000 implements MigrationInterface {
  name = 'ExportStrategyItems1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type !== 'better-sqlite3';
    await queryRunner.createTable(
      new Table({
        name: 'export_strategy_items',
        columns: [
          // Environment first: an export reads one environment's rows in feature order.
          { name: 'environment_name', type: 'varchar', length: '100', isPrimary: true },
          { name: 'feature_name', type: 'varchar', length: '100', isPrimary: true },
          { name: 'stamp', type: 'integer' },
          { name: 'generation', type: 'integer' },
          { name: 'items', type: mysql ? 'mediumtext' : 'text' },
          { name: 'names', type: mysql ? 'mediumtext' : 'text' },
        ],
        // For the foreign key to features on MySQL-family servers.
        indices: [{ columnNames: ['feature_name'] }],
        foreignKeys: [
          {
            columnNames: ['feature_name'],
            referencedTableName: 'features',
            referencedColumnNames: ['name'],
            onDelete: 'CASCADE',
          },
          {
            columnNames: ['environment_name'],
            referencedTableName: 'environments',
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
    await queryRunner.dropTable('export_strategy_items');
  }
}
