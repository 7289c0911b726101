import { createFeature, featureUrl, insertProjectDirectly } from './feature-fixtures';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

describe('feature dependencies', () => {
  let t: TestApp;
  const deps = (child: string, project = 'default') => `${featureUrl(child, project)}/dependencies`;

  beforeAll(async () => {
    t = await startTestApp();
    await insertProjectDirectly(t, 'other', ['development']);
    for (const name of ['parent', 'parent2', 'child', 'child2', 'loner']) {
      await createFeature(t, name);
    }
    await createFeature(t, 'foreign', {}, 'other');
  });
  afterAll(() => t.close());

  it('adds a parent (201) and lists it; the parent lists the child', async () => {
    const res = await t.admin.post(deps('child'), { feature: 'parent' }).expect(201);
    expect(res.body).toEqual({ feature: 'parent', enabled: true, variants: [] });
    await t.admin.get(deps('child')).expect(200, [res.body]);
    const child = await t.admin.get(featureUrl('child')).expect(200);
    expect(child.body.dependencies).toEqual([res.body]);
    const parent = await t.admin.get(featureUrl('parent')).expect(200);
    expect(parent.body.children).toEqual(['child']);
  });

  it('changes an existing dependency (200) and takes enabled: false', async () => {
    const res = await t.admin
      .post(deps('child'), { feature: 'parent', enabled: true, variants: ['blue', 'red'] })
      .expect(200);
    expect(res.body).toEqual({ feature: 'parent', enabled: true, variants: ['blue', 'red'] });
    await t.admin.post(deps('child'), { feature: 'parent2', enabled: false }).expect(201);
    await t.admin.get(deps('child')).expect(200, [
      { feature: 'parent', enabled: true, variants: ['blue', 'red'] },
      { feature: 'parent2', enabled: false, variants: [] },
    ]);
    await t.admin.post(deps('child2'), { feature: 'parent' }).expect(201);
    const parent = await t.admin.get(featureUrl('parent')).expect(200);
    expect(parent.body.children).toEqual(['child', 'child2']);
  });

  it('answers 400 for variants without enabled: true, and for a malformed body', async () => {
    const res = await t.admin.post(deps('loner'), {
      feature: 'parent',
      enabled: false,
      variants: ['x'],
    });
    expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
      {
        path: '/body/variants',
        message: 'variants can only be required of a parent that must be enabled (enabled: true)',
      },
    ]);
    const shape = await t.admin.post(deps('loner'), { variants: 'x', enabled: 'yes', other: 1 });
    expect(
      expectErrorRecord(shape, 400, 'ValidationError')
        .details?.map((d) => d.path)
        .sort(),
    ).toEqual(['/body/enabled', '/body/feature', '/body/other', '/body/variants']);
  });

  it('answers 400 for a parent that is the child, unknown, archived or in another project', async () => {
    const cases: Array<[string, string]> = [
      ['loner', 'A feature cannot depend on itself'],
      ['ghost', 'Could not find feature with name ghost'],
      [
        'foreign',
        'Feature foreign is in project other; dependencies are only allowed within one project',
      ],
    ];
    for (const [parent, message] of cases) {
      const res = await t.admin.post(deps('loner'), { feature: parent });
      expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
        { path: '/body/feature', message },
      ]);
    }
    await createFeature(t, 'gone');
    await t.admin.delete(featureUrl('gone')).expect(204);
    const archived = await t.admin.post(deps('loner'), { feature: 'gone' });
    expect(expectErrorRecord(archived, 400, 'ValidationError').details).toEqual([
      { path: '/body/feature', message: 'Feature gone is archived and cannot be a parent' },
    ]);
  });

  it('answers 400 for grandparents and cycles', async () => {
    // child depends on parent: child cannot be a parent, parent cannot become a child.
    const grandchild = await t.admin.post(deps('loner'), { feature: 'child' });
    expect(expectErrorRecord(grandchild, 400, 'ValidationError').details).toEqual([
      {
        path: '/body/feature',
        message: 'Feature child depends on other features itself; a parent cannot have parents',
      },
    ]);
    const grandparent = await t.admin.post(deps('parent'), { feature: 'loner' });
    expect(expectErrorRecord(grandparent, 400, 'ValidationError').details).toEqual([
      {
        path: '/param/child',
        message: 'Other features depend on parent; a parent cannot become a child',
      },
    ]);
    const cycle = await t.admin.post(deps('parent'), { feature: 'child' });
    expect(
      expectErrorRecord(cycle, 400, 'ValidationError')
        .details?.map((d) => d.path)
        .sort(),
    ).toEqual(['/body/feature', '/param/child']);
  });

  it('removes one parent (204), then 404, and all parents at once (204)', async () => {
    await t.admin.delete(`${deps('child')}/parent2`).expect(204);
    const res = await t.admin.delete(`${deps('child')}/parent2`);
    expect(expectErrorRecord(res, 404, 'NotFoundError').message).toBe(
      'Feature child does not depend on feature parent2',
    );
    await t.admin.delete(deps('child')).expect(204);
    await t.admin.get(deps('child')).expect(200, []);
    await t.admin.delete(deps('child')).expect(204);
    const parent = await t.admin.get(featureUrl('parent')).expect(200);
    expect(parent.body.children).toEqual(['child2']);
  });

  it('answers 404 for an unknown child, a child of another project and an unknown project', async () => {
    for (const url of [deps('ghost'), deps('foreign'), deps('child', 'nope')]) {
      expectErrorRecord(await t.admin.get(url), 404, 'NotFoundError');
      expectErrorRecord(await t.admin.post(url, { feature: 'parent' }), 404, 'NotFoundError');
      expectErrorRecord(await t.admin.delete(url), 404, 'NotFoundError');
      expectErrorRecord(await t.admin.delete(`${url}/parent`), 404, 'NotFoundError');
    }
  });

  it('keeps the dependencies of an archived child readable but unchangeable (400)', async () => {
    await createFeature(t, 'sleeper');
    await t.admin.post(deps('sleeper'), { feature: 'parent' }).expect(201);
    await t.admin.delete(featureUrl('sleeper')).expect(204);
    await t.admin.get(deps('sleeper')).expect(200);
    for (const res of [
      await t.admin.post(deps('sleeper'), { feature: 'parent2' }),
      await t.admin.delete(`${deps('sleeper')}/parent`),
      await t.admin.delete(deps('sleeper')),
    ]) {
      expect(expectErrorRecord(res, 400, 'ValidationError').details?.[0].path).toBe('/param/child');
    }
  });

  it('drops the dependencies of a parent deleted for good', async () => {
    await createFeature(t, 'old-parent');
    await createFeature(t, 'old-child');
    await t.admin.post(deps('old-child'), { feature: 'old-parent' }).expect(201);
    await t.admin.delete(featureUrl('old-child')).expect(204);
    await t.admin.delete(featureUrl('old-parent')).expect(204);
    await t.admin.delete('/api/admin/archive/old-parent').expect(204);
    await t.admin.get(deps('old-child')).expect(200, []);
  });

  it('needs UPDATE_FEATURE to change dependencies', async () => {
    const token = await serviceTokenWith(t, [{ name: 'CREATE_FEATURE' }]);
    await t.as(token).get(deps('child2')).expect(200);
    for (const res of [
      await t.as(token).post(deps('loner'), { feature: 'parent' }),
      await t.as(token).delete(`${deps('child2')}/parent`),
      await t.as(token).delete(deps('child2')),
    ]) {
      expect(expectErrorRecord(res, 403, 'PermissionError')).toEqual(
        expect.objectContaining({ permissions: ['UPDATE_FEATURE'] }),
      );
    }
  });
});
