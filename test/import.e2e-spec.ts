import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { archive, create, EXPORT, expectStatus } from './export-fixtures';
import { createFeature, createStrategy, featureUrl } from './feature-fixtures';
import {
  comparable,
  generatedDocument,
  IMPORT,
  ImportDocument,
  randomDocument,
  VALIDATE,
} from './import-fixtures';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';
import { forgetLocalDataRefusal } from '../src/database/load-data';
import { sqlTimestamp } from '../src/database/sql-values';
import { isForeignKeyViolation } from '../src/common/database-errors';
import { ImportStrategyRow, StrategiesStore } from '../src/features/strategies.store';

// The machine is shared: generous limits, since no test here is about time.
jest.setTimeout(60000);

const body = (data: object, project = 'default', environment = 'development') => ({
  project,
  environment,
  data,
});

async function exportOf(t: TestApp, project: string, environment: string) {
  const res = await expectStatus(t.admin.post(EXPORT, { project, environment }), 200);
  return res.body as ImportDocument;
}

async function staffSegment(t: TestApp): Promise<{ id: number; name: string }> {
  const res = await create(t, '/api/admin/segments', { name: 'staff', constraints: [] });
  return { id: res.body.id as number, name: 'staff' };
}

/**
 * What the generated files use and expect to find here: the `staff` segment, the `team` tag type
 * and the `region` context field (so that an import creates none of them).
 */
async function fileDefinitions(t: TestApp): Promise<{ id: number; name: string }> {
  const segment = await staffSegment(t);
  await create(t, '/api/admin/tag-types', { name: 'team' });
  await create(t, '/api/admin/context', {
    name: 'region',
    legalValues: [{ value: 'eu' }, { value: 'us' }],
  });
  return segment;
}

describe('import: set-based', () => {
  let t: TestApp;
  let segment: { id: number; name: string };

  beforeAll(async () => {
    t = await startTestApp();
    // Present before both imports, so that neither creates them and the two do the same work.
    segment = await fileDefinitions(t);
    await create(t, '/api/admin/projects', { id: 'small', name: 'Small' });
    await create(t, '/api/admin/projects', { id: 'large', name: 'Large' });
  });
  afterAll(() => t.close());

  it('sends as many statements for 300 features as for 10, new and then overwritten', async () => {
    const small = generatedDocument(10, segment);
    const large = generatedDocument(300, segment);
    large.features.forEach((f) => (f.name = `l${f.name as string}`));
    for (const list of [large.featureEnvironments, large.featureStrategies, large.featureTags]) {
      list.forEach((item) => (item.featureName = `l${item.featureName as string}`));
    }
    large.featureEnvironments.forEach((e) => (e.name = e.featureName));
    large.dependencies.forEach((d) => {
      d.feature = `l${d.feature}`;
      d.dependencies.forEach((p) => (p.feature = `l${p.feature as string}`));
    });
    // The statements of the import itself: the guard re-reads the token when its 5 s cache
    // entry has expired, which on a loaded machine may fall between two imports.
    const count = (measured: { statements: string[] }) =>
      measured.statements.filter((sql) => !/\b(api_tokens|role_permissions|roles)\b/.test(sql))
        .length;
    const run = async (doc: ImportDocument, project: string) => ({
      count: count(
        await t.sql.measure(() => expectStatus(t.admin.post(IMPORT, body(doc, project)), 204)),
      ),
    });

    const first = [await run(small, 'small'), await run(large, 'large')];
    expect(first[0].count).toBe(first[1].count);
    expect(first[0].count).toBeGreaterThan(10);
    const again = [await run(small, 'small'), await run(large, 'large')];
    expect(again[0].count).toBe(again[1].count);

    const exported = await exportOf(t, 'large', 'development');
    expect(exported.features).toHaveLength(300);
    expect(exported.featureStrategies).toHaveLength(600);
    expect(exported.featureTags).toHaveLength(600);
    expect(exported.dependencies).toHaveLength(30);

    const validate = count(
      await t.sql.measure(() => expectStatus(t.admin.post(VALIDATE, body(large, 'large')), 200)),
    );
    const validateSmall = count(
      await t.sql.measure(() => expectStatus(t.admin.post(VALIDATE, body(small, 'small')), 200)),
    );
    expect(validate).toBe(validateSmall);
    expect(validate).toBeGreaterThan(5);
  }, 60000);
});

