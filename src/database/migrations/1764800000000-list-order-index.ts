import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * The project feature list (issue 15) reads a project's active features by name: with this index
 * the rows come in that order, so neither database sorts them. SQLite sorted the 5,000 items of
 * the peer data (2.9 MB) in memory blocks large enough to be fresh mappings on every list. The
 * search's index (project_id, archived_at, created_at) stays: its page is by creation time.
 */
export class ListOrderIndex1764800000000 implements MigrationInterface {
  name = 'ListOrderIndex1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'features',
      new TableIndex({ columnNames: ['project_id', 'archived_at', 'name'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const table = await queryRunner.getTable('features');
    const byName = table?.indices.find(
      (index) => index.columnNames.join() === 'project_id,archived_at,name',
    );
    if (byName) await queryRunner.dropIndex('features', byName);
  }
}
