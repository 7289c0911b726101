import {
  createFeature,
  envUrl,
  featureUrl,
  insertContextFieldDirectly,
  insertEnvironmentDirectly,
} from './feature-fixtures';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

describe('feature-environment variants', () => {
  let t: TestApp;
  const variants = (feature = 'colors', env = 'development') => `${envUrl(feature, env)}/variants`;
  const v = (name: string, extra: Record<string, unknown> = {}) => ({ name, weight: 0, ...extra });

  beforeAll(async () => {
    t = await startTestApp();
    await insertEnvironmentDirectly(t, 'staging', 'preproduction');
    await insertContextFieldDirectly(t, 'tenant', [], true);
    await createFeature(t, 'colors');
  });
  afterAll(() => t.close());

  it('starts empty', async () => {
    await t.admin.get(variants()).expect(200, { version: 1, variants: [] });
  });

  it('spreads variable weights so that all weights total 1000, first variants taking the remainder', async () => {
    const res = await t.admin.put(variants(), [v('red'), v('green'), v('blue')]).expect(200);
    expect(res.body).toEqual({
      version: 1,
      variants: [
        { name: 'red', weight: 334, weightType: 'variable', stickiness: 'default' },
        { name: 'green', weight: 333, weightType: 'variable', stickiness: 'default' },
        { name: 'blue', weight: 333, weightType: 'variable', stickiness: 'default' },
      ],
    });
    await t.admin.get(variants()).expect(200, res.body);
    const feature = await t.admin.get(featureUrl('colors')).expect(200);
    expect(feature.body.environments[0]).toEqual(
      expect.objectContaining({ variantCount: 3, variants: res.body.variants }),
    );
    expect(feature.body.environments[1]).toEqual(
      expect.objectContaining({ name: 'production', variantCount: 0, variants: [] }),
    );
  });

  it('keeps fix weights and the order given, and stores payloads, overrides and stickiness', async () => {
    const res = await t.admin
      .put(variants(), [
        v('a', { stickiness: 'tenant', payload: { type: 'number', value: '42' } }),
        { name: 'b', weight: 300, weightType: 'fix', stickiness: 'userId' },
        v('c', {
          weightType: 'variable',
          overrides: [{ contextName: 'userId', values: ['1', '2'] }],
          payload: { type: 'json', value: '{"x":[1,2]}' },
        }),
        v('d', { stickiness: 'random', payload: { type: 'csv', value: 'a,b' } }),
      ])
      .expect(200);
    expect(res.body.variants).toEqual([
      {
        name: 'a',
        weight: 234,
        weightType: 'variable',
        stickiness: 'tenant',
        payload: { type: 'number', value: '42' },
      },
      { name: 'b', weight: 300, weightType: 'fix', stickiness: 'userId' },
      {
        name: 'c',
        weight: 233,
        weightType: 'variable',
        stickiness: 'default',
        payload: { type: 'json', value: '{"x":[1,2]}' },
        overrides: [{ contextName: 'userId', values: ['1', '2'] }],
      },
      {
        name: 'd',
        weight: 233,
        weightType: 'variable',
        stickiness: 'random',
        payload: { type: 'csv', value: 'a,b' },
      },
    ]);
  });

  it('accepts only fix variants when they total 1000, and clears the list with []', async () => {
    await t.admin
      .put(variants(), [
        { name: 'x', weight: 250, weightType: 'fix' },
        { name: 'y', weight: 750, weightType: 'fix' },
      ])
      .expect(200);
    const cleared = await t.admin.put(variants(), []).expect(200);
    expect(cleared.body).toEqual({ version: 1, variants: [] });
  });

  it('answers 400 when the weights cannot total 1000', async () => {
    const over = await t.admin.put(variants(), [
      { name: 'x', weight: 800, weightType: 'fix' },
      { name: 'y', weight: 300, weightType: 'fix' },
      v('z'),
    ]);
    expect(expectErrorRecord(over, 400, 'ValidationError').details).toEqual([
      { path: '/body', message: 'The fix weights total 1100, more than 1000' },
    ]);
    const under = await t.admin.put(variants(), [{ name: 'x', weight: 900, weightType: 'fix' }]);
    expect(expectErrorRecord(under, 400, 'ValidationError').details).toEqual([
      {
        path: '/body',
        message: 'With only fix variants the weights must total 1000; they total 900',
      },
    ]);
  });

  it('answers 400 with item paths for a malformed list', async () => {
    const res = await t.admin.put(variants(), [
      { weight: 1001, extra: true },
      'red',
      { name: 'ok', weight: 1, weightType: 'heavy', payload: { type: 'xml', value: 1 } },
      { name: 'o', weight: 1, overrides: [{ contextName: 'userId', values: 'all' }] },
    ]);
    expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
      { path: '/body/0/extra', message: 'extra is not an allowed property' },
      { path: '/body/0/name', message: 'name is required' },
      { path: '/body/0/weight', message: 'weight must not be greater than 1000' },
      { path: '/body/1', message: 'must be an object' },
      { path: '/body/2/weightType', message: 'weightType must be one of variable, fix' },
      {
        path: '/body/2/payload/type',
        message: 'type must be one of json, csv, string, number',
      },
      {
        path: '/body/2/payload/value',
        message: 'value must be shorter than or equal to 10000 characters; value must be a string',
      },
      {
        path: '/body/3/overrides/0/values',
        message: 'values must contain no more than 1000 elements; values must be an array',
      },
    ]);
  });

  it('answers 400 when the body is not an array, or too long', async () => {
    const object = await t.admin.put(variants(), { variants: [] });
    expect(expectErrorRecord(object, 400, 'ValidationError').details).toEqual([
      { path: '/body', message: 'The body must be a JSON array' },
    ]);
    const many = Array.from({ length: 101 }, (_, i) => v(`v${i}`));
    expectErrorRecord(await t.admin.put(variants(), many), 400, 'ValidationError');
  });

  it('answers 400 for duplicate names, bad payloads and unknown context fields', async () => {
    const res = await t.admin.put(variants(), [
      v('a', { payload: { type: 'json', value: '{' } }),
      v('a', { payload: { type: 'number', value: '' } }),
      v('b', { stickiness: 'shoeSize', overrides: [{ contextName: 'planet', values: ['x'] }] }),
    ]);
    expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
      { path: '/body/1/name', message: 'Variant names must be unique; a appears more than once' },
      { path: '/body/0/payload/value', message: 'A json payload must be valid JSON' },
      { path: '/body/1/payload/value', message: 'A number payload must be a number' },
      {
        path: '/body/2/stickiness',
        message:
          'Unknown context field shoeSize; stickiness must be default, random or a context field',
      },
      { path: '/body/2/overrides/0/contextName', message: 'Unknown context field planet' },
    ]);
  });

  it('keeps each environment separate', async () => {
    await t.admin.put(variants('colors', 'production'), [v('only')]).expect(200);
    const dev = await t.admin.put(variants(), [v('one'), v('two')]).expect(200);
    expect(dev.body.variants.map((x: { weight: number }) => x.weight)).toEqual([500, 500]);
    const prod = await t.admin.get(variants('colors', 'production')).expect(200);
    expect(prod.body.variants).toEqual([
      { name: 'only', weight: 1000, weightType: 'variable', stickiness: 'default' },
    ]);
  });

  it('answers 404 for an unknown feature, environment or unlinked environment', async () => {
    for (const url of [
      variants('ghost'),
      variants('colors', 'nowhere'),
      variants('colors', 'staging'),
    ]) {
      expectErrorRecord(await t.admin.get(url), 404, 'NotFoundError');
      expectErrorRecord(await t.admin.put(url, [v('a')]), 404, 'NotFoundError');
    }
  });

  it('answers 400 to a change of an archived feature, which stays readable', async () => {
    await createFeature(t, 'old-colors');
    await t.admin.put(variants('old-colors'), [v('a')]).expect(200);
    await t.admin.delete(featureUrl('old-colors')).expect(204);
    const res = await t.admin.get(variants('old-colors')).expect(200);
    expect(res.body.variants).toHaveLength(1);
    expectErrorRecord(await t.admin.put(variants('old-colors'), []), 400, 'ValidationError');
  });

  it('checks UPDATE_FEATURE_ENVIRONMENT_VARIANTS for the environment in the path', async () => {
    const token = await serviceTokenWith(t, [
      { name: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', environment: 'development' },
    ]);
    await t
      .as(token)
      .put(variants(), [v('mine')])
      .expect(200);
    const res = await t.as(token).put(variants('colors', 'production'), [v('mine')]);
    expect(expectErrorRecord(res, 403, 'PermissionError')).toEqual(
      expect.objectContaining({ permissions: ['UPDATE_FEATURE_ENVIRONMENT_VARIANTS'] }),
    );
    await t.as(token).get(variants('colors', 'production')).expect(200);
  });
});