describe('import: the tags catalogue', () => {
  let t: TestApp;
  let segment: { id: number; name: string };

  beforeAll(async () => {
    t = await startTestApp();
    segment = await fileDefinitions(t);
    // In the catalogue already, and carried by the file: listed once after the import.
    await create(t, '/api/admin/tags', { type: 'team', value: 'group-1' });
  });
  afterAll(() => t.close());

  const catalogue = async () =>
    ((await expectStatus(t.admin.get('/api/admin/tags'), 200)).body as { tags: unknown[] }).tags;

  it('lists every imported tag once, adds none on a re-import or a failed import', async () => {
    const doc = generatedDocument(12, segment);
    // A value carried by a feature the file repeats for another: one catalogue row.
    doc.featureTags.push({ featureName: 'gen-00002', tagType: 'simple', tagValue: 'imported' });
    doc.featureTags.push({ featureName: 'gen-00003', tagType: 'simple', tagValue: 'imported' });
    await expectStatus(t.admin.post(IMPORT, body(doc)), 204);
    const expected = [
      { type: 'simple', value: 'generated' },
      { type: 'simple', value: 'imported' },
      ...Array.from({ length: 10 }, (_, i) => ({ type: 'team', value: `group-${i}` })),
    ];
    expect(await catalogue()).toEqual(expected);

    await expectStatus(t.admin.post(IMPORT, body(doc)), 204);
    expect(await catalogue()).toEqual(expected);

    const failing = generatedDocument(2, segment);
    failing.features.forEach((f) => (f.name = `x${f.name as string}`));
    for (const list of [failing.featureEnvironments, failing.featureStrategies]) {
      list.forEach((entry) => (entry.featureName = `x${entry.featureName as string}`));
    }
    failing.dependencies = [];
    failing.featureTags = [{ featureName: 'xgen-00001', tagType: 'simple', tagValue: 'never' }];
    failing.featureStrategies[0].name = 'noSuchType';
    expectErrorRecord(await t.admin.post(IMPORT, body(failing)), 400, 'ValidationError');
    expect(await catalogue()).toEqual(expected);
  });
});

describe('import: round trip (seeded property)', () => {
  let source: TestApp;
  let target: TestApp;
  let sourceSegment: { id: number; name: string };

  beforeAll(async () => {
    source = await startTestApp();
    target = await startTestApp();
    sourceSegment = await staffSegment(source);
    // A second segment first, so that the ids of `staff` differ between the databases.
    await create(target, '/api/admin/segments', { name: 'other', constraints: [] });
    await staffSegment(target);
    await create(target, '/api/admin/environments', { name: 'b', type: 'test' });
  });
  afterAll(async () => {
    await source.close();
    await target.close();
  });

  for (const seed of [1, 2, 3, 4]) {
    it(`seed ${seed}: export A, import as P/B, export B: the same document`, async () => {
      const generated = randomDocument(seed, sourceSegment);
      await create(source, '/api/admin/projects', { id: `a${seed}`, name: `A${seed}` });
      await create(target, '/api/admin/projects', { id: `p${seed}`, name: `P${seed}` });
      await expectStatus(source.admin.post(IMPORT, body(generated, `a${seed}`)), 204);
      // The last feature (never a parent) archived in the source: the project export leaves it out.
      await archive(source, generated.features.at(-1)?.name as string, `a${seed}`);
      const first = await exportOf(source, `a${seed}`, 'development');
      expect(first.features.length).toBe(generated.features.length - 1);

      await expectStatus(target.admin.post(IMPORT, body(first, `p${seed}`, 'b')), 204);
      const second = await exportOf(target, `p${seed}`, 'b');
      expect(comparable(second)).toEqual(comparable(first));

      // Twice: nothing changes (strategies get new ids, which the comparison leaves out).
      const rows = await target.dataSource.query(
        'SELECT (SELECT COUNT(*) FROM features) AS f, (SELECT COUNT(*) FROM feature_strategies) AS s, (SELECT COUNT(*) FROM feature_tags) AS t, (SELECT COUNT(*) FROM feature_dependencies) AS d, (SELECT COUNT(*) FROM feature_lifecycles) AS l, (SELECT COUNT(*) FROM feature_environments) AS e',
      );
      await expectStatus(target.admin.post(IMPORT, body(first, `p${seed}`, 'b')), 204);
      expect(comparable(await exportOf(target, `p${seed}`, 'b'))).toEqual(comparable(second));
      expect(
        await target.dataSource.query(
          'SELECT (SELECT COUNT(*) FROM features) AS f, (SELECT COUNT(*) FROM feature_strategies) AS s, (SELECT COUNT(*) FROM feature_tags) AS t, (SELECT COUNT(*) FROM feature_dependencies) AS d, (SELECT COUNT(*) FROM feature_lifecycles) AS l, (SELECT COUNT(*) FROM feature_environments) AS e',
        ),
      ).toEqual(rows);
    });
  }
});

