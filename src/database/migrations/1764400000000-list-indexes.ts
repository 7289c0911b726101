import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * The project feature list (issue 15):
 * - `feature_strategies(feature_name, environment_name, disabled)`: the list's "has strategies" and
 *   "has enabled strategies" of a feature in an environment are one MIN(disabled) read from the
 *   index alone. It starts with feature_name, so it replaces the index on feature_name alone (and
 *   still serves the foreign key to features on MySQL-family servers).
 * - `events(feature_name, created_by_user_id)`: the people of the listed features are the events
 *   with a user; where nobody changed a feature through a session (a token wrote it), the index
 *   answers "none" without reading the events themselves.
 */
export class ListIndexes1764400000000 implements MigrationInterface {
  name = 'ListIndexes1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'feature_strategies',
      new TableIndex({ columnNames: ['feature_name', 'environment_name', 'disabled'] }),
    );
    const table = await queryRunner.getTable('feature_strategies');
    const featureOnly = table?.indices.find(
      (index) => index.columnNames.length === 1 && index.columnNames[0] === 'feature_name',
    );
    if (!featureOnly) throw new Error('feature_strategies has no index on feature_name alone');
    await queryRunner.dropIndex('feature_strategies', featureOnly);
    await queryRunner.createIndex(
      'events',
      new TableIndex({ columnNames: ['feature_name', 'created_by_user_id'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const events = await queryRunner.getTable('events');
    const people = events?.indices.find(
      (index) => index.columnNames.join() === 'feature_name,created_by_user_id',
    );
    if (people) await queryRunner.dropIndex('events', people);
    await queryRunner.createIndex(
      'feature_strategies',
      new TableIndex({ columnNames: ['feature_name'] }),
    );
    const table = await queryRunner.getTable('feature_strategies');
    const composite = table?.indices.find(
      (index) => index.columnNames.join() === 'feature_name,environment_name,disabled',
    );
    if (composite) await queryRunner.dropIndex('feature_strategies', composite);
  }
}
