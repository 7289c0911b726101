import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';

/**
 * The export's kept text per run of features (issue 15; docs/decisions-export.md, "Kept runs"):
 * for a run of consecutive selected features in one environment, the checked items of its
 * feature environments, strategies and tags, what they name, and a signature of the run's
 * features, their list stamps and the list generation (migration 1764500000000). A run's text is
 * used only while its signature is the one the export computes, so a change made meanwhile is
 * never answered from an older text. It replaces the per-feature strategy items of
 * 1764600000000, which it drops.
 * A snapshot: nothing but typeorm is imported.
 */
export class ExportKeptRuns1764700000000 implements MigrationInterface {
  name = 'ExportKeptRuns1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const text = queryRunner.connection.options.type !== 'better-sqlite3' ? 'mediumtext' : 'text';
    await queryRunner.dropTable('export_strategy_items');
    await queryRunner.createTable(
      new Table({
        name: 'export_kept_runs',
        columns: [
          // Environment first: an export reads one environment's runs in feature order.
          { name: 'environment_name', type: 'varchar', length: '100', isPrimary: true },
          { name: 'first_feature', type: 'varchar', length: '100', isPrimary: true },
          { name: 'signature', type: 'varchar', length: '64' },
          { name: 'environments', type: text },
          { name: 'strategies', type: text },
          { name: 'tags', type: text },
          { name: 'names', type: text },
        ],
        // For the foreign key to features on MySQL-family servers.
        indices: [{ columnNames: ['first_feature'] }],
        foreignKeys: [
          foreignKey('first_feature', 'features', 'name'),
          foreignKey('environment_name', 'environments', 'name'),
        ],
      }),
      false,
      true,
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const text = queryRunner.connection.options.type !== 'better-sqlite3' ? 'mediumtext' : 'text';
    await queryRunner.dropTable('export_kept_runs');
    await queryRunner.createTable(
      new Table({
        name: 'export_strategy_items',
        columns: [
          { name: 'environment_name', type: 'varchar', length: '100', isPrimary: true },
          { name: 'feature_name', type: 'varchar', length: '100', isPrimary: true },
          { name: 'stamp', type: 'integer' },
          { name: 'generation', type: 'integer' },
          { name: 'items', type: text },
          { name: 'names', type: text },
        ],
        indices: [{ columnNames: ['feature_name'] }],
        foreignKeys: [
          foreignKey('feature_name', 'features', 'name'),
          foreignKey('environment_name', 'environments', 'name'),
        ],
      }),
      false,
      true,
      true,
    );
  }
}

function foreignKey(column: string, table: string, referenced: string): TableForeignKey {
  return new TableForeignKey({
    columnNames: [column],
    referencedTableName: table,
    referencedColumnNames: [referenced],
    onDelete: 'CASCADE',
  });
}
