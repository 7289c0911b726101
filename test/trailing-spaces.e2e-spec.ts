import { create, EXPORT, exportOf, expectStatus } from './export-fixtures';
import { createFeature } from './feature-fixtures';
import { IMPORT } from './import-fixtures';
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config';
import { buildDataSourceOptions } from '../src/database/database-options';
import { MIGRATIONS } from '../src/database/migrations';
import { NoPadCollation1764100000000 } from '../src/database/migrations/1764100000000-no-pad-collation';
import { dialectOfServerVersion, noPadCollation } from '../src/database/sql-dialect';
import { expectErrorRecord, startTestApp, TestApp } from './support/test-app';
import { createTestDatabase, testDatabaseKind } from './support/test-database';

/*
 * Trailing spaces are significant on both databases (rules.md §2, issue 13 D11): `x` and `x ` are
 * two values everywhere, in unique keys, lookups, GROUP BY and the JSON lists that stores expand
 * in SQL. MariaDB's and MySQL's utf8mb4_bin are PAD SPACE collations, which compare `x ` equal to
 * `x`; the schema uses the no-pad binary collation instead (utf8mb4_nopad_bin, utf8mb4_0900_bin).
 */
describe('trailing spaces are significant', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('keeps feedback categories `x` and `x ` apart in the summary and the list filter', async () => {
    await t.admin.post('/feedback', { category: 'x', difficultyScore: 1 }).expect(200);
    await t.admin.post('/feedback', { category: 'x ', difficultyScore: 5 }).expect(200);
    await t.admin.post('/feedback', { category: 'x ', difficultyScore: 3 }).expect(200);

    const summary = await t.admin.get('/api/admin/feedback/summary').expect(200);
    expect(summary.body.categories).toEqual([
      { category: 'x', count: 1, averageDifficultyScore: 1 },
      { category: 'x ', count: 2, averageDifficultyScore: 4 },
    ]);
    const plain = await t.admin.get('/api/admin/feedback?category=x').expect(200);
    expect(plain.body.feedback.map((f: { category: string }) => f.category)).toEqual(['x']);
    const spaced = await t.admin.get('/api/admin/feedback?category=x%20').expect(200);
    expect(spaced.body.feedback.map((f: { category: string }) => f.category)).toEqual(['x ', 'x ']);
  });

  it('lets a segment `s ` exist beside `s`; the name check counts the spaces', async () => {
    const plain = await create(t, '/api/admin/segments', { name: 's', constraints: [] });
    const spaced = await create(t, '/api/admin/segments', { name: 's ', constraints: [] });
    expect(spaced.body.name).toBe('s ');
    expect(spaced.body.id).not.toBe(plain.body.id);
    // The duplicate check still holds for the exact name, spaces included.
    expectErrorRecord(
      await t.admin.post('/api/admin/segments', { name: 's ', constraints: [] }),
      409,
      'NameExistsError',
    );
    await t.admin.post('/api/admin/segments/validate', { name: 's  ' }).expect(204);
    expectErrorRecord(
      await t.admin.post('/api/admin/segments/validate', { name: 's ' }),
      409,
      'NameExistsError',
    );
    const names = (await t.admin.get('/api/admin/segments').expect(200)).body.segments.map(
      (s: { name: string }) => s.name,
    );
    expect(names).toEqual(expect.arrayContaining(['s', 's ']));
  });

  it('keeps roles `Auditor` and `Auditor ` apart', async () => {
    const first = await create(t, '/api/admin/roles', { name: 'Auditor', permissions: [] });
    const second = await create(t, '/api/admin/roles', { name: 'Auditor ', permissions: [] });
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.body.name).toBe('Auditor ');
  });

  describe('tag values', () => {
    const tagsOf = async (feature: string) =>
      (await t.admin.get(`/api/admin/features/${feature}/tags`).expect(200)).body.tags;

    beforeAll(async () => {
      await createFeature(t, 'plain');
      await createFeature(t, 'spaced');
      await t.admin
        .post('/api/admin/features/plain/tags', { type: 'simple', value: 'ab' })
        .expect(201);
      // The tag route trims values (as Unleash does); an import keeps them as written.
      await expectStatus(
        t.admin.post(IMPORT, {
          project: 'default',
          environment: 'development',
          data: {
            features: [{ name: 'spaced', type: 'release', project: 'default' }],
            featureStrategies: [],
            tagTypes: [{ name: 'simple' }],
            featureTags: [
              { featureName: 'spaced', tagType: 'simple', tagValue: 'ab ' },
              { featureName: 'spaced', tagType: 'simple', tagValue: 'ab' },
            ],
          },
        }),
        204,
      );
    });

    it('stores `ab ` beside `ab` on one feature', async () => {
      expect(await tagsOf('spaced')).toEqual([
        { type: 'simple', value: 'ab' },
        { type: 'simple', value: 'ab ' },
      ]);
    });

    it('exports `ab ` as `ab `, and selects by tag value exactly', async () => {
      const bySpaced = await exportOf(t, { environment: 'development', tag: 'ab ' });
      expect(bySpaced.features.map((f) => (f as { name: string }).name)).toEqual(['spaced']);
      expect(bySpaced.featureTags).toEqual([
        { featureName: 'spaced', tagType: 'simple', tagValue: 'ab', createdByUserId: null },
        { featureName: 'spaced', tagType: 'simple', tagValue: 'ab ', createdByUserId: null },
      ]);
      const byPlain = await exportOf(t, { environment: 'development', tag: 'ab' });
      expect(byPlain.features.map((f) => (f as { name: string }).name)).toEqual([
        'plain',
        'spaced',
      ]);
    });

    it('deletes `ab ` by its path value without touching `ab`', async () => {
      await t.admin.delete('/api/admin/features/spaced/tags/simple/ab%20').expect(204);
      expect(await tagsOf('spaced')).toEqual([{ type: 'simple', value: 'ab' }]);
      expectErrorRecord(
        await t.admin.delete('/api/admin/features/spaced/tags/simple/ab%20'),
        404,
        'NotFoundError',
      );
      const all = await expectStatus(
        t.admin.post(EXPORT, { environment: 'development', features: ['spaced'] }),
        200,
      );
      expect(all.body.featureTags).toEqual([
        { featureName: 'spaced', tagType: 'simple', tagValue: 'ab', createdByUserId: null },
      ]);
    });
  });
});

