import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * The feature search's page (issue 11/15): an index in the order a project's page is read —
 * active features of a project by creation time — so that a page of 50 reads 50 index entries
 * and its count reads the index only. It starts with project_id, so it replaces the index on
 * project_id alone (and still serves the foreign key to projects on MySQL-family servers).
 */
export class FeatureSearchIndex1764200000000 implements MigrationInterface {
  name = 'FeatureSearchIndex1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'features',
      new TableIndex({ columnNames: ['project_id', 'archived_at', 'created_at'] }),
    );
    await queryRunner.dropIndex(
      'features',
      this.projectOnly(await queryRunner.getTable('features')),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('features', new TableIndex({ columnNames: ['project_id'] }));
    const table = await queryRunner.getTable('features');
    const composite = table?.indices.find((index) => index.columnNames.length === 3);
    if (composite) await queryRunner.dropIndex('features', composite);
  }

  private projectOnly(table: Awaited<ReturnType<QueryRunner['getTable']>>): TableIndex {
    const index = table?.indices.find(
      (candidate) =>
        candidate.columnNames.length === 1 && candidate.columnNames[0] === 'project_id',
    );
    if (!index) throw new Error('features has no index on project_id alone');
    return index;
  }
}
