import type { TestApp } from './support/test-app';

/** Helpers shared by the feature e2e specs (features, strategies, variants, tags, dependencies, lifecycle). */

export const FEATURES = '/api/admin/projects/default/features';

export function featureUrl(name: string, project = 'default'): string {
  return `/api/admin/projects/${project}/features/${name}`;
}

export function envUrl(name: string, env: string, project = 'default'): string {
  return `${featureUrl(name, project)}/environments/${env}`;
}

export async function createFeature(
  t: TestApp,
  name: string,
  body: Record<string, unknown> = {},
  project = 'default',
): Promise<Record<string, unknown>> {
  const res = await t.admin.post(`/api/admin/projects/${project}/features`, { name, ...body });
  if (res.status !== 201)
    throw new Error(`create ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function createStrategy(
  t: TestApp,
  feature: string,
  env: string,
  body: Record<string, unknown> = { name: 'default' },
  project = 'default',
): Promise<Record<string, unknown> & { id: string }> {
  const res = await t.admin.post(`${envUrl(feature, env, project)}/strategies`, body);
  if (res.status !== 201) throw new Error(`strategy: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/*
 * The projects, segments and context-field APIs are built in parallel with the features; until
 * they are there, these helpers write the rows directly.
 */

/** Inserts a project linked to these environments. */
export async function insertProjectDirectly(
  t: TestApp,
  id: string,
  environments: string[] = [],
): Promise<void> {
  await t.dataSource.query(`INSERT INTO projects (id, name, description) VALUES (?, ?, NULL)`, [
    id,
    id,
  ]);
  for (const env of environments) {
    await t.dataSource.query(
      `INSERT INTO project_environments (project_id, environment_name) VALUES (?, ?)`,
      [id, env],
    );
  }
}

/** Inserts an environment (not linked to any project). */
export async function insertEnvironmentDirectly(
  t: TestApp,
  name: string,
  type: string,
): Promise<void> {
  await t.dataSource.query(
    `INSERT INTO environments (name, type, enabled, protected, sort_order) VALUES (?, ?, 1, 0, 300)`,
    [name, type],
  );
}

/** Inserts a segment without constraints and returns its id. */
export async function insertSegmentDirectly(t: TestApp, name: string): Promise<number> {
  await t.dataSource.query(
    `INSERT INTO segments (name, description, project_id, constraints) VALUES (?, NULL, NULL, '[]')`,
    [name],
  );
  const [row] = await t.dataSource.query(`SELECT id FROM segments WHERE name = ?`, [name]);
  return Number(row.id);
}

/** Inserts a context field with these legal values. */
export async function insertContextFieldDirectly(
  t: TestApp,
  name: string,
  legalValues: string[] = [],
  stickiness = false,
): Promise<void> {
  await t.dataSource.query(
    `INSERT INTO context_fields (name, description, stickiness, sort_order, legal_values) VALUES (?, NULL, ?, 10, ?)`,
    [name, stickiness ? 1 : 0, JSON.stringify(legalValues.map((value) => ({ value })))],
  );
}

/** Counts rows of a table matching a condition. */
export async function countRows(
  t: TestApp,
  table: string,
  where: string,
  params: unknown[],
): Promise<number> {
  const [row] = await t.dataSource.query(
    `SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`,
    params,
  );
  return Number(row.n);
}

/** Signs in and returns the session cookie (name=value). */
export async function signIn(t: TestApp, username: string, password: string): Promise<string> {
  const res = await t.http.post('/auth/simple/login').send({ username, password }).expect(200);
  return ([res.headers['set-cookie']].flat()[0] as string).split(';')[0];
}

/** Requests as a signed-in user (a change needs the JSON content type). */
export function withCookie(t: TestApp, cookie: string) {
  const json = (req: ReturnType<TestApp['http']['post']>, body?: object) =>
    req
      .set('Cookie', cookie)
      .set('Content-Type', 'application/json')
      .send(body ?? {});
  return {
    get: (url: string) => t.http.get(url).set('Cookie', cookie),
    post: (url: string, body?: object) => json(t.http.post(url), body),
    patch: (url: string, body?: object) => json(t.http.patch(url), body),
    // As admin frontends send it: the JSON content type, no body.
    delete: (url: string) =>
      t.http.delete(url).set('Cookie', cookie).set('Content-Type', 'application/json'),
  };
}
