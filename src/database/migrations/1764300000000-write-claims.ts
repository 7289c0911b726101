import { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables whose rows decide an invariant that concurrent writes could break. */
const TABLES = ['features', 'feature_environments', 'context_fields'];

/**
 * A `write_claim` column (0 or 1) on the rows that decide an invariant: a write that relies on
 * such a row flips it in its own transaction. On one server that is an exclusive row lock; on a
 * Galera cluster it puts the row in the transaction's write set, so two deciding transactions on
 * two nodes conflict at certification and one is retried (docs/decisions-galera.md). Never read
 * and never shown. A snapshot: nothing but typeorm is imported.
 */
export class WriteClaims1764300000000 implements MigrationInterface {
  name = 'WriteClaims1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Plain ALTER TABLE on both databases: TypeORM's addColumn rebuilds a SQLite table, which the
    // foreign keys pointing at these tables do not survive unharmed.
    for (const table of TABLES) {
      await queryRunner.query(
        `ALTER TABLE ${table} ADD COLUMN write_claim integer NOT NULL DEFAULT 0`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN write_claim`);
    }
  }
}
