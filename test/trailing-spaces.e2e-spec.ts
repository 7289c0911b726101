import { create, EXPORT, exportOf, expectStatus } from './export-fixtures';
import { createFeature } from './feature-fixtures';
import { IMPORT } from './import-fixtures';
import { expectErrorRecord, startTestApp, TestApp } from './support/test-app';

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

  it('lets a segment `s ` exist beside `s`, and renames are checked the same way', async () => {
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
