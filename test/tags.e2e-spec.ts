import { createFeature } from './feature-fixtures';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

const TAGS = '/api/admin/tags';
const featureTags = (feature: string) => `/api/admin/features/${feature}/tags`;

describe('tags', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.admin.post('/api/admin/tag-types', { name: 'team' }).expect(201);
    await createFeature(t, 'checkout');
    await createFeature(t, 'search');
  });
  afterAll(() => t.close());

  it('creates a tag (201, {version, tag}) that is listed before any feature carries it', async () => {
    await t.admin.get(TAGS).expect(200, { version: 1, tags: [] });
    await t.admin
      .post(TAGS, { type: 'team', value: ' payments ' })
      .expect(201, { version: 1, tag: { type: 'team', value: 'payments' } });
    await t.admin
      .get(TAGS)
      .expect(200, { version: 1, tags: [{ type: 'team', value: 'payments' }] });
    await t.admin
      .get(`${TAGS}/team`)
      .expect(200, { version: 1, tags: [{ type: 'team', value: 'payments' }] });
    await t.admin.get(`${TAGS}/simple`).expect(200, { version: 1, tags: [] });
  });

  it('answers 409 for a tag that exists, 400 for an unknown type or a bad body', async () => {
    expectErrorRecord(
      await t.admin.post(TAGS, { type: 'team', value: 'payments' }),
      409,
      'NameExistsError',
    );
    const unknown = await t.admin.post(TAGS, { type: 'colour', value: 'red' });
    expect(expectErrorRecord(unknown, 400, 'ValidationError').details?.[0].path).toBe('/body/type');
    const bad = await t.admin.post(TAGS, { type: 'a b', value: 'x', extra: 1 });
    expect(
      expectErrorRecord(bad, 400, 'ValidationError')
        .details?.map((d) => d.path)
        .sort(),
    ).toEqual(['/body/extra', '/body/type', '/body/value']);
    expectErrorRecord(await t.admin.get(`${TAGS}/colour`), 404, 'NotFoundError');
  });

  it('lists the tags put on features, by type then value', async () => {
    await t.admin.post(featureTags('search'), { type: 'simple', value: 'beta' }).expect(201);
    const list = await t.admin.get(TAGS).expect(200);
    expect(list.body.tags).toEqual([
      { type: 'simple', value: 'beta' },
      { type: 'team', value: 'payments' },
    ]);
  });

  it('PUT adds and removes tags in one go and answers the feature’s tags', async () => {
    await t.admin.post(featureTags('checkout'), { type: 'simple', value: 'old' }).expect(201);
    const res = await t.admin
      .put(featureTags('checkout'), {
        addedTags: [
          { type: 'team', value: 'payments' },
          { type: 'team', value: 'growth' },
          { type: 'team', value: 'growth' },
          { type: 'simple', value: 'both' },
        ],
        removedTags: [
          { type: 'simple', value: 'old' },
          { type: 'simple', value: 'never-there' },
          { type: 'simple', value: 'both' },
        ],
      })
      .expect(200);
    expect(res.body).toEqual({
      version: 1,
      tags: [
        { type: 'team', value: 'growth' },
        { type: 'team', value: 'payments' },
      ],
    });
    await t.admin.get(featureTags('checkout')).expect(200, res.body);
    const all = await t.admin.get(TAGS).expect(200);
    expect(all.body.tags).toEqual(
      expect.arrayContaining([
        { type: 'team', value: 'growth' },
        { type: 'simple', value: 'both' },
      ]),
    );
  });

  it('PUT writes nothing when one added tag has an unknown type', async () => {
    const before = await t.admin.get(featureTags('checkout')).expect(200);
    const res = await t.admin.put(featureTags('checkout'), {
      addedTags: [
        { type: 'team', value: 'new-one' },
        { type: 'colour', value: 'red' },
      ],
      removedTags: [{ type: 'team', value: 'growth' }],
    });
    expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
      { path: '/body/addedTags/1/type', message: 'Could not find tag type with name colour' },
    ]);
    await t.admin.get(featureTags('checkout')).expect(200, before.body);
    const all = await t.admin.get(`${TAGS}/team`).expect(200);
    expect(all.body.tags).not.toContainEqual({ type: 'team', value: 'new-one' });
  });

  it('PUT validates its body and the feature', async () => {
    const missing = await t.admin.put(featureTags('checkout'), { addedTags: [] });
    expect(expectErrorRecord(missing, 400, 'ValidationError').details?.[0].path).toBe(
      '/body/removedTags',
    );
    const short = await t.admin.put(featureTags('checkout'), {
      addedTags: [{ type: 'team', value: 'x' }],
      removedTags: 'no',
    });
    expect(
      expectErrorRecord(short, 400, 'ValidationError')
        .details?.map((d) => d.path)
        .sort(),
    ).toEqual(['/body/addedTags/0/value', '/body/removedTags']);
    expectErrorRecord(
      await t.admin.put(featureTags('nope'), { addedTags: [], removedTags: [] }),
      404,
      'NotFoundError',
    );
  });

  it('PUT costs the same number of statements for 1 tag or 200', async () => {
    const change = (n: number, prefix: string) => ({
      addedTags: Array.from({ length: n }, (_, i) => ({ type: 'team', value: `${prefix}-${i}` })),
      removedTags: Array.from({ length: n }, (_, i) => ({ type: 'simple', value: `x-${i}` })),
    });
    const one = await t.sql.measure(() => t.admin.put(featureTags('search'), change(1, 'a')));
    const many = await t.sql.measure(() => t.admin.put(featureTags('search'), change(200, 'b')));
    expect(one.result.status).toBe(200);
    expect(many.result.status).toBe(200);
    expect(many.result.body.tags).toHaveLength(202);
    expect(many.count).toBe(one.count);
  });

  it('needs UPDATE_FEATURE to create tags or change a feature’s tags; reads need a token', async () => {
    const viewer = await serviceTokenWith(t, []);
    await t.as(viewer).get(TAGS).expect(200);
    expectErrorRecord(
      await t.as(viewer).post(TAGS, { type: 'team', value: 'ops' }),
      403,
      'PermissionError',
    );
    expectErrorRecord(
      await t.as(viewer).put(featureTags('checkout'), { addedTags: [], removedTags: [] }),
      403,
      'PermissionError',
    );
    const editor = await serviceTokenWith(t, [{ name: 'UPDATE_FEATURE' }]);
    await t.as(editor).post(TAGS, { type: 'team', value: 'ops' }).expect(201);
    await t.as(editor).put(featureTags('checkout'), { addedTags: [], removedTags: [] }).expect(200);
    expectErrorRecord(await t.http.get(TAGS), 401, 'AuthenticationRequired');
  });

  it('drops the tags of a tag type with it', async () => {
    await t.admin.post('/api/admin/tag-types', { name: 'doomed' }).expect(201);
    await t.admin.post(TAGS, { type: 'doomed', value: 'soon' }).expect(201);
    await t.admin.delete('/api/admin/tag-types/doomed').expect(204);
    const all = await t.admin.get(TAGS).expect(200);
    expect(all.body.tags.filter((tag: { type: string }) => tag.type === 'doomed')).toEqual([]);
  });
});
