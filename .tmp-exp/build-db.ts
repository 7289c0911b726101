import 'reflect-metadata';
import { benchFeatures } from '../bench/bench-support';
// Builds bench:export's project of N features into a SQLite file, through the app.
(async () => {
  const [file, n] = [process.argv[2], Number(process.argv[3])];
  const { createApp } = await import('../src/app-setup');
  const { loadConfig } = await import('../src/config/app-config');
  const { getDataSourceToken } = await import('@nestjs/typeorm');
  const { insertBulkFeatures } = await import('../test/fixtures/bulk-features');
  const TOKEN = '*:*.peer-bench-admin-secret-0123456789';
  const app = await createApp(loadConfig({ DATABASE_URL: `sqlite:${file}`, INIT_ADMIN_API_TOKENS: TOKEN, LOG_LEVEL: 'warn', HOST: '127.0.0.1' }));
  await app.listen(0, '127.0.0.1');
  const a = app.getHttpServer().address();
  const base = `http://127.0.0.1:${a.port}`;
  const created = async (path: string, body: unknown) => {
    const res = await fetch(base + path, { method: 'POST', headers: { authorization: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`${path}: ${res.status}`);
    return (await res.json()) as { id: number };
  };
  await created('/api/admin/projects', { id: 'bench', name: 'Benchmark' });
  await created('/api/admin/context', { name: 'region', stickiness: true, legalValues: [{ value: 'eu' }, { value: 'us' }] });
  const ids: number[] = [];
  for (let i = 1; i <= 5; i++) ids.push((await created('/api/admin/segments', { name: `segment-${i}`, constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }] })).id);
  await created('/api/admin/tag-types', { name: 'team', description: 'Owning team' });
  const ds = app.get(getDataSourceToken());
  await ds.transaction((m: any) => insertBulkFeatures((sql: string, p: unknown[]) => m.query(sql, p), benchFeatures('bench', 'feature', n, ids)));
  await app.close();
})();
