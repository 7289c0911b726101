/**
 * Benchmark of GET /api/admin/search/features: `npm run bench:search`.
 *
 * On each database, builds the app with createApp() (what main.ts runs) on a fresh database,
 * listens on 127.0.0.1 and fills project `bench` with N features (default 10,000) through the
 * bulk rows of test/fixtures/bulk-features.ts (two environments, strategies with segments, two
 * tags each, dependencies). It then asks for a page of 50 three ways (by project, by tag, by
 * free text), warms up, and times BENCH_RUNS requests of each (client-side, until the last byte),
 * printing the median and the 99th percentile. The answers are checked (50 items, the expected
 * total); a wrong answer exits 1. A missed target (median under 50 ms) is reported, not failed.
 *
 * Environment:
 *   BENCH_DATABASE_URL  also run on this MySQL/MariaDB database, dropped and recreated
 *                       (e.g. mariadb://root@127.0.0.1:3306/flagkeeper_bench_search)
 *   BENCH_SIZE          features (default 10000)
 *   BENCH_RUNS          measured requests per query (default 200)
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { createApp } from '../src/app-setup';
import { loadConfig } from '../src/config/app-config';
import { getDataSourceToken } from '@nestjs/typeorm';
import { insertBulkFeatures } from '../test/fixtures/bulk-features';
import { benchFeatures, freshMysqlDatabase, percentile } from './bench-support';

const SIZE = Number(process.env.BENCH_SIZE ?? 10000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const TARGET_MS = 50;
const TOKEN = `*:*.bench-${randomBytes(16).toString('hex')}`;

/** What each query should find in the bulk data: names `feature-000001`…, tags group-(i mod 10). */
const QUERIES: Array<{ label: string; query: string; total: number }> = [
  { label: 'by project', query: 'project=IS:bench', total: SIZE },
  { label: 'by tag', query: 'tag=INCLUDE:team:group-3', total: SIZE / 10 },
  {
    label: 'by free text',
    query: 'query=feature-004',
    total: Math.min(1000, Math.max(0, SIZE - 3999)),
  },
];

async function runOn(kind: 'sqlite' | 'mysql'): Promise<boolean> {
  const dir = kind === 'sqlite' ? mkdtempSync(join(tmpdir(), 'flagkeeper-bench-search-')) : '';
  const databaseUrl =
    kind === 'sqlite'
      ? `sqlite:${join(dir, 'bench.sqlite')}`
      : await freshMysqlDatabase(
          process.env.BENCH_DATABASE_URL as string,
          'flagkeeper_bench_search',
        );
  const app = await createApp(
    loadConfig({ DATABASE_URL: databaseUrl, INIT_ADMIN_API_TOKENS: TOKEN, LOG_LEVEL: 'warn' }),
  );
  let ok = true;
  try {
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: number };
    };
    await post('/api/admin/projects', { id: 'bench', name: 'Benchmark' });
    await post('/api/admin/context', {
      name: 'region',
      legalValues: [{ value: 'eu' }, { value: 'us' }],
    });
    const segmentIds: number[] = [];
    for (let i = 1; i <= 5; i++) {
      segmentIds.push(
        (await post('/api/admin/segments', { name: `segment-${i}`, constraints: [] })).id,
      );
    }
    await post('/api/admin/tag-types', { name: 'team' });
    const dataSource = app.get<DataSource>(getDataSourceToken());
    await dataSource.transaction((manager) =>
      insertBulkFeatures(
        (sql, params) => manager.query(sql, params),
        benchFeatures('bench', 'feature', SIZE, segmentIds),
      ),
    );
    if (kind === 'mysql')
      await dataSource.query('ANALYZE TABLE features, feature_tags, feature_environments');

    for (const { label, query, total } of QUERIES) {
      const url = `${base}/api/admin/search/features?${query}&limit=50&offset=0&sortBy=createdAt&sortOrder=desc`;
      const once = async () => {
        const start = process.hrtime.bigint();
        const res = await fetch(url, { headers: { authorization: TOKEN } });
        const body = (await res.json()) as { features: unknown[]; total: number };
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        if (
          res.status !== 200 ||
          body.total !== total ||
          body.features.length !== Math.min(50, total)
        ) {
          throw new Error(
            `${label}: ${res.status}, total ${body.total}, ${body.features?.length} items`,
          );
        }
        return ms;
      };
      for (let i = 0; i < 10; i++) await once();
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await once());
      const med = percentile(times, 50);
      const p99 = percentile(times, 99);
      const verdict = med < TARGET_MS ? 'target met' : `TARGET MISSED (median ≥ ${TARGET_MS} ms)`;
      console.log(
        `${kind.padEnd(6)} ${String(SIZE).padStart(6)} features  ${label.padEnd(13)} total ${String(total).padStart(5)}  median ${med.toFixed(1).padStart(6)} ms  p99 ${p99.toFixed(1).padStart(6)} ms  ${verdict}`,
      );
    }
  } catch (error) {
    console.error(`${kind}: ${(error as Error).message}`);
    ok = false;
  } finally {
    await app.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
  return ok;
}

async function main(): Promise<void> {
  console.log(
    `search benchmark: ${RUNS} requests per query, ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  let ok = await runOn('sqlite');
  if (process.env.BENCH_DATABASE_URL) ok = (await runOn('mysql')) && ok;
  process.exit(ok ? 0 : 1);
}

void main();
