import { createFeature, featureUrl } from './feature-fixtures';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

describe('feature tags', () => {
  let t: TestApp;
  const tags = (feature = 'tagged') => `/api/admin/features/${feature}/tags`;
  const tagUrl = (type: string, value: string, feature = 'tagged') =>
    `${tags(feature)}/${encodeURIComponent(type)}/${encodeURIComponent(value)}`;

  beforeAll(async () => {
    t = await startTestApp();
    // The tag-types API is built in parallel; a second tag type is written directly.
    await t.dataSource.query(
      `INSERT INTO tag_types (name, description, icon) VALUES ('team', NULL, NULL)`,
    );
    await createFeature(t, 'tagged');
  });
  afterAll(() => t.close());

  it('starts without tags', async () => {
    await t.admin.get(tags()).expect(200, { version: 1, tags: [] });
  });

  it('adds a tag (201), and answers 200 when the feature already has it', async () => {
    const res = await t.admin.post(tags(), { type: 'simple', value: 'beta' }).expect(201);
    expect(res.body).toEqual({ type: 'simple', value: 'beta' });
    await t.admin.post(tags(), { type: 'simple', value: 'beta' }).expect(200, res.body);
    await t.admin.post(tags(), { type: 'team', value: 'checkout' }).expect(201);
    await t.admin.post(tags(), { type: 'simple', value: '  alpha  ' }).expect(201, {
      type: 'simple',
      value: 'alpha',
    });
    const list = await t.admin.get(tags()).expect(200);
    expect(list.body).toEqual({
      version: 1,
      tags: [
        { type: 'simple', value: 'alpha' },
        { type: 'simple', value: 'beta' },
        { type: 'team', value: 'checkout' },
      ],
    });
    const feature = await t.admin.get(featureUrl('tagged')).expect(200);
    expect(feature.body.tags).toEqual(list.body.tags);
  });

  it('accepts values of 2 to 50 characters, counting characters rather than bytes', async () => {
    await t.admin.post(tags(), { type: 'simple', value: 'ab' }).expect(201);
    await t.admin.post(tags(), { type: 'simple', value: 'x'.repeat(50) }).expect(201);
    await t.admin.post(tags(), { type: 'simple', value: 'é'.repeat(50) }).expect(201);
    await t.admin.post(tags(), { type: 'simple', value: '🚀'.repeat(50) }).expect(201);
    for (const value of ['a', '  a  ', 'x'.repeat(51), '🚀'.repeat(51), 5]) {
      const res = await t.admin.post(tags(), { type: 'simple', value });
      expect(expectErrorRecord(res, 400, 'ValidationError').details?.[0].path).toBe('/body/value');
    }
    const list = await t.admin.get(tags()).expect(200);
    expect(list.body.tags.map((tag: { value: string }) => tag.value)).toContain('🚀'.repeat(50));
  });

  it('answers 400 for an unknown tag type and a malformed body', async () => {
    const res = await t.admin.post(tags(), { type: 'colour', value: 'red' });
    expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
      { path: '/body/type', message: 'Could not find tag type with name colour' },
    ]);
    const shape = await t.admin.post(tags(), { type: 'a b', extra: 1 });
    expect(
      expectErrorRecord(shape, 400, 'ValidationError')
        .details?.map((d) => d.path)
        .sort(),
    ).toEqual(['/body/extra', '/body/type', '/body/value']);
  });

  it('removes a tag (204), then 404; values with spaces and slashes travel encoded', async () => {
    await t.admin.post(tags(), { type: 'simple', value: 'needs review/2' }).expect(201);
    await t.admin.delete(tagUrl('simple', 'needs review/2')).expect(204);
    await t.admin.delete(tagUrl('simple', 'beta')).expect(204);
    const res = await t.admin.delete(tagUrl('simple', 'beta'));
    expect(expectErrorRecord(res, 404, 'NotFoundError').message).toBe(
      'Feature tagged has no tag simple:beta',
    );
    expectErrorRecord(await t.admin.delete(tagUrl('colour', 'red')), 404, 'NotFoundError');
    const list = await t.admin.get(tags()).expect(200);
    expect(list.body.tags).not.toContainEqual({ type: 'simple', value: 'beta' });
  });

  it('answers 404 for an unknown feature', async () => {
    expectErrorRecord(await t.admin.get(tags('ghost')), 404, 'NotFoundError');
    expectErrorRecord(
      await t.admin.post(tags('ghost'), { type: 'simple', value: 'xx' }),
      404,
      'NotFoundError',
    );
    expectErrorRecord(await t.admin.delete(tagUrl('simple', 'xx', 'ghost')), 404, 'NotFoundError');
  });

  it('tags archived features too', async () => {
    await createFeature(t, 'retired');
    await t.admin.delete(featureUrl('retired')).expect(204);
    await t.admin.post(tags('retired'), { type: 'simple', value: 'legacy' }).expect(201);
    await t.admin.get(tags('retired')).expect(200, {
      version: 1,
      tags: [{ type: 'simple', value: 'legacy' }],
    });
    await t.admin.delete(tagUrl('simple', 'legacy', 'retired')).expect(204);
  });

  it('needs UPDATE_FEATURE to change tags, any admin-API token to read them', async () => {
    const reader = await serviceTokenWith(t, [{ name: 'CREATE_FEATURE' }]);
    await t.as(reader).get(tags()).expect(200);
    const denied = await t.as(reader).post(tags(), { type: 'simple', value: 'nope' });
    expect(expectErrorRecord(denied, 403, 'PermissionError')).toEqual(
      expect.objectContaining({ permissions: ['UPDATE_FEATURE'] }),
    );
    expectErrorRecord(await t.as(reader).delete(tagUrl('simple', 'alpha')), 403, 'PermissionError');
    const writer = await serviceTokenWith(t, [{ name: 'UPDATE_FEATURE' }]);
    await t.as(writer).post(tags(), { type: 'simple', value: 'ok' }).expect(201);
    await t.as(writer).delete(tagUrl('simple', 'ok')).expect(204);
  });
});