describe('import: validation', () => {
  let t: TestApp;
  let segment: { id: number; name: string };

  beforeAll(async () => {
    t = await startTestApp();
    segment = await staffSegment(t);
    await create(t, '/api/admin/projects', { id: 'other', name: 'Other' });
    await createFeature(t, 'taken', {}, 'other');
    await createFeature(t, 'mine');
    await createStrategy(t, 'mine', 'development');
    await createFeature(t, 'gone');
    await archive(t, 'gone');
    await create(t, '/api/admin/context', {
      name: 'region',
      legalValues: [{ value: 'eu' }, { value: 'us' }],
    });
  });
  afterAll(() => t.close());

  function faulty(): ImportDocument {
    const doc = generatedDocument(2, { id: 99, name: 'nowhere' });
    doc.features.push(
      { name: 'taken', type: 'release' },
      { name: 'bad name!', type: 'release' },
      { name: 'gen-00001', type: 'release' },
    );
    doc.featureStrategies[0].name = 'noSuchType';
    doc.contextFields[0].legalValues = [{ value: 'eu' }, { value: 'us' }, { value: 'apac' }];
    doc.dependencies.push({ feature: 'gen-00002', dependencies: [{ feature: 'ghost' }] });
    return doc;
  }

  it('validate lists every error, writes nothing; import answers 400 with them', async () => {
    const before = await exportOf(t, 'default', 'development');
    const res = await expectStatus(t.admin.post(VALIDATE, body(faulty())), 200);
    const messages = (res.body.errors as Array<{ message: string; affectedItems: string[] }>).map(
      (e) => [e.message.split(' ').slice(0, 3).join(' '), e.affectedItems],
    );
    expect(messages).toEqual([
      ['These feature names', ['bad name!']],
      ['These features appear', ['gen-00001']],
      ['These features exist', ['taken']],
      ['These strategy types', ['noSuchType']],
      ['These context fields', ['region']],
      ['These segments do', ['nowhere']],
      ['These parent features', ['ghost']],
    ]);
    const rejected = await t.admin.post(IMPORT, body(faulty()));
    const record = expectErrorRecord(rejected, 400, 'ValidationError');
    expect((record as unknown as { errors: unknown }).errors).toEqual(res.body.errors);
    expect(await exportOf(t, 'default', 'development')).toEqual(before);
    expect((await t.admin.get('/api/admin/tag-types/team')).status).toBe(404);
  });

  it('warns of archived, overwritten and created things', async () => {
    const doc = generatedDocument(1, segment);
    doc.contextFields = [{ name: 'tenant', legalValues: [] }];
    doc.features.push({ name: 'mine' }, { name: 'gone' }, { name: 'old', archived: true });
    const res = await expectStatus(t.admin.post(VALIDATE, body(doc)), 200);
    expect(res.body).toEqual({
      errors: [],
      warnings: [
        { message: expect.stringMatching(/archived/), affectedItems: ['gone', 'old'] },
        { message: expect.stringMatching(/overwritten/), affectedItems: ['mine'] },
        {
          message: expect.stringMatching(/context fields will be created/),
          affectedItems: ['tenant'],
        },
        { message: expect.stringMatching(/tag types will be created/), affectedItems: ['team'] },
      ],
      permissions: [],
    });
  });

  it('refuses loops and chains of dependencies, in the file and with stored edges, and writes nothing', async () => {
    // Stored: kid → base. The file's edges, with the rule each breaks:
    await createFeature(t, 'base');
    await createFeature(t, 'kid');
    await expectStatus(t.admin.post(`${featureUrl('kid')}/dependencies`, { feature: 'base' }), 201);
    const edges: Array<[string, string]> = [
      ['selfish', 'selfish'], // depends on itself
      ['x', 'y'], // y has a parent in the file (y → z)
      ['y', 'z'], // y has a child in the file (x → y)
      ['w', 'kid'], // kid has a stored parent
      ['base', 'z'], // base has a stored child
      ['v', 'z'], // allowed: v has no child, z no parent
    ];
    // Nothing but features and edges, so that the import creates no tag type or context field.
    const doc: ImportDocument = {
      ...generatedDocument(0, segment),
      contextFields: [],
      tagTypes: [],
      features: ['selfish', 'x', 'y', 'z', 'w', 'v', 'base'].map((name) => ({ name })),
      dependencies: edges.map(([child, parent]) => ({
        feature: child,
        dependencies: [{ feature: parent }],
      })),
    };
    const res = await expectStatus(t.admin.post(VALIDATE, body(doc)), 200);
    expect(res.body.errors).toEqual([
      { message: expect.stringMatching(/depend on themselves/), affectedItems: ['selfish'] },
      {
        message: expect.stringMatching(/would chain features/),
        affectedItems: ['base → z', 'w → kid', 'x → y', 'y → z'],
      },
    ]);
    const before = await exportOf(t, 'default', 'development');
    const rejected = expectErrorRecord(
      await t.admin.post(IMPORT, body(doc)),
      400,
      'ValidationError',
    );
    expect((rejected as unknown as { errors: unknown }).errors).toEqual(res.body.errors);
    expect(await exportOf(t, 'default', 'development')).toEqual(before);

    // Without the offending edges the same file imports.
    doc.dependencies = doc.dependencies.filter((d) => d.feature === 'v');
    await expectStatus(t.admin.post(IMPORT, body(doc)), 204);
    const after = await exportOf(t, 'default', 'development');
    expect(after.dependencies.filter((d) => ['kid', 'v'].includes(d.feature))).toEqual([
      { feature: 'kid', dependencies: [expect.objectContaining({ feature: 'base' })] },
      { feature: 'v', dependencies: [expect.objectContaining({ feature: 'z' })] },
    ]);
  });

  it('names the permissions the token lacks, and import answers 403', async () => {
    const token = await serviceTokenWith(t, [
      { name: 'UPDATE_FEATURE' },
      { name: 'CREATE_FEATURE_STRATEGY', environment: 'production' },
    ]);
    const doc = generatedDocument(1, segment);
    doc.contextFields.push({ name: 'tenant' });
    doc.features.push({ name: 'mine' });
    const res = await expectStatus(t.as(token).post(VALIDATE, body(doc)), 200);
    expect(res.body.permissions).toEqual([
      {
        message: expect.any(String),
        affectedItems: [
          'CREATE_CONTEXT_FIELD',
          'CREATE_FEATURE',
          'CREATE_FEATURE_STRATEGY',
          'CREATE_TAG_TYPE',
          'DELETE_FEATURE_STRATEGY',
          'UPDATE_FEATURE_ENVIRONMENT',
          'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
        ],
      },
    ]);
    const denied = expectErrorRecord(
      await t.as(token).post(IMPORT, body(doc)),
      403,
      'PermissionError',
    );
    expect(denied.message).toMatch(/CREATE_FEATURE/);
    expect((await t.admin.get('/api/admin/projects/default/features/gen-00001')).status).toBe(404);
  });

  it('answers 400 with paths for a body that is not an import, and ignores unknown collections', async () => {
    const notAnExport = expectErrorRecord(
      await t.admin.post(IMPORT, {
        project: 'default',
        environment: 'development',
        data: { features: 3 },
      }),
      400,
      'ValidationError',
    );
    expect(notAnExport.details?.map((d) => d.path)).toEqual(
      expect.arrayContaining([
        '/body/data/features',
        '/body/data/featureStrategies',
        '/body/data/tagTypes',
      ]),
    );
    const doc = generatedDocument(1, segment);
    (doc.featureStrategies[0] as Record<string, unknown>).colour = 'red';
    const unknownField = expectErrorRecord(
      await t.admin.post(VALIDATE, body(doc)),
      400,
      'ValidationError',
    );
    expect(unknownField.details).toEqual([
      {
        path: '/body/data/featureStrategies/0/colour',
        message: 'colour is not an allowed property',
      },
    ]);
    const missing = expectErrorRecord(
      await t.admin.post(VALIDATE, body(generatedDocument(1, segment), 'nope')),
      400,
      'ValidationError',
    );
    expect(missing.details?.[0].path).toBe('/body/project');
  });

  // Found by test/fuzz.e2e-spec.ts: without `data` (or with an array there) both routes answered 500.
  it.each([
    ['no data', {}],
    ['data an array', { data: [] }],
    ['data null', { data: null }],
    ['data a string', { data: 'x' }],
  ])('answers 400 at /body/data for %s, on validate and import', async (_what, extra) => {
    for (const url of [VALIDATE, IMPORT]) {
      const record = expectErrorRecord(
        await t.admin.post(url, { project: 'default', environment: 'development', ...extra }),
        400,
        'ValidationError',
      );
      expect(record.details?.map((d) => d.path)).toEqual(['/body/data']);
    }
  });
});

