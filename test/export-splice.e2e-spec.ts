import { create, createStrategyIn, EXPORT, expectStatus, tag } from './export-fixtures';
import { createFeature, envUrl } from './feature-fixtures';
import { expectErrorRecord, startTestApp, TestApp } from './support/test-app';

/*
 * The export splices stored JSON text into its document (issue 15) and falls back to parse and
 * stringify where the stored text is not in JSON.stringify's form. Either way the response must
 * be exactly JSON.stringify of the document it parses to (the bytes the export always answered),
 * and the context fields that the JSON names must be exported.
 */
describe('export: stored JSON, spliced or re-serialised', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    for (const name of ['tenant', 'region', 'plan', 'device', 'orgId']) {
      await create(t, '/api/admin/context', { name });
    }
    await createFeature(t, 'written-by-api');
    await createStrategyIn(t, 'written-by-api', 'development', {
      name: 'flexibleRollout',
      parameters: { rollout: '50', stickiness: 'tenant', groupId: 'g' },
      constraints: [{ contextName: 'region', operator: 'IN', values: ['eu', 'Ärger "q" \\'] }],
      variants: [
        {
          name: 'v',
          weight: 1000,
          weightType: 'variable',
          stickiness: 'default',
          payload: { type: 'json', value: '{"a": 1}' },
        },
      ],
    });
    await expectStatus(
      t.admin.put(`${envUrl('written-by-api', 'development')}/variants`, [
        {
          name: 'blue',
          weight: 1000,
          weightType: 'variable',
          stickiness: 'default',
          overrides: [{ contextName: 'plan', values: ['pro'] }],
        },
      ]),
      200,
    );

    // Rows written some other way: whitespace, escapes the app never writes, an index-like key
    // (which JSON.parse moves first), a duplicate key (which it collapses) and a fraction.
    await createFeature(t, 'written-by-hand');
    await createStrategyIn(t, 'written-by-hand', 'development', { name: 'default' });
    await t.dataSource.query(
      `UPDATE feature_strategies SET parameters = ?, constraints = ?, variants = ?
        WHERE feature_name = 'written-by-hand'`,
      [
        '{"b": "1", "1": "x", "stickiness": "\\u0064evice"}',
        '[{"contextName":"region","contextName":"orgId","operator":"IN","values":["a\\/b"]}]',
        '[ {"name":"w","weight":1000.0,"weightType":"fix","stickiness":"default"} ]',
      ],
    );
    await t.dataSource.query(
      `UPDATE feature_environments SET variants = ?
        WHERE feature_name = 'written-by-hand' AND environment_name = 'development'`,
      [
        '[{"name":"x","weight":1000,"weightType":"variable","stickiness":"default","overrides":[{"contextName":"tenant","values":[]}]} ]',
      ],
    );
  });

  afterAll(async () => t.close());

  it('answers exactly JSON.stringify of its document, with the context fields the JSON names', async () => {
    const res = await expectStatus(
      t.admin.post(EXPORT, {
        environment: 'development',
        features: ['written-by-api', 'written-by-hand'],
      }),
      200,
    );
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.text).toBe(JSON.stringify(res.body));

    const body = res.body as {
      featureStrategies: Array<Record<string, unknown>>;
      featureEnvironments: Array<Record<string, unknown>>;
      contextFields: Array<{ name: string }>;
    };
    const byHand = body.featureStrategies.find((s) => s.featureName === 'written-by-hand');
    expect(byHand?.parameters).toEqual({ 1: 'x', b: '1', stickiness: 'device' });
    expect(res.text).toContain('"parameters":{"1":"x","b":"1","stickiness":"device"}');
    expect(byHand?.constraints).toEqual([
      { contextName: 'orgId', operator: 'IN', values: ['a/b'] },
    ]);
    expect(res.text).toContain('"variants":[{"name":"w","weight":1000,');
    // As the API stored it: spliced unchanged.
    const [stored] = (await t.dataSource.query(
      `SELECT constraints FROM feature_strategies WHERE feature_name = 'written-by-api'`,
    )) as Array<{ constraints: string }>;
    expect(res.text).toContain(`"constraints":${stored.constraints}`);

    // tenant (API strategy stickiness, hand-written override), region (API constraint), plan (API
    // override), device (hand-written stickiness, escaped), orgId (the duplicate key's survivor).
    expect(body.contextFields.map((field) => field.name)).toEqual([
      'device',
      'orgId',
      'plan',
      'region',
      'tenant',
    ]);
  });

  it('writes text the database quotes (escapes, control characters) as JSON.stringify does', async () => {
    // Characters JSON.stringify escapes, short and as \u00xx, and some it does not (U+007F,
    // U+2028, an astral one). MariaDB's JSON_QUOTE spells `\u001F` where JSON.stringify writes
    // `\u001f`.
    const awkward = 'q"b\\n\nt\tc\b\f\r\u0001\u001f\u007f é \u2028 \u{1f600}';
    await createFeature(t, 'quoted-text', { description: awkward });
    await tag(t, 'quoted-text', 'simple', awkward);
    await createStrategyIn(t, 'quoted-text', 'development', { name: 'default', title: awkward });

    const res = await expectStatus(
      t.admin.post(EXPORT, { environment: 'development', features: ['quoted-text'] }),
      200,
    );
    expect(res.text).toBe(JSON.stringify(res.body));
    const body = res.body as {
      features: Array<{ description: string }>;
      featureTags: Array<{ tagValue: string }>;
      featureStrategies: Array<{ title: string }>;
    };
    expect(body.features[0].description).toBe(awkward);
    expect(body.featureTags[0].tagValue).toBe(awkward);
    expect(body.featureStrategies[0].title).toBe(awkward);
  });

  it('answers an unknown environment with an error record before any body', async () => {
    const res = await t.admin.post(EXPORT, { environment: 'nope', features: [] });
    expectErrorRecord(res, 404, 'NotFoundError');
  });
});
