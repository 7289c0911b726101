import { routesOf } from '../src/app-setup';
import { createFeature, featureUrl, signIn, withCookie } from './feature-fixtures';
import {
  ADMIN_PASSWORD,
  ADMIN_TOKEN,
  expectErrorRecord,
  startTestApp,
  TestApp,
} from './support/test-app';

interface EventRecord {
  id: number;
  type: string;
  createdBy: string;
  createdByUserId: number | null;
  project: string | null;
  environment: string | null;
  featureName: string | null;
  data: unknown;
  preData: unknown;
}

/** Every event in the log, oldest first. */
async function allEvents(t: TestApp): Promise<EventRecord[]> {
  const res = await t.admin.get('/api/admin/events?limit=1000').expect(200);
  return (res.body.events as EventRecord[]).reverse();
}

describe('events of the remaining writes, and the people of a feature', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await createFeature(t, 'tagged');
  });
  afterAll(() => t.close());

  /**
   * Each write and the one event it must append (matched on its fields). Rows run in order, so a
   * later row may change what an earlier one created.
   */
  const ids: Record<string, number> = {};
  const writes: Array<{
    type: string;
    write: () => Promise<unknown>;
    expected: Partial<EventRecord>;
    count?: number;
  }> = [
    {
      type: 'segment-created',
      write: async () => {
        const res = await t.admin
          .post('/api/admin/segments', { name: 'beta-users', constraints: [] })
          .expect(201);
        ids.segment = res.body.id;
      },
      expected: { data: expect.objectContaining({ name: 'beta-users' }) },
    },
    {
      type: 'segment-updated',
      write: () =>
        t.admin.put(`/api/admin/segments/${ids.segment}`, { description: 'testers' }).expect(200),
      expected: {
        data: expect.objectContaining({ name: 'beta-users', description: 'testers' }),
        preData: expect.objectContaining({ description: null }),
      },
    },
    {
      type: 'segment-deleted',
      write: () => t.admin.delete(`/api/admin/segments/${ids.segment}`).expect(204),
      expected: { preData: expect.objectContaining({ name: 'beta-users' }) },
    },
    {
      type: 'context-field-created',
      write: () => t.admin.post('/api/admin/context', { name: 'region' }).expect(201),
      expected: { data: expect.objectContaining({ name: 'region' }) },
    },
    {
      type: 'context-field-updated',
      write: () => t.admin.put('/api/admin/context/region', { description: 'Where' }).expect(200),
      expected: {
        data: expect.objectContaining({ name: 'region', description: 'Where' }),
        preData: expect.objectContaining({ name: 'region', description: null }),
      },
    },
    {
      type: 'context-field-deleted',
      write: () => t.admin.delete('/api/admin/context/region').expect(204),
      expected: { preData: expect.objectContaining({ name: 'region' }) },
    },
    {
      type: 'tag-type-created',
      write: () => t.admin.post('/api/admin/tag-types', { name: 'team' }).expect(201),
      expected: { data: expect.objectContaining({ name: 'team' }) },
    },
    {
      type: 'tag-type-updated',
      write: () => t.admin.put('/api/admin/tag-types/team', { description: 'Owners' }).expect(200),
      expected: {
        data: expect.objectContaining({ name: 'team', description: 'Owners' }),
        preData: expect.objectContaining({ description: null }),
      },
    },
    {
      type: 'tag-created',
      write: () => t.admin.post('/api/admin/tags', { type: 'team', value: 'core' }).expect(201),
      expected: { data: { type: 'team', value: 'core' } },
    },
    {
      type: 'feature-tagged',
      // Three tags put on, one already there (POSTed first, its own event): one event each for
      // the two that are new, in the tags' order (simple:new, then team:web).
      write: async () => {
        await t.admin.post('/api/admin/features/tagged/tags', { type: 'team', value: 'core' });
        await t.admin
          .put('/api/admin/features/tagged/tags', {
            addedTags: [
              { type: 'team', value: 'core' },
              { type: 'team', value: 'web' },
              { type: 'simple', value: 'new' },
            ],
            removedTags: [],
          })
          .expect(200);
      },
      expected: {
        featureName: 'tagged',
        project: 'default',
        data: { type: 'team', value: 'web' },
      },
      count: 3,
    },
    {
      type: 'feature-untagged',
      write: () =>
        t.admin
          .put('/api/admin/features/tagged/tags', {
            addedTags: [],
            removedTags: [
              { type: 'team', value: 'web' },
              { type: 'team', value: 'never-there' },
            ],
          })
          .expect(200),
      expected: { featureName: 'tagged', preData: { type: 'team', value: 'web' } },
      count: 1,
    },
    {
      type: 'tag-type-deleted',
      write: () => t.admin.delete('/api/admin/tag-types/team').expect(204),
      expected: { preData: expect.objectContaining({ name: 'team' }) },
    },
    {
      type: 'strategy-created',
      write: () => t.admin.post('/api/admin/strategies', { name: 'by-host' }).expect(201),
      expected: { data: expect.objectContaining({ name: 'by-host' }) },
    },
    {
      type: 'strategy-updated',
      write: () =>
        t.admin.put('/api/admin/strategies/by-host', { description: 'Hosts' }).expect(200),
      expected: {
        data: expect.objectContaining({ name: 'by-host', description: 'Hosts' }),
        preData: expect.objectContaining({ description: null }),
      },
    },
    {
      type: 'strategy-deleted',
      write: () => t.admin.delete('/api/admin/strategies/by-host').expect(204),
      expected: { preData: expect.objectContaining({ name: 'by-host' }) },
    },
    {
      type: 'role-created',
      write: async () => {
        const res = await t.admin
          .post('/api/admin/roles', {
            name: 'flag-maker',
            permissions: [{ name: 'CREATE_FEATURE' }],
          })
          .expect(201);
        ids.role = res.body.id;
      },
      expected: { data: expect.objectContaining({ name: 'flag-maker' }) },
    },
    {
      type: 'role-updated',
      write: () =>
        t.admin.put(`/api/admin/roles/${ids.role}`, { description: 'Makes flags' }).expect(200),
      expected: {
        data: expect.objectContaining({ description: 'Makes flags' }),
        preData: expect.objectContaining({ name: 'flag-maker' }),
      },
    },
    {
      type: 'role-deleted',
      write: () => t.admin.delete(`/api/admin/roles/${ids.role}`).expect(204),
      expected: { preData: expect.objectContaining({ name: 'flag-maker' }) },
    },
    {
      type: 'api-token-created',
      write: async () => {
        const res = await t.admin
          .post('/api/admin/api-tokens', {
            tokenName: 'ci',
            type: 'client',
            environment: 'development',
          })
          .expect(201);
        ids.token = res.body.id;
      },
      expected: { data: expect.objectContaining({ tokenName: 'ci', type: 'client' }) },
    },
    {
      type: 'api-token-deleted',
      write: () => t.admin.delete(`/api/admin/api-tokens/${ids.token}`).expect(204),
      expected: { preData: expect.objectContaining({ tokenName: 'ci' }) },
    },
    {
      type: 'features-exported',
      write: () =>
        t.admin
          .post('/api/admin/features-batch/export', {
            environment: 'development',
            project: 'default',
          })
          .expect(200),
      expected: {
        project: 'default',
        environment: 'development',
        data: { selection: { rule: 'project', projectId: 'default' }, features: 1 },
      },
    },
  ];

  it.each(writes)('$type: its write appends it', async ({ type, write, expected, count }) => {
    const before = (await allEvents(t)).length;
    await write();
    const added = (await allEvents(t)).slice(before);
    const ofType = added.filter((event) => event.type === type);
    expect(ofType).toHaveLength(count ?? 1);
    expect(ofType[ofType.length - 1]).toEqual(
      expect.objectContaining({
        createdBy: 'init-admin-token-1',
        createdByUserId: null,
        ...expected,
      }),
    );
  });

  it('records the first admin user, created at start, as the system', async () => {
    const created = (await allEvents(t)).filter((event) => event.type === 'user-created');
    expect(created[0]).toEqual(
      expect.objectContaining({
        createdBy: 'system',
        createdByUserId: null,
        data: { id: 1, name: 'Admin', username: 'admin', email: null },
      }),
    );
  });

  it('records the admin tokens created at start, as the system, without their secret', async () => {
    const created = (await allEvents(t)).filter((event) => event.type === 'api-token-created');
    expect(created[0]).toEqual(
      expect.objectContaining({
        createdBy: 'system',
        createdByUserId: null,
        data: expect.objectContaining({ tokenName: 'init-admin-token-1', type: 'admin' }),
      }),
    );
    expect(JSON.stringify(created[0])).not.toContain(ADMIN_TOKEN);
  });

  it('never stores a token secret or a hash in an event', async () => {
    const res = await t.admin
      .post('/api/admin/api-tokens', { tokenName: 'secretive', type: 'admin' })
      .expect(201);
    const secret = res.body.secret as string;
    const log = JSON.stringify(await allEvents(t));
    expect(log).toContain('secretive');
    expect(log).not.toContain(secret);
    expect(log).not.toMatch(/secretHash|secret_hash|[0-9a-f]{64}/);
  });

  it('fills createdByUserId of tags put on with PUT', async () => {
    const cookie = await signIn(t, 'admin', ADMIN_PASSWORD);
    await withCookie(t, cookie)
      .post('/api/admin/features/tagged/tags', { type: 'simple', value: 'by-admin' })
      .expect(201);
    await t.http
      .put('/api/admin/features/tagged/tags')
      .set('Cookie', cookie)
      .set('Content-Type', 'application/json')
      .send({ addedTags: [{ type: 'simple', value: 'bulk' }], removedTags: [] })
      .expect(200);
    const rows: Array<{ tag_value: string; created_by_user_id: unknown }> =
      await t.dataSource.query(
        `SELECT tag_value, created_by_user_id FROM feature_tags
        WHERE feature_name = 'tagged' AND tag_value IN ('by-admin', 'bulk') ORDER BY tag_value`,
      );
    expect(rows.map((row) => [row.tag_value, Number(row.created_by_user_id)])).toEqual([
      ['bulk', 1],
      ['by-admin', 1],
    ]);
  });

  describe('a failed change leaves no event', () => {
    it.each([
      [
        'a duplicate segment (409)',
        () => t.admin.post('/api/admin/segments', { name: 'dup', constraints: [] }),
      ],
      [
        'a duplicate context field (409)',
        () => t.admin.post('/api/admin/context', { name: 'dup' }),
      ],
      ['a duplicate tag type (409)', () => t.admin.post('/api/admin/tag-types', { name: 'dup' })],
      [
        'a duplicate strategy type (409)',
        () => t.admin.post('/api/admin/strategies', { name: 'dup' }),
      ],
    ])('%s', async (_, create) => {
      await create().expect(201);
      const before = await allEvents(t);
      expectErrorRecord(await create(), 409, 'NameExistsError');
      expect(await allEvents(t)).toEqual(before);
    });

    it('a change refused before it writes: an unknown feature, a role for an unknown environment', async () => {
      const before = await allEvents(t);
      expectErrorRecord(
        await t.admin.put('/api/admin/features/missing/tags', {
          addedTags: [{ type: 'simple', value: 'xx' }],
          removedTags: [],
        }),
        404,
        'NotFoundError',
      );
      expectErrorRecord(
        await t.admin.post('/api/admin/roles', {
          name: 'bad-role',
          permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'nowhere' }],
        }),
        400,
        'ValidationError',
      );
      expect(await allEvents(t)).toEqual(before);
    });

    it('an insert that the database refuses inside the transaction rolls its event back', async () => {
      // A role whose name is taken is found only by the INSERT (unique key), after which the
      // transaction that would hold its event is rolled back.
      await t.admin.post('/api/admin/roles', { name: 'taken', permissions: [] }).expect(201);
      const before = await allEvents(t);
      expectErrorRecord(
        await t.admin.post('/api/admin/roles', { name: 'taken', permissions: [] }),
        409,
        'NameExistsError',
      );
      expect(await allEvents(t)).toEqual(before);
    });
  });

  it('events are never changed or deleted through the API: only GET reaches them', async () => {
    const eventRoutes = routesOf(t.app).filter((route) =>
      /^\/api\/admin\/(search\/)?events(\/|$)/.test(route.url),
    );
    expect(eventRoutes.map((route) => `${route.method} ${route.url}`).sort()).toEqual(
      expect.arrayContaining(['GET /api/admin/events', 'GET /api/admin/search/events']),
    );
    for (const route of eventRoutes) expect(['GET', 'HEAD']).toContain(route.method);
    const [event] = (await t.admin.get('/api/admin/events?limit=1').expect(200)).body.events;
    for (const method of ['post', 'put', 'patch', 'delete'] as const) {
      for (const url of ['/api/admin/events', `/api/admin/events/${event.id}`]) {
        const res = await t.admin[method](url, {});
        expect([404, 405]).toContain(res.status);
      }
    }
    const again = (await t.admin.get('/api/admin/events?limit=1').expect(200)).body.events[0];
    expect(again).toEqual(event);
  });

  describe('createdBy, collaborators and favorites', () => {
    let ada: string;
    let bob: string;

    beforeAll(async () => {
      await t.admin
        .post('/api/admin/user-admin', {
          name: 'Ada',
          username: 'ada',
          rootRole: 1,
          imageUrl: 'https://example.com/ada.png',
          password: 'ada password 12345',
        })
        .expect(201);
      await t.admin
        .post('/api/admin/user-admin', {
          username: 'bob',
          rootRole: 1,
          password: 'bob password 12345',
        })
        .expect(201);
      ada = await signIn(t, 'ada', 'ada password 12345');
      bob = await signIn(t, 'bob', 'bob password 12345');
    });

    const userId = async (username: string): Promise<number> => {
      const res = await t.admin.get('/api/admin/user-admin').expect(200);
      return res.body.users.find((u: { username: string }) => u.username === username).id;
    };

    it('shows the creator and the collaborators, most recent first', async () => {
      const adaId = await userId('ada');
      const bobId = await userId('bob');
      await withCookie(t, ada)
        .post('/api/admin/projects/default/features', { name: 'people' })
        .expect(201);
      await withCookie(t, bob).patch(featureUrl('people'), { description: 'by Bob' }).expect(200);
      const feature = (await t.admin.get(featureUrl('people')).expect(200)).body;
      const adaCard = { id: adaId, name: 'Ada', imageUrl: 'https://example.com/ada.png' };
      const bobCard = { id: bobId, name: 'bob', imageUrl: null };
      expect(feature.createdBy).toEqual(adaCard);
      expect(feature.collaborators).toEqual({ users: [bobCard, adaCard] });

      // Ada changes it again: she becomes the most recent.
      await withCookie(t, ada).patch(featureUrl('people'), { stale: true }).expect(200);
      const list = (await t.admin.get('/api/admin/projects/default/features').expect(200)).body;
      const listed = list.features.find((f: { name: string }) => f.name === 'people');
      expect(listed.collaborators).toEqual({ users: [adaCard, bobCard] });
      expect(listed.createdBy).toEqual(adaCard);

      const search = await t.admin.get('/api/admin/search/features?query=people').expect(200);
      expect(search.body.features[0].createdBy).toEqual({ ...adaCard });
    });

    it('leaves createdBy empty for a feature a token created', async () => {
      await createFeature(t, 'by-token');
      await withCookie(t, bob).patch(featureUrl('by-token'), { stale: true }).expect(200);
      const feature = (await t.admin.get(featureUrl('by-token')).expect(200)).body;
      expect(feature.createdBy).toBeNull();
      expect(feature.collaborators).toEqual({
        users: [{ id: await userId('bob'), name: 'bob', imageUrl: null }],
      });
      const search = await t.admin.get('/api/admin/search/features?query=by-token').expect(200);
      expect(search.body.features[0].createdBy).toEqual({ id: 0, name: 'unknown', imageUrl: '' });
    });

    it('keeps favorites per user, shown on records and search items', async () => {
      const url = '/api/admin/projects/default/features/people/favorites';
      await withCookie(t, ada).post(url).expect(204);
      await withCookie(t, ada).post(url).expect(204);
      expect((await withCookie(t, ada).get(featureUrl('people')).expect(200)).body.favorite).toBe(
        true,
      );
      expect((await withCookie(t, bob).get(featureUrl('people')).expect(200)).body.favorite).toBe(
        false,
      );
      const search = await withCookie(t, ada)
        .get('/api/admin/search/features?query=people')
        .expect(200);
      expect(search.body.features[0].favorite).toBe(true);
      const list = await withCookie(t, ada).get('/api/admin/projects/default/features').expect(200);
      expect(
        list.body.features
          .filter((f: { favorite: boolean }) => f.favorite)
          .map((f: { name: string }) => f.name),
      ).toEqual(['people']);

      // Marking a favorite changes no feature: Ada stays where she was among the collaborators.
      const feature = (await t.admin.get(featureUrl('people')).expect(200)).body;
      expect(feature.collaborators.users.map((c: { name: string }) => c.name)).toEqual([
        'Ada',
        'bob',
      ]);
      const events = await allEvents(t);
      expect(events.filter((e) => e.type === 'feature-favorited')).toEqual([
        expect.objectContaining({ featureName: 'people', createdBy: 'Ada' }),
        expect.objectContaining({ featureName: 'people', createdBy: 'Ada' }),
      ]);

      await withCookie(t, ada).delete(url).expect(204);
      expect((await withCookie(t, ada).get(featureUrl('people')).expect(200)).body.favorite).toBe(
        false,
      );
    });

    it('refuses favorites to a token acting alone (403) and unknown features (404)', async () => {
      const res = await t.admin.post('/api/admin/projects/default/features/people/favorites');
      expectErrorRecord(res, 403, 'PermissionError');
      expect(res.body.message).toMatch(/signed-in user/);
      expectErrorRecord(
        await withCookie(t, ada).post('/api/admin/projects/default/features/nope/favorites'),
        404,
        'NotFoundError',
      );
    });

    it('reads the people of a page with one statement, whatever its size', async () => {
      for (let i = 0; i < 12; i++) {
        await withCookie(t, ada)
          .post('/api/admin/projects/default/features', { name: `page-${i}` })
          .expect(201);
      }
      const measure = async (limit: number) => {
        const { result, statements } = await t.sql.measure(() =>
          withCookie(t, ada)
            .get(`/api/admin/search/features?query=page-&limit=${limit}`)
            .expect(200),
        );
        expect(result.body.features).toHaveLength(limit);
        for (const item of result.body.features) expect(item.createdBy.name).toBe('Ada');
        return statements.filter((sql) => /\bFROM events\b/.test(sql)).length;
      };
      expect(await measure(2)).toBe(1);
      expect(await measure(12)).toBe(1);
    });
  });
});