describe('import: an export of Unleash 7.5.1', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await create(t, '/api/admin/segments', { name: 'beta-users', constraints: [] });
  });
  afterAll(() => t.close());

  it('imports, ignoring links, a tag type’s color and a context field’s project', async () => {
    // Written from Unleash 7.5.1's exportResultSchema and its export code: the fields it emits.
    const data = JSON.parse(
      readFileSync(join(__dirname, 'fixtures', 'unleash-7.5.1-export.json'), 'utf8'),
    ) as ImportDocument;
    const validated = await expectStatus(t.admin.post(VALIDATE, body(data)), 200);
    expect(validated.body.errors).toEqual([]);
    await expectStatus(t.admin.post(IMPORT, body(data)), 204);

    const exported = await exportOf(t, 'default', 'development');
    expect(exported.features.map((f) => [f.name, f.project, f.type, f.impressionData])).toEqual([
      ['checkout-v2', 'default', 'release', true],
      ['checkout-v2-express', 'default', 'experiment', false],
    ]);
    expect(
      exported.featureStrategies.map((s) => [s.featureName, s.name, s.sortOrder, s.disabled]),
    ).toEqual([
      ['checkout-v2', 'flexibleRollout', 0, false],
      ['checkout-v2-express', 'default', 9999, true],
    ]);
    expect(exported.segments.map((s) => s.name)).toEqual(['beta-users']);
    expect(exported.featureTags.map((tag) => [tag.featureName, tag.tagType, tag.tagValue])).toEqual(
      [
        ['checkout-v2', 'simple', 'payments'],
        ['checkout-v2-express', 'area', 'cart'],
      ],
    );
    expect(exported.dependencies).toEqual([
      {
        feature: 'checkout-v2-express',
        dependencies: [{ feature: 'checkout-v2', enabled: true, variants: ['a'] }],
      },
    ]);
    const country = await expectStatus(t.admin.get('/api/admin/context/country'), 200);
    expect(country.body.legalValues).toEqual([
      { value: 'de', description: 'Germany' },
      { value: 'fr' },
    ]);
    const area = await expectStatus(t.admin.get('/api/admin/tag-types/area'), 200);
    expect(area.body.tagType).toEqual({
      name: 'area',
      description: 'Part of the shop',
      icon: null,
    });
  });
});

