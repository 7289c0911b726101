import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

const TAG_TYPES = '/api/admin/tag-types';

describe('tag types', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('lists the seeded simple type, wrapped', async () => {
    await t.admin.get(TAG_TYPES).expect(200, {
      version: 1,
      tagTypes: [
        { name: 'simple', description: 'Used to simplify filtering of features', icon: null },
      ],
    });
    await t.admin.get(`${TAG_TYPES}/simple`).expect(200, {
      version: 1,
      tagType: {
        name: 'simple',
        description: 'Used to simplify filtering of features',
        icon: null,
      },
    });
  });

  it('creates a tag type: 201 with the record; the list is by name', async () => {
    const res = await t.admin
      .post(TAG_TYPES, { name: 'team', description: 'Owning team', icon: 'group' })
      .expect(201);
    expect(res.body).toEqual({ name: 'team', description: 'Owning team', icon: 'group' });
    await t.admin.get(`${TAG_TYPES}/team`).expect(200, { version: 1, tagType: res.body });
    const bare = await t.admin.post(TAG_TYPES, { name: 'Area' }).expect(201);
    expect(bare.body).toEqual({ name: 'Area', description: null, icon: null });
    const list = await t.admin.get(TAG_TYPES).expect(200);
    expect(list.body.tagTypes.map((tt: { name: string }) => tt.name)).toEqual([
      'Area',
      'simple',
      'team',
    ]);
  });

  it('answers invalid bodies with 400 and a taken name with 409', async () => {
    const bad = await t.admin.post(TAG_TYPES, { name: 'a/b', icon: 'i'.repeat(256), colour: 1 });
    expect(
      expectErrorRecord(bad, 400, 'ValidationError')
        .details?.map((d) => d.path)
        .sort(),
    ).toEqual(['/body/colour', '/body/icon', '/body/name']);
    expectErrorRecord(await t.admin.post(TAG_TYPES, {}), 400, 'ValidationError');
    const taken = await t.admin.post(TAG_TYPES, { name: 'simple' });
    expect(expectErrorRecord(taken, 409, 'NameExistsError').message).toBe(
      'A tag type with name simple already exists',
    );
    await t.admin.post(TAG_TYPES, { name: 'Simple' }).expect(201);
  });

  it("accepts the colour that Unleash's UI sends (not stored: the seed's TagType has none)", async () => {
    const res = await t.admin
      .post(TAG_TYPES, { name: 'coloured', description: 'd', color: '#FFFFFF' })
      .expect(201);
    expect(res.body).toEqual({ name: 'coloured', description: 'd', icon: null });
    await t.admin.put(`${TAG_TYPES}/coloured`, { color: 'primary.main' }).expect(200);
    await t.admin.post(`${TAG_TYPES}/validate`, { name: 'tinted', color: '#00ff00' }).expect(200);
    const bad = await t.admin.post(TAG_TYPES, { name: 'tinted', color: 'red; drop' });
    expect(expectErrorRecord(bad, 400, 'ValidationError').details?.map((d) => d.path)).toEqual([
      '/body/color',
    ]);
  });

  it('updates description and icon; the name may be repeated but not changed', async () => {
    await t.admin.post(TAG_TYPES, { name: 'kind', description: 'd', icon: 'i' }).expect(201);
    const res = await t.admin
      .put(`${TAG_TYPES}/kind`, { name: 'kind', description: 'Kind of work' })
      .expect(200);
    expect(res.body).toEqual({ name: 'kind', description: 'Kind of work', icon: 'i' });
    const cleared = await t.admin.put(`${TAG_TYPES}/kind`, { icon: null }).expect(200);
    expect(cleared.body).toEqual({ name: 'kind', description: 'Kind of work', icon: null });
    await t.admin.get(`${TAG_TYPES}/kind`).expect(200, { version: 1, tagType: cleared.body });
    const rename = await t.admin.put(`${TAG_TYPES}/kind`, { name: 'sort' });
    expect(expectErrorRecord(rename, 400, 'ValidationError').details?.[0].path).toBe('/body/name');
  });

  it('answers 404 for an unknown tag type on every route that names one', async () => {
    const res = await t.admin.get(`${TAG_TYPES}/nope`);
    expect(expectErrorRecord(res, 404, 'NotFoundError').message).toBe(
      'Could not find tag type with name nope',
    );
    expectErrorRecord(await t.admin.put(`${TAG_TYPES}/nope`, { icon: 'x' }), 404, 'NotFoundError');
    expectErrorRecord(await t.admin.delete(`${TAG_TYPES}/nope`), 404, 'NotFoundError');
  });

  it('deletes a tag type together with the tags of that type', async () => {
    await t.admin.post(TAG_TYPES, { name: 'doomed' }).expect(201);
    await t.dataSource.query(
      `INSERT INTO features (name, project_id, type, stale, impression_data) VALUES (?, 'default', 'release', 0, 0)`,
      ['tagged'],
    );
    await t.dataSource.query(
      `INSERT INTO feature_tags (feature_name, tag_type, tag_value) VALUES (?, ?, ?), (?, ?, ?)`,
      ['tagged', 'doomed', 'v1', 'tagged', 'simple', 'v2'],
    );
    await t.admin.delete(`${TAG_TYPES}/doomed`).expect(204);
    expectErrorRecord(await t.admin.get(`${TAG_TYPES}/doomed`), 404, 'NotFoundError');
    const tags = await t.dataSource.query(
      `SELECT tag_type FROM feature_tags WHERE feature_name = ?`,
      ['tagged'],
    );
    expect(tags).toEqual([{ tag_type: 'simple' }]);
  });

  it('requires CREATE_, UPDATE_ and DELETE_TAG_TYPE for the writes; reads need any token', async () => {
    const none = await serviceTokenWith(t, [{ name: 'CREATE_SEGMENT' }]);
    await t.as(none).get(TAG_TYPES).expect(200);
    await t.as(none).get(`${TAG_TYPES}/simple`).expect(200);
    const cases: Array<[string, () => ReturnType<TestApp['admin']['get']>]> = [
      ['CREATE_TAG_TYPE', () => t.as(none).post(TAG_TYPES, { name: 'x' })],
      ['UPDATE_TAG_TYPE', () => t.as(none).put(`${TAG_TYPES}/simple`, { icon: 'x' })],
      ['DELETE_TAG_TYPE', () => t.as(none).delete(`${TAG_TYPES}/simple`)],
    ];
    for (const [permission, call] of cases) {
      const record = expectErrorRecord(await call(), 403, 'PermissionError');
      expect(record).toEqual(expect.objectContaining({ permissions: [permission] }));
    }
    const creator = await serviceTokenWith(t, [{ name: 'CREATE_TAG_TYPE' }]);
    await t.as(creator).post(TAG_TYPES, { name: 'svc' }).expect(201);
    const updater = await serviceTokenWith(t, [{ name: 'UPDATE_TAG_TYPE' }]);
    await t.as(updater).put(`${TAG_TYPES}/svc`, { icon: 'star' }).expect(200);
    const deleter = await serviceTokenWith(t, [{ name: 'DELETE_TAG_TYPE' }]);
    await t.as(deleter).delete(`${TAG_TYPES}/svc`).expect(204);
  });
});
