import { MIGRATIONS } from '../src/database/migrations';
import { startTestApp, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

/*
 * Several replicas starting at once on an empty database (issue 13, D17): migrations run under a
 * database lock, so every replica comes up on the first try. startTestApp() allows no retry of the
 * start (databaseRetryAttempts: 0), so a replica whose migration lost a race would fail here.
 */
describe('replicas starting at once', () => {
  let database: TestDatabase;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const app of apps) await app.app.close();
    await database.drop();
  });

  it('all come up on an empty database, and the migrations ran once', async () => {
    const started = await Promise.allSettled(
      [1, 2, 3].map(() => startTestApp({}, { databaseUrl: database.url })),
    );
    for (const result of started) if (result.status === 'fulfilled') apps.push(result.value);
    expect(started.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);

    for (const app of apps) await app.http.get('/health').expect(200);
    const rows: Array<{ name: string }> = await apps[0].dataSource.query(
      'SELECT name FROM migrations ORDER BY id',
    );
    expect(rows.map((row) => row.name)).toEqual(MIGRATIONS.map((migration) => migration.name));
    // What one replica writes, another reads: they share one schema.
    await apps[0].admin.post('/api/admin/projects', { id: 'shared', name: 'Shared' }).expect(201);
    await apps[2].admin.get('/api/admin/projects/shared').expect(200);
  });
});