describe('import: as the API behaves, and its limits', () => {
  let t: TestApp;
  let segment: { id: number; name: string };

  beforeAll(async () => {
    t = await startTestApp();
    segment = await fileDefinitions(t);
  });
  afterAll(() => t.close());

  const renamed = (doc: ImportDocument, prefix: string): ImportDocument => {
    const name = (old: unknown) => `${prefix}-${old as string}`;
    doc.features.forEach((f) => (f.name = name(f.name)));
    for (const list of [doc.featureEnvironments, doc.featureStrategies, doc.featureTags]) {
      list.forEach((entry) => (entry.featureName = name(entry.featureName)));
    }
    doc.featureEnvironments.forEach((e) => (e.name = e.featureName));
    doc.dependencies.forEach((d) => {
      d.feature = name(d.feature);
      d.dependencies.forEach((p) => (p.feature = name(p.feature)));
    });
    return doc;
  };
  const stages = async (feature: string) =>
    (
      (
        await expectStatus(
          t.admin.get(`/api/admin/projects/default/features/${feature}/lifecycle`),
          200,
        )
      ).body as Array<{ stage: string }>
    ).map((row) => row.stage);

  it('keeps on a re-import the features, strategies and tags the file repeats (same ids), replaces the others', async () => {
    const doc = renamed(generatedDocument(3, segment), 'again');
    await expectStatus(t.admin.post(IMPORT, body(doc)), 204);
    const first = await exportOf(t, 'default', 'development');
    const ids = (exported: ImportDocument) =>
      new Map(
        exported.featureStrategies
          .filter((s) => (s.featureName as string).startsWith('again-'))
          .map((s) => [`${s.featureName as string}/${s.sortOrder as number}`, s.id]),
      );
    const tagsOf = (exported: ImportDocument) =>
      exported.featureTags
        .filter((tag) => (tag.featureName as string).startsWith('again-'))
        .map(
          (tag) =>
            `${tag.featureName as string} ${tag.tagType as string}:${tag.tagValue as string}`,
        );
    const before = ids(first);
    expect(before.size).toBe(6);

    // The same file: nothing of features, strategies, their segments or tags is written.
    const same = await t.sql.measure(() => expectStatus(t.admin.post(IMPORT, body(doc)), 204));
    const writes = (statements: string[]) =>
      statements.filter((sql) =>
        /^\s*(INSERT|DELETE|UPDATE|LOAD DATA)\b[^]*\b(feature_strategies|feature_strategy_segments|feature_tags)\b/.test(
          sql,
        ),
      );
    const featureWrites = (statements: string[]) =>
      statements.filter((sql) => /^\s*INSERT INTO features\b/.test(sql));
    expect(writes(same.statements)).toEqual([]);
    expect(featureWrites(same.statements)).toEqual([]);
    expect(ids(await exportOf(t, 'default', 'development'))).toEqual(before);

    // One feature, one strategy and one tag differ: only they are written.
    doc.features[1].description = 'Described again';
    doc.featureStrategies[2].parameters = { rollout: '25', stickiness: 'default', groupId: 'g' };
    doc.featureTags[0].tagValue = 'renamed';
    const changed = await t.sql.measure(() => expectStatus(t.admin.post(IMPORT, body(doc)), 204));
    expect(writes(changed.statements).length).toBeGreaterThan(0);
    expect(featureWrites(changed.statements)).toHaveLength(1);
    const second = await exportOf(t, 'default', 'development');
    expect(
      second.features
        .filter((f) => (f.name as string).startsWith('again-'))
        .map((f) => [f.name, f.description]),
    ).toEqual(
      first.features
        .filter((f) => (f.name as string).startsWith('again-'))
        .map((f) => [f.name, f.name === 'again-gen-00002' ? 'Described again' : f.description]),
    );
    const after = ids(second);
    for (const [key, id] of before) {
      if (key === 'again-gen-00002/0') expect(after.get(key)).not.toBe(id);
      else expect(after.get(key)).toBe(id);
    }
    const moved = second.featureStrategies.find((s) => s.id === after.get('again-gen-00002/0'));
    expect(moved?.parameters).toEqual({ rollout: '25', stickiness: 'default', groupId: 'g' });
    expect(moved?.segments).toEqual([segment.id]);
    expect(tagsOf(second)).toEqual(
      tagsOf(first)
        .map((tag) =>
          tag === 'again-gen-00001 simple:generated' ? 'again-gen-00001 simple:renamed' : tag,
        )
        .sort(),
    );
  });

  it('inserts the strategies written ahead only when every row goes in; else the store writes them', async () => {
    // The import writes the INSERT's values ahead when the analysis saw no strategies in the
    // environment (prewriteForImport). Here one was added since: the locking read finds it, the
    // file repeats it, so it is kept, and only the other row is inserted, written by the store.
    await createFeature(t, 'ahead-1');
    const kept = await createStrategy(t, 'ahead-1', 'development', {
      name: 'flexibleRollout',
      parameters: { rollout: '40', stickiness: 'default', groupId: 'ahead-1' },
    });
    const strategies = t.app.get(StrategiesStore);
    const stored = (await t.dataSource.query(
      'SELECT * FROM feature_strategies WHERE feature_name = ?',
      ['ahead-1'],
    )) as Array<Record<string, unknown>>;
    expect(stored.map((row) => row.id)).toEqual([kept.id]);
    const repeated: ImportStrategyRow = {
      feature: 'ahead-1',
      strategy: String(stored[0].strategy_name),
      parameters: String(stored[0].parameters),
      constraints: String(stored[0].constraints),
      variants: String(stored[0].variants),
      sort_order: Number(stored[0].sort_order),
      disabled: 0,
      segments: [],
    };
    const added: ImportStrategyRow = {
      ...repeated,
      strategy: 'default',
      parameters: '{}',
      sort_order: 1,
    };
    const at = sqlTimestamp(new Date());
    const ahead = strategies.prewriteForImport('development', [repeated, added], at);
    if (t.dataSource.options.type === 'better-sqlite3') {
      // SQLite's rows go in as one JSON parameter; nothing is written ahead.
      expect(ahead).toBeUndefined();
      return;
    }
    expect(ahead?.data.rows).toBe(2);
    await t.dataSource.transaction((tx) =>
      strategies.replaceForImport(tx, 'development', ['ahead-1'], [repeated, added], at, ahead),
    );
    const after = (await t.dataSource.query(
      'SELECT id, strategy_name FROM feature_strategies WHERE feature_name = ? ORDER BY sort_order',
      ['ahead-1'],
    )) as Array<{ id: string; strategy_name: string }>;
    expect(after.map((row) => row.strategy_name)).toEqual(['flexibleRollout', 'default']);
    expect(after[0].id).toBe(kept.id);
    expect(after[1].id.startsWith(ahead?.prefix ?? '')).toBe(false);
  });

  it('fails a strategy whose feature is gone as an INSERT does, and keeps none of the rows', async () => {
    // MySQL loads the rows as data (load-data.ts), and the server skips a row it cannot write
    // with a warning only: the store must still fail as an INSERT does, so that the import rolls
    // back and runs again on a fresh analysis.
    await createFeature(t, 'load-1');
    const strategies = t.app.get(StrategiesStore);
    const row = (feature: string): ImportStrategyRow => ({
      feature,
      strategy: 'default',
      parameters: '{}',
      constraints: '[]',
      variants: '[]',
      sort_order: 0,
      disabled: 0,
      segments: [],
    });
    const names = ['load-1', 'load-ghost'];
    const failure = await t.dataSource
      .transaction((tx) =>
        strategies.replaceForImport(
          tx,
          'development',
          names,
          names.map(row),
          sqlTimestamp(new Date()),
        ),
      )
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isForeignKeyViolation(failure)).toBe(true);
    expect(
      await t.dataSource.query('SELECT id FROM feature_strategies WHERE feature_name = ?', [
        'load-1',
      ]),
    ).toEqual([]);
  });

  it('inserts the strategies where the server refuses local data, and loads them where it takes it', async () => {
    const mysql = t.dataSource.options.type !== 'better-sqlite3';
    const strategyWrites = (statements: string[]) =>
      statements
        .filter((sql) => /\bfeature_strategies\b/.test(sql))
        .map((sql) => /^\s*(INSERT INTO|LOAD DATA)/.exec(sql)?.[1])
        .filter(Boolean);
    // MySQL: the server's switch turned off for the first import; it refuses the load, and the
    // rows go in as INSERTs. Other suites' imports meanwhile fall back alike. The switch is put
    // back as it was.
    const [{ was }]: Array<{ was: number }> = mysql
      ? await t.dataSource.query('SELECT @@GLOBAL.local_infile AS was')
      : [{ was: 0 }];
    if (mysql) await t.dataSource.query('SET GLOBAL local_infile = 0');
    try {
      const inserted = await t.sql.measure(() =>
        expectStatus(
          t.admin.post(IMPORT, body(renamed(generatedDocument(3, segment), 'refused'))),
          204,
        ),
      );
      expect(strategyWrites(inserted.statements)).toEqual(
        mysql ? ['LOAD DATA', 'INSERT INTO'] : ['INSERT INTO'],
      );
    } finally {
      if (mysql) await t.dataSource.query('SET GLOBAL local_infile = ?', [Number(was)]);
      forgetLocalDataRefusal(t.dataSource);
    }
    const loaded = await t.sql.measure(() =>
      expectStatus(
        t.admin.post(IMPORT, body(renamed(generatedDocument(3, segment), 'loaded'))),
        204,
      ),
    );
    // Both ways store the same strategies (all but the new ids).
    const exported = (await exportOf(t, 'default', 'development')).featureStrategies;
    const of = (prefix: string) =>
      exported
        .filter((s) => (s.featureName as string).startsWith(`${prefix}-`))
        .map(({ id: _id, featureName, ...rest }) => ({
          ...rest,
          featureName: (featureName as string).slice(prefix.length),
        }));
    expect(of('refused').length).toBeGreaterThan(0);
    expect(of('refused')).toEqual(of('loaded'));
    expect(strategyWrites(loaded.statements)).toEqual([mysql ? 'LOAD DATA' : 'INSERT INTO']);
  });

  it('answers 400 with the path of each bad item of a large file, the same on both routes, and writes nothing', async () => {
    const doc = renamed(generatedDocument(1500, segment), 'big');
    (doc.featureStrategies[2345].constraints as Array<Record<string, unknown>>)[0].operator =
      'LIKE';
    (doc.featureEnvironments[777].variants as Array<Record<string, unknown>>)[1].weight = 1001;
    doc.featureTags[999].tagValue = 'x';
    doc.features[1400].stale = 'yes';
    (doc.featureStrategies[12] as Record<string, unknown>).colour = 'red';
    const expected = [
      { path: '/body/data/features/1400/stale', message: 'stale must be a boolean value' },
      {
        path: '/body/data/featureStrategies/12/colour',
        message: 'colour is not an allowed property',
      },
      {
        path: '/body/data/featureStrategies/2345/constraints/0/operator',
        message: expect.stringMatching(/^operator must be one of NOT_IN, IN/),
      },
      {
        path: '/body/data/featureEnvironments/777/variants/1/weight',
        message: 'weight must not be greater than 1000',
      },
      {
        path: '/body/data/featureTags/999/tagValue',
        message: 'tagValue must be 2 to 50 characters long',
      },
    ];
    for (const url of [VALIDATE, IMPORT]) {
      const record = expectErrorRecord(await t.admin.post(url, body(doc)), 400, 'ValidationError');
      expect(record.details).toEqual(expected);
    }
    expect((await t.admin.get('/api/admin/projects/default/features/big-gen-00001')).status).toBe(
      404,
    );
  }, 120000);

  it('refuses prototype-named properties deep in the lists with their path', async () => {
    const doc = generatedDocument(3, segment);
    const text = JSON.stringify(body(doc)).replace(
      '"operator":"NOT_IN"',
      '"operator":"NOT_IN","constructor":{"prototype":1}',
    );
    const record = expectErrorRecord(
      await t.admin.post(IMPORT).set('content-type', 'application/json').send(text),
      400,
      'ValidationError',
    );
    expect(record.details?.map((d) => d.path)).toEqual([
      '/body/data/featureStrategies/1/constraints/0/constructor',
      '/body/data/featureStrategies/1/constraints/0/constructor/prototype',
    ]);
    expect((await t.admin.get('/api/admin/projects/default/features/gen-00001')).status).toBe(404);
  });

  it('refuses reserved keys spelled with escapes, and unpaired surrogates, with their path', async () => {
    const doc = generatedDocument(3, segment);
    const text = JSON.stringify(body(doc))
      .replace('"operator":"NOT_IN"', '"operator":"NOT_IN","\\u005f_proto__":{"to\\u0053tring":1}')
      .replace('"description":"Generated gen-00003"', '"description":"Generated \\ud800"');
    const record = expectErrorRecord(
      await t.admin.post(IMPORT).set('content-type', 'application/json').send(text),
      400,
      'ValidationError',
    );
    expect(record.details?.map((d) => d.path)).toEqual([
      '/body/data/features/2/description',
      '/body/data/featureStrategies/1/constraints/0/__proto__',
      '/body/data/featureStrategies/1/constraints/0/__proto__/toString',
    ]);
    expect((await t.admin.get('/api/admin/projects/default/features/gen-00001')).status).toBe(404);
  });

  it('takes bodies over 10 MiB on import and validate, and answers 413 over 32 MiB', async () => {
    const doc = renamed(generatedDocument(2, segment), 'padded');
    // Whitespace between JSON tokens: a valid body of any size without building 10,000 features.
    const padded = (mib: number) =>
      JSON.stringify(body(doc)).replace('{', `{${' '.repeat(mib * 1024 * 1024)}`);
    const send = (url: string, text: string) =>
      t.admin.post(url).set('content-type', 'application/json').send(text);
    await expectStatus(send(VALIDATE, padded(12)), 200);
    // The other batch routes keep their 10 MiB.
    expectErrorRecord(await send(EXPORT, padded(12)), 413, 'PayloadTooLargeError');
    expectErrorRecord(await send(IMPORT, padded(33)), 413, 'PayloadTooLargeError');
    expect(
      (await t.admin.get('/api/admin/projects/default/features/padded-gen-00001')).status,
    ).toBe(404);
    await expectStatus(send(IMPORT, padded(12)), 204);
    expect(
      (await t.admin.get('/api/admin/projects/default/features/padded-gen-00001')).status,
    ).toBe(200);
  }, 120000);

  it('enters pre-live or live for the features it enables, as enabling does, never backwards', async () => {
    const dev = renamed(generatedDocument(2, segment), 'dev');
    dev.featureEnvironments[1].enabled = false;
    await expectStatus(t.admin.post(IMPORT, body(dev, 'default', 'development')), 204);
    expect(await stages('dev-gen-00001')).toEqual(['initial', 'pre-live']);
    expect(await stages('dev-gen-00002')).toEqual(['initial']);

    const prod = renamed(generatedDocument(1, segment), 'prod');
    await expectStatus(t.admin.post(IMPORT, body(prod, 'default', 'production')), 204);
    expect(await stages('prod-gen-00001')).toEqual(['initial', 'live']);
    // Live already: enabling it in development again records nothing.
    await expectStatus(t.admin.post(IMPORT, body(prod, 'default', 'development')), 204);
    expect(await stages('prod-gen-00001')).toEqual(['initial', 'live']);
  });

  it('fills in flexibleRollout’s defaults and checks percentages, as the strategy routes do', async () => {
    const doc = renamed(generatedDocument(1, segment), 'flex');
    doc.featureStrategies[0].parameters = {};
    await expectStatus(t.admin.post(IMPORT, body(doc)), 204);
    const exported = await exportOf(t, 'default', 'development');
    expect(
      exported.featureStrategies.find(
        (s) => s.featureName === 'flex-gen-00001' && s.name === 'flexibleRollout',
      )?.parameters,
    ).toEqual({ rollout: '100', stickiness: 'default', groupId: 'flex-gen-00001' });

    const wrong = renamed(generatedDocument(1, segment), 'wrong');
    wrong.featureStrategies[0].parameters = { rollout: '150', stickiness: 'default' };
    const res = await expectStatus(t.admin.post(VALIDATE, body(wrong)), 200);
    expect(res.body.errors).toEqual([
      {
        message: 'These items are invalid:',
        affectedItems: [
          '/data/featureStrategies/0/parameters/rollout: rollout must be a whole number from 0 to 100, as a string',
        ],
      },
    ]);
  });

  it('rolls back the features it wrote when the last strategy of a large file is invalid', async () => {
    // The import writes the features and their environments while it checks the strategies: an
    // error found there must still leave nothing behind (and the same error as validate).
    const doc = renamed(generatedDocument(1500, segment), 'late');
    const last = doc.featureStrategies.map((s) => s.name).lastIndexOf('flexibleRollout');
    expect(last).toBeGreaterThan(2500);
    doc.featureStrategies[last].parameters = { rollout: '150', stickiness: 'default' };
    const errors = [
      {
        message: 'These items are invalid:',
        affectedItems: [
          `/data/featureStrategies/${last}/parameters/rollout: rollout must be a whole number from 0 to 100, as a string`,
        ],
      },
    ];
    const res = await expectStatus(t.admin.post(VALIDATE, body(doc)), 200);
    expect(res.body.errors).toEqual(errors);
    const record = expectErrorRecord(await t.admin.post(IMPORT, body(doc)), 400, 'ValidationError');
    expect((record as unknown as { errors: unknown }).errors).toEqual(errors);
    const listed = await expectStatus(t.admin.get('/api/admin/projects/default/features'), 200);
    const names = (listed.body.features as Array<{ name: string }>).map((f) => f.name);
    expect(names.filter((name) => name.startsWith('late-'))).toEqual([]);
    for (const name of ['late-gen-00001', 'late-gen-01500']) {
      expect((await t.admin.get(`/api/admin/projects/default/features/${name}`)).status).toBe(404);
    }
  }, 60000);
});