/** Every foreign key of the database: table, name, column, what it references, its rules. */
async function foreignKeys(dataSource: DataSource): Promise<string[]> {
  const rows: Array<{ fk: string }> = await dataSource.query(
    `SELECT CONCAT_WS(' ', k.TABLE_NAME, k.CONSTRAINT_NAME, k.COLUMN_NAME, k.REFERENCED_TABLE_NAME,
                      k.REFERENCED_COLUMN_NAME, r.DELETE_RULE, r.UPDATE_RULE) AS fk
       FROM information_schema.KEY_COLUMN_USAGE k
       JOIN information_schema.REFERENTIAL_CONSTRAINTS r
         ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.TABLE_NAME = k.TABLE_NAME
        AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME
      WHERE k.TABLE_SCHEMA = DATABASE() AND k.REFERENCED_TABLE_NAME IS NOT NULL
      ORDER BY 1`,
  );
  return rows.map((row) => row.fk);
}

/** The distinct collations of the text columns, and the database's default. */
async function collations(dataSource: DataSource): Promise<{ columns: string[]; schema: string }> {
  const columns: Array<{ c: string }> = await dataSource.query(
    `SELECT DISTINCT COLLATION_NAME AS c FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = DATABASE() AND COLLATION_NAME IS NOT NULL ORDER BY 1`,
  );
  const [schema]: Array<{ c: string }> = await dataSource.query(
    `SELECT DEFAULT_COLLATION_NAME AS c FROM information_schema.SCHEMATA
      WHERE SCHEMA_NAME = DATABASE()`,
  );
  return { columns: columns.map((row) => row.c), schema: schema.c };
}

// The migration itself, on a database created the way they were before it: utf8mb4_bin, with data.
if (testDatabaseKind() === 'mysql') {
  describe('the no-pad collation migration on an existing MySQL database', () => {
    it('converts every text column and the default, keeps the foreign keys, aligns padded children; down undoes it', async () => {
      const database = await createTestDatabase();
      const { database: config } = loadConfig({ DATABASE_URL: database.url });
      const before = MIGRATIONS.slice(0, MIGRATIONS.indexOf(NoPadCollation1764100000000));
      const old = await new DataSource({
        ...buildDataSourceOptions(config),
        migrations: before,
      }).initialize();
      let current: DataSource | undefined;
      try {
        await old.query('ALTER DATABASE CHARACTER SET utf8mb4 COLLATE utf8mb4_bin');
        await old.runMigrations({ transaction: 'each' });
        expect(await collations(old)).toEqual({ columns: ['utf8mb4_bin'], schema: 'utf8mb4_bin' });
        // Under PAD SPACE the foreign key accepted `production ` for the environment `production`.
        await old.query(
          `INSERT INTO role_permissions (role_id, permission, environment_name)
           VALUES (2, 'UPDATE_FEATURE_ENVIRONMENT', 'production ')`,
        );
        await old.query(
          `INSERT INTO feedback (category, created_at) VALUES ('x ', '2026-01-01 00:00:00.000')`,
        );
        const keys = await foreignKeys(old);
        expect(keys.length).toBeGreaterThan(20);
        const [server]: Array<{ version: string }> = await old.query('SELECT VERSION() AS version');
        await old.destroy();

        // Up to this migration only, so that undoing the last one undoes it whatever follows it.
        current = await new DataSource({
          ...buildDataSourceOptions(config),
          migrations: MIGRATIONS.slice(0, MIGRATIONS.indexOf(NoPadCollation1764100000000) + 1),
        }).initialize();
        await current.runMigrations({ transaction: 'each' });
        const noPad = noPadCollation(dialectOfServerVersion(server.version));
        expect(await collations(current)).toEqual({ columns: [noPad], schema: noPad });
        expect(await foreignKeys(current)).toEqual(keys);
        expect(
          await current.query(
            `SELECT HEX(environment_name) AS hex FROM role_permissions
              WHERE role_id = 2 AND environment_name IS NOT NULL`,
          ),
        ).toEqual([{ hex: Buffer.from('production').toString('hex').toUpperCase() }]);
        expect(await current.query(`SELECT category FROM feedback`)).toEqual([{ category: 'x ' }]);

        await current.undoLastMigration({ transaction: 'each' });
        expect(await collations(current)).toEqual({
          columns: ['utf8mb4_bin'],
          schema: 'utf8mb4_bin',
        });
        expect(await foreignKeys(current)).toEqual(keys);
      } finally {
        if (old.isInitialized) await old.destroy();
        await current?.destroy();
        await database.drop();
      }
    });
  });
}
