import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * One row whose number grows with every change to tokens, roles or role permissions, in the
 * change's own transaction. Each replica caches resolved tokens and rereads only this row to
 * learn that its cache is stale (docs/decisions-concurrency.md).
 */
export class AuthVersion1764000000000 implements MigrationInterface {
  name = 'AuthVersion1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'auth_version',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'version', type: 'integer', default: 0 },
        ],
      }),
    );
    await queryRunner.query(`INSERT INTO auth_version (id, version) VALUES (1, 0)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('auth_version');
  }
}
