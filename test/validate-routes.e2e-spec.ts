import type request from 'supertest';
import { createFeature, featureUrl, insertProjectDirectly } from './feature-fixtures';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

/**
 * The admin UI's form checks (issue 11, item 4): each answers as the route it guards would, so the
 * error a form shows is the error the save would give. "Same record" is compared field by field
 * (status, name, message, details); only the fresh `id` differs.
 */
describe('validate routes of the admin forms', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await insertProjectDirectly(t, 'other', ['development']);
  });
  afterAll(() => t.close());

  function expectSameRecord(
    validated: request.Response,
    guarded: request.Response,
    status: number,
    name: string,
  ): void {
    const a = expectErrorRecord(validated, status, name);
    const b = expectErrorRecord(guarded, status, name);
    expect({ ...a, id: undefined }).toEqual({ ...b, id: undefined });
  }

  /** A bad name and a taken name, checked against the create route they guard. */
  async function expectNameRules(
    validateUrl: string,
    createUrl: string,
    createBody: (name: string) => object,
    taken: string,
    invalid: unknown,
  ): Promise<void> {
    const badCreate = await t.admin.post(createUrl, { ...createBody('x'), name: invalid });
    const badValidate = await t.admin.post(validateUrl, { name: invalid });
    expectSameRecord(badValidate, badCreate, 400, 'ValidationError');
    const takenCreate = await t.admin.post(createUrl, createBody(taken));
    const takenValidate = await t.admin.post(validateUrl, { name: taken });
    expectSameRecord(takenValidate, takenCreate, 409, 'NameExistsError');
  }

  describe('POST /api/admin/environments/validate', () => {
    const url = '/api/admin/environments/validate';

    it('answers 204 for a free, valid name, and stores nothing', async () => {
      const res = await t.admin.post(url, { name: 'staging' }).expect(204);
      expect(res.text).toBe('');
      await t.admin.get('/api/admin/environments/staging').expect(404);
    });

    it('answers a bad or taken name with the record create gives', async () => {
      await expectNameRules(
        url,
        '/api/admin/environments',
        (name) => ({ name, type: 'test' }),
        'production',
        'a b',
      );
      // Names are case-sensitive on both databases (binary collation on MariaDB).
      await t.admin.post(url, { name: 'Production' }).expect(204);
    });

    it('refuses unknown properties and a missing name (400), and needs CREATE_ENVIRONMENT', async () => {
      expectErrorRecord(await t.admin.post(url, { name: 'qa', type: 1 }), 400, 'ValidationError');
      expectErrorRecord(await t.admin.post(url, {}), 400, 'ValidationError');
      const viewer = await serviceTokenWith(t, [{ name: 'UPDATE_ENVIRONMENT' }]);
      expectErrorRecord(await t.as(viewer).post(url, { name: 'qa' }), 403, 'PermissionError');
      const creator = await serviceTokenWith(t, [{ name: 'CREATE_ENVIRONMENT' }]);
      await t.as(creator).post(url, { name: 'qa' }).expect(204);
      expectErrorRecord(await t.http.post(url).send({ name: 'qa' }), 401, 'AuthenticationRequired');
    });
  });

  describe('POST /api/admin/context/validate', () => {
    const url = '/api/admin/context/validate';

    it('answers 204 for a free, valid name', async () => {
      const res = await t.admin.post(url, { name: 'tenant' }).expect(204);
      expect(res.text).toBe('');
      await t.admin.get('/api/admin/context/tenant').expect(404);
    });

    it('answers a bad or taken name with the record create gives', async () => {
      await expectNameRules(url, '/api/admin/context', (name) => ({ name }), 'userId', '..');
    });

    it('needs CREATE_CONTEXT_FIELD', async () => {
      const other = await serviceTokenWith(t, [{ name: 'CREATE_SEGMENT' }]);
      expectErrorRecord(await t.as(other).post(url, { name: 'tenant' }), 403, 'PermissionError');
      const creator = await serviceTokenWith(t, [{ name: 'CREATE_CONTEXT_FIELD' }]);
      await t.as(creator).post(url, { name: 'tenant' }).expect(204);
    });
  });

  describe('POST /api/admin/segments/validate', () => {
    const url = '/api/admin/segments/validate';

    beforeAll(async () => {
      await t.admin
        .post('/api/admin/segments', { name: 'beta users', constraints: [] })
        .expect(201);
    });

    it('answers 204 for a free name (any text of 1 to 100 characters, as create takes)', async () => {
      const res = await t.admin.post(url, { name: 'early adopters' }).expect(204);
      expect(res.text).toBe('');
    });

    it('answers a bad or taken name with the record create gives', async () => {
      await expectNameRules(
        url,
        '/api/admin/segments',
        (name) => ({ name, constraints: [] }),
        'beta users',
        'x'.repeat(101),
      );
    });

    it('needs CREATE_SEGMENT', async () => {
      const other = await serviceTokenWith(t, [{ name: 'UPDATE_SEGMENT' }]);
      expectErrorRecord(await t.as(other).post(url, { name: 'n' }), 403, 'PermissionError');
    });
  });

  describe('POST /api/admin/tag-types/validate', () => {
    const url = '/api/admin/tag-types/validate';

    it('answers 200 {valid, tagType} with the tag type create would store', async () => {
      await t.admin
        .post(url, { name: 'team', icon: 'group' })
        .expect(200, { valid: true, tagType: { name: 'team', description: null, icon: 'group' } });
      await t.admin.get('/api/admin/tag-types/team').expect(404);
    });

    it('answers a bad body or a taken name with the record create gives', async () => {
      const body = { name: 'a/b', icon: 'i'.repeat(256) };
      expectSameRecord(
        await t.admin.post(url, body),
        await t.admin.post('/api/admin/tag-types', body),
        400,
        'ValidationError',
      );
      await expectNameRules(url, '/api/admin/tag-types', (name) => ({ name }), 'simple', '');
    });

    it('needs CREATE_TAG_TYPE', async () => {
      const other = await serviceTokenWith(t, [{ name: 'UPDATE_TAG_TYPE' }]);
      expectErrorRecord(await t.as(other).post(url, { name: 'n' }), 403, 'PermissionError');
    });
  });

  describe('POST /api/admin/features/validate', () => {
    const url = '/api/admin/features/validate';
    const create = '/api/admin/projects/default/features';

    beforeAll(async () => {
      await createFeature(t, 'taken');
      await createFeature(t, 'archived-one');
      await t.admin.delete(featureUrl('archived-one')).expect(204);
    });

    it('answers 204 for a free name, with or without a project', async () => {
      const res = await t.admin.post(url, { name: 'new-feature' }).expect(204);
      expect(res.text).toBe('');
      await t.admin.post(url, { name: 'new-feature', projectId: 'other' }).expect(204);
      await t.admin.post(url, { name: 'new-feature', projectId: null }).expect(204);
    });

    it('answers a bad name, a taken name and an archived one with the record create gives', async () => {
      await expectNameRules(url, create, (name) => ({ name }), 'taken', 'white space');
      expectSameRecord(
        await t.admin.post(url, { name: 'archived-one' }),
        await t.admin.post(create, { name: 'archived-one' }),
        409,
        'NameExistsError',
      );
    });

    it('answers a projectId that names no project with 400 (a name in the body)', async () => {
      const res = await t.admin.post(url, { name: 'new-feature', projectId: 'nope' });
      expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
        { path: '/body/projectId', message: 'Could not find project with id nope' },
      ]);
    });

    it('needs CREATE_FEATURE', async () => {
      const other = await serviceTokenWith(t, [{ name: 'UPDATE_FEATURE' }]);
      expectErrorRecord(await t.as(other).post(url, { name: 'n' }), 403, 'PermissionError');
    });
  });

  describe('POST /api/admin/constraints/validate', () => {
    const url = '/api/admin/constraints/validate';

    it('answers 204 for a valid constraint', async () => {
      const res = await t.admin
        .post(url, { contextName: 'userId', operator: 'IN', values: ['a', 'b'] })
        .expect(204);
      expect(res.text).toBe('');
    });

    it('answers a bad constraint with the details a segment save gives, at /body', async () => {
      const constraint = { contextName: 'nope', operator: 'NUM_GT', values: ['1'] };
      const validated = expectErrorRecord(
        await t.admin.post(url, constraint),
        400,
        'ValidationError',
      );
      const saved = expectErrorRecord(
        await t.admin.post('/api/admin/segments', { name: 'seg', constraints: [constraint] }),
        400,
        'ValidationError',
      );
      const atBody = saved.details?.map((d) => ({
        ...d,
        path: d.path.replace('/body/constraints/0', '/body'),
      }));
      expect(validated.details).toEqual(atBody);
      expect(validated.details?.map((d) => d.path)).toEqual([
        '/body/contextName',
        '/body/values',
        '/body/value',
      ]);
    });

    it('refuses a malformed body (400) and takes any admin-API token', async () => {
      const bad = await t.admin.post(url, { contextName: 'userId', operator: 'LIKE' });
      expect(expectErrorRecord(bad, 400, 'ValidationError').details?.[0].path).toBe(
        '/body/operator',
      );
      const viewer = await serviceTokenWith(t, []);
      await t
        .as(viewer)
        .post(url, { contextName: 'userId', operator: 'IN', values: ['a'] })
        .expect(204);
    });
  });

  describe('POST /api/admin/projects/:id/archive/validate', () => {
    const url = (project = 'default') => `/api/admin/projects/${project}/archive/validate`;

    beforeAll(async () => {
      for (const name of ['parent', 'child', 'solo']) await createFeature(t, name);
      await createFeature(t, 'elsewhere', {}, 'other');
      await t.admin.post(`${featureUrl('child')}/dependencies`, { feature: 'parent' }).expect(201);
    });

    it('lists the parents whose active children stay outside the list; archive refuses those', async () => {
      await t.admin
        .post(url(), { features: ['parent', 'solo'] })
        .expect(200, { parentsWithChildFeatures: ['parent'], hasDeletedDependencies: false });
      expectErrorRecord(await t.admin.delete(featureUrl('parent')), 409, 'ConflictError');
      await t.admin
        .post(url(), { features: ['parent', 'child'] })
        .expect(200, { parentsWithChildFeatures: [], hasDeletedDependencies: false });
      await t.admin
        .post(url(), { features: [] })
        .expect(200, { parentsWithChildFeatures: [], hasDeletedDependencies: false });
    });

    it('answers features outside the project with 400, one detail each', async () => {
      const res = await t.admin.post(url(), { features: ['solo', 'elsewhere', 'ghost'] });
      expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
        {
          path: '/body/features/1',
          message: 'Could not find feature elsewhere in project default',
        },
        { path: '/body/features/2', message: 'Could not find feature ghost in project default' },
      ]);
    });

    it('answers an unknown project as archive does (404), a bad body with 400', async () => {
      expectSameRecord(
        await t.admin.post(url('nope'), { features: ['solo'] }),
        await t.admin.delete(featureUrl('solo', 'nope')),
        404,
        'NotFoundError',
      );
      expectErrorRecord(await t.admin.post(url(), { features: 'solo' }), 400, 'ValidationError');
      expectErrorRecord(await t.admin.post(url(), {}), 400, 'ValidationError');
    });

    it('needs DELETE_FEATURE, as archive does', async () => {
      const other = await serviceTokenWith(t, [{ name: 'UPDATE_FEATURE' }]);
      expectErrorRecord(
        await t.as(other).post(url(), { features: ['solo'] }),
        403,
        'PermissionError',
      );
      const deleter = await serviceTokenWith(t, [{ name: 'DELETE_FEATURE' }]);
      await t
        .as(deleter)
        .post(url(), { features: ['solo'] })
        .expect(200);
    });
  });
});
