import {
  countRows,
  createFeature,
  createStrategy,
  envUrl,
  featureUrl,
  FEATURES,
  insertProjectDirectly,
  insertSegmentDirectly,
  signIn,
  withCookie,
} from './feature-fixtures';
import {
  ADMIN_PASSWORD,
  expectErrorRecord,
  serviceTokenWith,
  startTestApp,
  TestApp,
} from './support/test-app';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('features', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await insertProjectDirectly(t, 'other', ['development']);
  });
  afterAll(() => t.close());

  describe('POST /api/admin/projects/:projectId/features', () => {
    it('creates a feature with a disabled row in every environment of its project and stage initial', async () => {
      const res = await t.admin
        .post(FEATURES, { name: 'new-checkout', description: 'The new checkout' })
        .expect(201);
      expect(res.body).toEqual({
        name: 'new-checkout',
        type: 'release',
        description: 'The new checkout',
        project: 'default',
        enabled: false,
        archived: false,
        archivedAt: null,
        stale: false,
        impressionData: false,
        createdAt: expect.stringMatching(ISO),
        environments: [
          {
            name: 'development',
            featureName: 'new-checkout',
            environment: 'development',
            type: 'development',
            enabled: false,
            sortOrder: 100,
            variantCount: 0,
            variants: [],
            strategies: [],
            hasStrategies: false,
            hasEnabledStrategies: false,
            lastSeenAt: null,
          },
          expect.objectContaining({
            name: 'production',
            type: 'production',
            enabled: false,
            sortOrder: 200,
          }),
        ],
        tags: [],
        dependencies: [],
        children: [],
        lifecycle: { stage: 'initial', enteredStageAt: expect.stringMatching(ISO) },
        // An admin token is nobody: no creator, no collaborators, no favorites.
        createdBy: null,
        collaborators: { users: [] },
        favorite: false,
      });
    });

    it('takes type and impressionData', async () => {
      const res = await t.admin
        .post(FEATURES, { name: 'kill-it', type: 'kill-switch', impressionData: true })
        .expect(201);
      expect(res.body).toEqual(
        expect.objectContaining({ type: 'kill-switch', impressionData: true, description: null }),
      );
    });

    it('creates rows only in the environments linked to the project', async () => {
      const res = await t.admin
        .post('/api/admin/projects/other/features', { name: 'other-feature' })
        .expect(201);
      expect(res.body.project).toBe('other');
      expect(res.body.environments.map((e: { name: string }) => e.name)).toEqual(['development']);
    });

    it('answers 400 with a detail per invalid field', async () => {
      const res = await t.admin.post(FEATURES, {
        name: 'has space',
        type: 'flag',
        impressionData: 'yes',
        owner: 'me',
      });
      const record = expectErrorRecord(res, 400, 'ValidationError');
      expect(record.details?.map((d) => d.path).sort()).toEqual([
        '/body/impressionData',
        '/body/name',
        '/body/owner',
        '/body/type',
      ]);
      expect(record.details?.find((d) => d.path === '/body/type')?.message).toBe(
        'type must be one of release, experiment, operational, kill-switch, permission',
      );
      const missing = expectErrorRecord(await t.admin.post(FEATURES, {}), 400, 'ValidationError');
      expect(missing.details).toEqual([{ path: '/body/name', message: 'name is required' }]);
      expectErrorRecord(await t.admin.post(FEATURES, { name: '..' }), 400, 'ValidationError');
    });

    it('answers 404 for an unknown project', async () => {
      const res = await t.admin.post('/api/admin/projects/nope/features', { name: 'x1' });
      expect(expectErrorRecord(res, 404, 'NotFoundError').message).toBe(
        'Could not find project with id nope',
      );
    });

    it('answers 409 for a name taken in any project, archived or not, and keeps names case-sensitive', async () => {
      await createFeature(t, 'taken');
      const res = await t.admin.post('/api/admin/projects/other/features', { name: 'taken' });
      expect(expectErrorRecord(res, 409, 'NameExistsError').message).toBe(
        'A feature with name taken already exists',
      );
      await createFeature(t, 'archived-name');
      await t.admin.delete(featureUrl('archived-name')).expect(204);
      expectErrorRecord(
        await t.admin.post(FEATURES, { name: 'archived-name' }),
        409,
        'NameExistsError',
      );
      await t.admin.post(FEATURES, { name: 'Taken' }).expect(201);
    });

    it('needs CREATE_FEATURE', async () => {
      const token = await serviceTokenWith(t, [{ name: 'UPDATE_FEATURE' }]);
      const res = await t.as(token).post(FEATURES, { name: 'not-allowed' });
      expect(expectErrorRecord(res, 403, 'PermissionError')).toEqual(
        expect.objectContaining({ permissions: ['CREATE_FEATURE'] }),
      );
      const creator = await serviceTokenWith(t, [{ name: 'CREATE_FEATURE' }]);
      await t.as(creator).post(FEATURES, { name: 'allowed' }).expect(201);
    });
  });

  describe('GET /api/admin/projects/:projectId/features', () => {
    it('lists the active features of the project by name, without strategies', async () => {
      await createFeature(t, 'list-b');
      await createFeature(t, 'list-a');
      await createFeature(t, 'list-gone');
      await createStrategy(t, 'list-a', 'development', { name: 'default', disabled: true });
      await t.admin.delete(featureUrl('list-gone')).expect(204);
      const res = await t.admin.get(FEATURES).expect(200);
      const names: string[] = res.body.features.map((f: { name: string }) => f.name);
      expect(names).toEqual([...names].sort());
      expect(names).toEqual(expect.arrayContaining(['list-a', 'list-b', 'Taken']));
      expect(names).not.toContain('list-gone');
      expect(names).not.toContain('other-feature');
      const a = res.body.features.find((f: { name: string }) => f.name === 'list-a');
      expect(a.environments[0]).not.toHaveProperty('strategies');
      expect(a.environments[0]).toEqual(
        expect.objectContaining({
          name: 'development',
          hasStrategies: true,
          hasEnabledStrategies: false,
        }),
      );
      expect(a.environments[1]).toEqual(
        expect.objectContaining({ name: 'production', hasStrategies: false }),
      );
    });

    it('lists with a fixed number of SQL statements, whatever the number of features', async () => {
      await insertProjectDirectly(t, 'small', ['development', 'production']);
      await insertProjectDirectly(t, 'large', ['development', 'production']);
      for (let i = 0; i < 2; i++) await createFeature(t, `small-${i}`, {}, 'small');
      for (let i = 0; i < 20; i++) {
        await createFeature(t, `large-${i}`, {}, 'large');
        await createStrategy(t, `large-${i}`, 'development', { name: 'default' }, 'large');
      }
      const small = await t.sql.measure(() =>
        t.admin.get('/api/admin/projects/small/features').expect(200),
      );
      const large = await t.sql.measure(() =>
        t.admin.get('/api/admin/projects/large/features').expect(200),
      );
      expect(small.result.body.features).toHaveLength(2);
      expect(large.result.body.features).toHaveLength(20);
      expect(large.count).toBe(small.count);
    });

    it('lists what a list needs: no variants, no environment attributes, no empty fields', async () => {
      await insertProjectDirectly(t, 'variants-list', ['development', 'production']);
      await createFeature(t, 'with-variants', {}, 'variants-list');
      const variants = [
        { name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' },
      ];
      await t.admin
        .put(`${envUrl('with-variants', 'development', 'variants-list')}/variants`, variants)
        .expect(200);
      const list = await t.admin.get('/api/admin/projects/variants-list/features').expect(200);
      expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
      // Sent in pieces, with the whole body's length.
      expect(Number(list.headers['content-length'])).toBe(Buffer.byteLength(list.text));
      const [listed] = list.body.features;
      for (const env of listed.environments) {
        expect(Object.keys(env)).toEqual([
          'name',
          'enabled',
          'variantCount',
          'hasStrategies',
          'hasEnabledStrategies',
        ]);
      }
      expect(listed.environments.map((e: { variantCount: number }) => e.variantCount)).toEqual([
        1, 0,
      ]);
      // The seed's Feature fields that have a value, in the record's order; no description, tags,
      // dependencies, children or people here, and nothing about archiving (all are active).
      expect(Object.keys(listed)).toEqual([
        'name',
        'type',
        'project',
        'enabled',
        'stale',
        'impressionData',
        'createdAt',
        'environments',
        'lifecycle',
        'favorite',
      ]);
      const page = await t.admin.get(featureUrl('with-variants', 'variants-list')).expect(200);
      expect(page.body.environments[0]).toEqual(
        expect.objectContaining({
          featureName: 'with-variants',
          environment: 'development',
          variants: [expect.objectContaining({ name: 'blue', weight: 1000 })],
        }),
      );
    });

    it('lists each feature as its record says, for every kind of value', async () => {
      await insertProjectDirectly(t, 'same-as-record', ['development', 'production']);
      const url = (name: string) => featureUrl(name, 'same-as-record');
      const odd = 'quote " backslash \\ newline \n tab \t bell \u0007 é 漢字 🚀 </script>';
      await createFeature(
        t,
        'rec-parent',
        { description: odd, type: 'kill-switch' },
        'same-as-record',
      );
      await createFeature(t, 'rec-child', { impressionData: true }, 'same-as-record');
      await createFeature(t, 'rec-bare', {}, 'same-as-record');
      await createStrategy(
        t,
        'rec-child',
        'production',
        { name: 'default', disabled: true },
        'same-as-record',
      );
      await createStrategy(t, 'rec-parent', 'development', { name: 'default' }, 'same-as-record');
      await t.admin.post(`${envUrl('rec-parent', 'development', 'same-as-record')}/on`).expect(204);
      await t.admin
        .put(`${envUrl('rec-parent', 'production', 'same-as-record')}/variants`, [
          { name: 'a', weight: 500, weightType: 'variable', stickiness: 'default' },
          { name: 'b', weight: 500, weightType: 'variable', stickiness: 'default' },
        ])
        .expect(200);
      await t.admin
        .post('/api/admin/features/rec-parent/tags', { type: 'simple', value: odd.slice(0, 40) })
        .expect(201);
      await t.admin
        .post('/api/admin/features/rec-parent/tags', { type: 'simple', value: 'aa' })
        .expect(201);
      await t.admin
        .post(`${url('rec-child')}/dependencies`, { feature: 'rec-parent', variants: ['a'] })
        .expect(201);
      await t.admin.patch(url('rec-child'), { stale: true }).expect(200);
      await t.admin.post(`${url('rec-parent')}/lifecycle/complete`, { status: 'kept' }).expect(200);
      // Metrics would set lastSeenAt; there is no metrics route, so the row is written directly.
      await t.dataSource.query(
        `UPDATE feature_environments SET last_seen_at = ? WHERE feature_name = ? AND environment_name = ?`,
        ['2026-01-02 03:04:05.678', 'rec-child', 'production'],
      );

      const list = (await t.admin.get('/api/admin/projects/same-as-record/features').expect(200))
        .body.features;
      expect(list.map((f: { name: string }) => f.name)).toEqual([
        'rec-bare',
        'rec-child',
        'rec-parent',
      ]);
      for (const listed of list) {
        const record = (await t.admin.get(url(listed.name)).expect(200)).body;
        const expected: Record<string, unknown> = { ...record };
        delete expected.archived;
        delete expected.archivedAt;
        expected.environments = record.environments.map((env: Record<string, unknown>) => {
          const kept: Record<string, unknown> = {
            name: env.name,
            enabled: env.enabled,
            variantCount: env.variantCount,
            hasStrategies: env.hasStrategies,
            hasEnabledStrategies: env.hasEnabledStrategies,
          };
          if (env.lastSeenAt !== null) kept.lastSeenAt = env.lastSeenAt;
          return kept;
        });
        for (const [key, value] of Object.entries(expected)) {
          if (value === null || (Array.isArray(value) && value.length === 0)) delete expected[key];
        }
        // Nobody changed these features through a session: the list leaves out the empty users.
        if ((record.collaborators as { users: unknown[] }).users.length === 0) {
          delete expected.collaborators;
        }
        expect(listed).toEqual(expected);
      }
      const child = list.find((f: { name: string }) => f.name === 'rec-child');
      expect(child.environments[1].lastSeenAt).toBe('2026-01-02T03:04:05.678Z');
      expect(child.dependencies).toEqual([
        { feature: 'rec-parent', enabled: true, variants: ['a'] },
      ]);
      const parent = list.find((f: { name: string }) => f.name === 'rec-parent');
      expect(parent.description).toBe(odd);
      expect(parent.children).toEqual(['rec-child']);
      expect(parent.lifecycle.stage).toBe('completed');
    });

    it('lists features with variants, tags and dependencies in as many statements as bare ones', async () => {
      await insertProjectDirectly(t, 'count-few', ['development', 'production']);
      await insertProjectDirectly(t, 'count-many', ['development', 'production']);
      const fill = async (project: string, n: number) => {
        for (let i = 0; i < n; i++) {
          const name = `${project}-${i}`;
          await createFeature(t, name, {}, project);
          await createStrategy(t, name, 'development', { name: 'default' }, project);
          await t.admin
            .put(`${envUrl(name, 'production', project)}/variants`, [
              { name: 'v', weight: 1000, weightType: 'variable', stickiness: 'default' },
            ])
            .expect(200);
          await t.admin
            .post(`/api/admin/features/${name}/tags`, { type: 'simple', value: `t${i}` })
            .expect(201);
          if (i > 0) {
            await t.admin
              .post(`${featureUrl(name, project)}/dependencies`, { feature: `${project}-0` })
              .expect(201);
          }
        }
      };
      await fill('count-few', 2);
      await fill('count-many', 25);
      // A request just before each measurement keeps the admin token in the auth cache.
      await t.admin.get('/api/admin/projects/count-few/features').expect(200);
      const few = await t.sql.measure(() =>
        t.admin.get('/api/admin/projects/count-few/features').expect(200),
      );
      await t.admin.get('/api/admin/projects/count-many/features').expect(200);
      const many = await t.sql.measure(() =>
        t.admin.get('/api/admin/projects/count-many/features').expect(200),
      );
      expect(few.result.body.features).toHaveLength(2);
      expect(many.result.body.features).toHaveLength(25);
      const third = many.result.body.features.find(
        (f: { name: string }) => f.name === 'count-many-3',
      );
      expect(third.dependencies).toEqual([expect.objectContaining({ feature: 'count-many-0' })]);
      expect(third.tags).toEqual([{ type: 'simple', value: 't3' }]);
      expect(many.count).toBe(few.count);
    });

    it('lists features with people in as many statements as without, and the same item text', async () => {
      const bare = async (project: string, n: number) => {
        await insertProjectDirectly(t, project, ['development', 'production']);
        for (let i = 0; i < n; i++) {
          await createFeature(t, `${project}-${i}`, {}, project);
          await createStrategy(t, `${project}-${i}`, 'development', { name: 'default' }, project);
        }
      };
      await bare('people-few', 2);
      await bare('people-many', 20);
      const list = async (project: string) => {
        const url = `/api/admin/projects/${project}/features`;
        // A request just before each measurement keeps the admin token in the auth cache.
        await t.admin.get(url).expect(200);
        return t.sql.measure(() => t.admin.get(url).expect(200));
      };
      // Only tokens wrote these features: nobody is on the list.
      const nobodyFew = await list('people-few');
      const nobodyMany = await list('people-many');

      // A signed-in user changes one feature of each project; the change leaves the listed item as
      // it was (stale was already false) but makes the user its collaborator.
      const admin = withCookie(t, await signIn(t, 'admin', ADMIN_PASSWORD));
      for (const feature of ['people-few-1', 'people-many-1']) {
        const project = feature.replace(/-1$/, '');
        await admin.patch(featureUrl(feature, project), { stale: false }).expect(200);
      }
      const peopleFew = await list('people-few');
      const peopleMany = await list('people-many');

      expect(peopleMany.result.body.features).toHaveLength(20);
      expect(peopleMany.result.body.features[1].collaborators.users).toHaveLength(1);
      expect(peopleMany.result.body.features[1].createdBy).toBeUndefined();
      expect(peopleFew.count).toBe(nobodyFew.count);
      expect(peopleMany.count).toBe(peopleFew.count);
      expect(nobodyMany.count).toBe(nobodyFew.count);
      // One way of building it, people or not: the same statements, the people appended here.
      expect(peopleMany.statements).toEqual(nobodyMany.statements);

      // Item by item, as text: the people are appended to the very same item text.
      const items = (body: string) => body.slice(13, -2).split(/,(?=\{"name":"people-many-)/);
      const before = items(nobodyMany.result.text);
      const after = items(peopleMany.result.text);
      expect(after).toHaveLength(20);
      const card = JSON.stringify(peopleMany.result.body.features[1].collaborators);
      after.forEach((item, i) => {
        const expected =
          i === 1
            ? before[i].replace(
                /,"favorite":false\}$/,
                `,"collaborators":${card},"favorite":false}`,
              )
            : before[i];
        expect(item).toBe(expected);
      });
    });

    it('answers 404 for an unknown project', async () => {
      expectErrorRecord(
        await t.admin.get('/api/admin/projects/nope/features'),
        404,
        'NotFoundError',
      );
    });
  });

  describe('GET /api/admin/projects/:projectId/features/:name', () => {
    it('answers 404 for an unknown feature, a feature of another project and an unknown project', async () => {
      expect(
        expectErrorRecord(await t.admin.get(featureUrl('ghost')), 404, 'NotFoundError').message,
      ).toBe('Could not find feature with name ghost');
      expect(
        expectErrorRecord(await t.admin.get(featureUrl('other-feature')), 404, 'NotFoundError')
          .message,
      ).toBe('Could not find feature other-feature in project default');
      expectErrorRecord(await t.admin.get(featureUrl('taken', 'nope')), 404, 'NotFoundError');
      await t.admin.get(featureUrl('other-feature', 'other')).expect(200);
    });

    it('reads with a fixed number of SQL statements, whatever the number of strategies', async () => {
      await createFeature(t, 'few');
      await createFeature(t, 'many');
      for (let i = 0; i < 2; i++) await createStrategy(t, 'few', 'development');
      for (let i = 0; i < 30; i++) {
        await createStrategy(t, 'many', i % 2 ? 'development' : 'production', {
          name: 'flexibleRollout',
          parameters: { rollout: String(i) },
          constraints: [{ contextName: 'userId', operator: 'IN', values: [`u${i}`] }],
        });
      }
      const few = await t.sql.measure(() => t.admin.get(featureUrl('few')).expect(200));
      const many = await t.sql.measure(() => t.admin.get(featureUrl('many')).expect(200));
      expect(few.result.body.environments[0].strategies).toHaveLength(2);
      const strategies = many.result.body.environments.flatMap(
        (e: { strategies: unknown[] }) => e.strategies,
      );
      expect(strategies).toHaveLength(30);
      expect(many.count).toBe(few.count);
      // One query per table: features (whose row also says the project, so no lookup of its
      // own), feature environments, the environments' order, strategies (with their segment ids),
      // tags, dependencies, lifecycle; then the people (creator and collaborators from the
      // events, users joined): one more. A token has no favorites, so no favorites statement.
      expect(many.count).toBeLessThanOrEqual(8);
    });
  });

  describe('PATCH /api/admin/projects/:projectId/features/:name', () => {
    beforeAll(async () => {
      await createFeature(t, 'patchy', { description: 'before' });
    });

    it('applies a JSON Patch array', async () => {
      const res = await t.admin
        .patch(featureUrl('patchy'), [
          { op: 'replace', path: '/description', value: 'after' },
          { op: 'replace', path: '/type', value: 'experiment' },
          { op: 'replace', path: '/impressionData', value: true },
          { op: 'add', path: '/stale', value: true },
        ])
        .expect(200);
      expect(res.body).toEqual(
        expect.objectContaining({
          name: 'patchy',
          description: 'after',
          type: 'experiment',
          impressionData: true,
          stale: true,
        }),
      );
      const removed = await t.admin
        .patch(featureUrl('patchy'), [{ op: 'remove', path: '/description' }])
        .expect(200);
      expect(removed.body.description).toBeNull();
      await t.admin.patch(featureUrl('patchy'), []).expect(200);
    });

    it('applies a partial object', async () => {
      const res = await t.admin
        .patch(featureUrl('patchy'), { description: 'object form', stale: false })
        .expect(200);
      expect(res.body).toEqual(
        expect.objectContaining({ description: 'object form', stale: false, type: 'experiment' }),
      );
      const cleared = await t.admin.patch(featureUrl('patchy'), { description: null }).expect(200);
      expect(cleared.body.description).toBeNull();
    });

    it('rejects invalid operations with a detail per problem', async () => {
      const res = await t.admin.patch(featureUrl('patchy'), [
        { op: 'move', path: '/description', from: '/type' },
        { op: 'replace', path: '/name', value: 'renamed' },
        { op: 'replace', path: '/type', value: 'flag' },
        { op: 'replace', path: '/stale', value: 'yes' },
        { op: 'remove', path: '/stale' },
        { op: 'replace', path: '/impressionData' },
        'replace',
      ]);
      expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
        { path: '/body/0/from', message: 'from is not an allowed property' },
        { path: '/body/0/op', message: 'op must be one of replace, add, remove' },
        {
          path: '/body/1/path',
          message: 'path must be one of /description, /type, /impressionData, /stale',
        },
        {
          path: '/body/2/value',
          message: 'value must be one of release, experiment, operational, kill-switch, permission',
        },
        { path: '/body/3/value', message: 'value must be a boolean value' },
        { path: '/body/4/op', message: '/stale cannot be removed' },
        { path: '/body/5/value', message: 'value is required' },
        { path: '/body/6', message: 'must be a JSON Patch operation {op, path, value}' },
      ]);
    });

    it('rejects an invalid partial object and a body of neither shape', async () => {
      const res = await t.admin.patch(featureUrl('patchy'), {
        type: null,
        stale: 1,
        name: 'renamed',
      });
      expect(
        expectErrorRecord(res, 400, 'ValidationError')
          .details?.map((d) => d.path)
          .sort(),
      ).toEqual(['/body/name', '/body/stale', '/body/type']);
      const text = await t.admin
        .patch(featureUrl('patchy'))
        .set('content-type', 'application/json')
        .send('"stale"');
      expect(expectErrorRecord(text, 400, 'ValidationError').details?.[0].path).toBe('/body');
    });

    it('answers 404 for an unknown feature and 400 for an archived one', async () => {
      expectErrorRecord(
        await t.admin.patch(featureUrl('ghost'), { stale: true }),
        404,
        'NotFoundError',
      );
      await createFeature(t, 'patch-archived');
      await t.admin.delete(featureUrl('patch-archived')).expect(204);
      const res = await t.admin.patch(featureUrl('patch-archived'), { stale: true });
      expect(expectErrorRecord(res, 400, 'ValidationError').message).toBe(
        'Feature patch-archived is archived; revive it before changing it',
      );
    });

    it('needs UPDATE_FEATURE', async () => {
      const token = await serviceTokenWith(t, [{ name: 'CREATE_FEATURE' }]);
      expectErrorRecord(
        await t.as(token).patch(featureUrl('patchy'), { stale: true }),
        403,
        'PermissionError',
      );
    });
  });

  describe('archive, revive and delete for good', () => {
    it('archives with DELETE: still readable with archived: true, left out of the list', async () => {
      await createFeature(t, 'to-archive');
      await t.admin.delete(featureUrl('to-archive')).expect(204);
      const res = await t.admin.get(featureUrl('to-archive')).expect(200);
      expect(res.body).toEqual(
        expect.objectContaining({
          archived: true,
          archivedAt: expect.stringMatching(ISO),
          lifecycle: { stage: 'archived', enteredStageAt: expect.stringMatching(ISO) },
        }),
      );
      const list = await t.admin.get(FEATURES).expect(200);
      expect(list.body.features.map((f: { name: string }) => f.name)).not.toContain('to-archive');
      // Archiving again changes nothing.
      await t.admin.delete(featureUrl('to-archive')).expect(204);
      const again = await t.admin.get(featureUrl('to-archive')).expect(200);
      expect(again.body.archivedAt).toBe(res.body.archivedAt);
    });

    it('answers 404 when archiving an unknown feature, 403 without DELETE_FEATURE', async () => {
      expectErrorRecord(await t.admin.delete(featureUrl('ghost')), 404, 'NotFoundError');
      await createFeature(t, 'keep-me');
      const token = await serviceTokenWith(t, [{ name: 'UPDATE_FEATURE' }]);
      expectErrorRecord(await t.as(token).delete(featureUrl('keep-me')), 403, 'PermissionError');
    });

    it('refuses to archive a feature that active features depend on (409)', async () => {
      await createFeature(t, 'parent-p');
      await createFeature(t, 'child-c');
      await t.admin
        .post(`${featureUrl('child-c')}/dependencies`, { feature: 'parent-p' })
        .expect(201);
      const res = await t.admin.delete(featureUrl('parent-p'));
      expect(expectErrorRecord(res, 409, 'ConflictError').message).toBe(
        'Feature parent-p cannot be archived while other features depend on it: child-c',
      );
      await t.admin.delete(featureUrl('child-c')).expect(204);
      await t.admin.delete(featureUrl('parent-p')).expect(204);
    });

    it('revives an archived feature', async () => {
      await createFeature(t, 'phoenix');
      await t.admin.delete(featureUrl('phoenix')).expect(204);
      const res = await t.admin.post('/api/admin/archive/revive/phoenix').expect(200);
      expect(res.body).toEqual(
        expect.objectContaining({
          name: 'phoenix',
          archived: false,
          archivedAt: null,
          lifecycle: expect.objectContaining({ stage: 'initial' }),
        }),
      );
      const list = await t.admin.get(FEATURES).expect(200);
      expect(list.body.features.map((f: { name: string }) => f.name)).toContain('phoenix');
    });

    it('answers 400 when reviving an active feature, 404 for an unknown one, 403 without UPDATE_FEATURE', async () => {
      expect(
        expectErrorRecord(
          await t.admin.post('/api/admin/archive/revive/phoenix'),
          400,
          'ValidationError',
        ).details,
      ).toEqual([{ path: '/param/name', message: 'Feature phoenix is not archived' }]);
      expectErrorRecord(
        await t.admin.post('/api/admin/archive/revive/ghost'),
        404,
        'NotFoundError',
      );
      const token = await serviceTokenWith(t, [{ name: 'DELETE_FEATURE' }]);
      expectErrorRecord(
        await t.as(token).post('/api/admin/archive/revive/phoenix'),
        403,
        'PermissionError',
      );
    });

    it('deletes an archived feature for good, with everything that belongs to it', async () => {
      await createFeature(t, 'doomed-parent');
      await createFeature(t, 'doomed');
      const segmentId = await insertSegmentDirectly(t, 'doomed-segment');
      const strategy = await createStrategy(t, 'doomed', 'development', {
        name: 'default',
        segments: [segmentId],
      });
      await t.admin
        .post('/api/admin/features/doomed/tags', { type: 'simple', value: 'bye' })
        .expect(201);
      await t.admin
        .post(`${featureUrl('doomed')}/dependencies`, { feature: 'doomed-parent' })
        .expect(201);
      await t.admin.post(`${envUrl('doomed', 'development')}/on`).expect(204);
      await t.admin.delete(featureUrl('doomed')).expect(204);

      await t.admin.delete('/api/admin/archive/doomed').expect(204);
      expectErrorRecord(await t.admin.get(featureUrl('doomed')), 404, 'NotFoundError');
      for (const [table, column] of [
        ['features', 'name'],
        ['feature_environments', 'feature_name'],
        ['feature_strategies', 'feature_name'],
        ['feature_tags', 'feature_name'],
        ['feature_dependencies', 'child'],
        ['feature_lifecycles', 'feature_name'],
      ]) {
        expect(await countRows(t, table, `${column} = ?`, ['doomed'])).toBe(0);
      }
      expect(
        await countRows(t, 'feature_strategy_segments', 'strategy_id = ?', [strategy.id]),
      ).toBe(0);
      // The parent and the segment stay.
      await t.admin.get(featureUrl('doomed-parent')).expect(200);
      expect(await countRows(t, 'segments', 'id = ?', [segmentId])).toBe(1);
    });

    it('answers 409 for an active feature, 404 for an unknown one, 403 without DELETE_FEATURE', async () => {
      await createFeature(t, 'alive');
      expect(
        expectErrorRecord(await t.admin.delete('/api/admin/archive/alive'), 409, 'ConflictError')
          .message,
      ).toBe('Feature alive is not archived; archive it before deleting it');
      expectErrorRecord(await t.admin.delete('/api/admin/archive/ghost'), 404, 'NotFoundError');
      await t.admin.delete(featureUrl('alive')).expect(204);
      const token = await serviceTokenWith(t, [{ name: 'UPDATE_FEATURE' }]);
      expectErrorRecord(
        await t.as(token).delete('/api/admin/archive/alive'),
        403,
        'PermissionError',
      );
    });
  });
});
