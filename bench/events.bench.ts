/**
 * Benchmark of the event search (issue 12): `npm run bench:events`.
 *
 * On each database, builds the app with createApp() (what main.ts runs) on a fresh database,
 * listens on 127.0.0.1 and appends N events (default 100,000) straight into the log, in batches
 * of multi-row INSERTs: 1,000 features with N/1,000 events each, over 20 event types in turn,
 * spread over 5 projects, some by users and most by a token. It then asks for a page of 50 two
 * ways (GET /api/admin/search/events by feature and by type), warms up, and times BENCH_RUNS
 * requests of each (client-side, until the last byte), printing the median and the 99th
 * percentile. The answers are checked (50 events, the expected total, newest first); a wrong
 * answer exits 1. A missed target (median under 50 ms) is reported, not failed.
 *
 * Environment:
 *   BENCH_DATABASE_URL  also run on this MySQL/MariaDB database, dropped and recreated
 *                       (e.g. mariadb://root@127.0.0.1:3306/flagkeeper_bench_events)
 *   BENCH_SIZE          events (default 100000; a multiple of 1,000)
 *   BENCH_RUNS          measured requests per query (default 200)
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';
import { createApp } from '../src/app-setup';
import { loadConfig } from '../src/config/app-config';
import { sqlTimestamp } from '../src/database/sql-values';
import { freshMysqlDatabase, percentile } from './bench-support';

const SIZE = Number(process.env.BENCH_SIZE ?? 100000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const FEATURES = 1000;
const TYPES = Array.from({ length: 20 }, (_, i) => `bench-type-${String(i).padStart(2, '0')}`);
const TARGET_MS = 50;
const TOKEN = `*:*.bench-${randomBytes(16).toString('hex')}`;

/** Event i: feature (i mod 1000), type (i mod 20). */
const QUERIES: Array<{ label: string; query: string; total: number }> = [
  { label: 'by feature', query: 'feature=feature-000042', total: SIZE / FEATURES },
  { label: 'by type', query: `type=${TYPES[7]}`, total: SIZE / TYPES.length },
];

/** The log as a year of writes would leave it: one INSERT per 1,000 events, in one transaction. */
async function fillEvents(dataSource: DataSource): Promise<void> {
  const start = Date.now() - SIZE * 60_000;
  const batch = 1000;
  await dataSource.transaction(async (tx) => {
    for (let first = 0; first < SIZE; first += batch) {
      const params: unknown[] = [];
      for (let i = first; i < Math.min(SIZE, first + batch); i++) {
        const feature = `feature-${String(i % FEATURES).padStart(6, '0')}`;
        const byUser = i % 4 === 0;
        params.push(
          TYPES[i % TYPES.length],
          sqlTimestamp(new Date(start + i * 60_000)),
          byUser ? 'Ada' : 'ci-token',
          byUser ? 1 : null,
          `project-${i % 5}`,
          i % 2 === 0 ? 'development' : 'production',
          feature,
          JSON.stringify({ name: feature, enabled: i % 2 === 0, strategy: { id: i } }),
          null,
        );
      }
      const rows = params.length / 9;
      await tx.query(
        `INSERT INTO events (type, created_at, created_by, created_by_user_id, project,
           environment, feature_name, data, pre_data)
         VALUES ${Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        params,
      );
    }
  });
}

async function runOn(kind: 'sqlite' | 'mysql'): Promise<boolean> {
  const dir = kind === 'sqlite' ? mkdtempSync(join(tmpdir(), 'flagkeeper-bench-events-')) : '';
  const databaseUrl =
    kind === 'sqlite'
      ? `sqlite:${join(dir, 'bench.sqlite')}`
      : await freshMysqlDatabase(
          process.env.BENCH_DATABASE_URL as string,
          'flagkeeper_bench_events',
        );
  const app = await createApp(
    loadConfig({ DATABASE_URL: databaseUrl, INIT_ADMIN_API_TOKENS: TOKEN, LOG_LEVEL: 'warn' }),
  );
  let ok = true;
  try {
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const dataSource = app.get<DataSource>(getDataSourceToken());
    await fillEvents(dataSource);
    if (kind === 'mysql') await dataSource.query('ANALYZE TABLE events');

    for (const { label, query, total } of QUERIES) {
      const url = `${base}/api/admin/search/events?${query}&limit=50&offset=0`;
      const once = async () => {
        const startedAt = process.hrtime.bigint();
        const res = await fetch(url, { headers: { authorization: TOKEN } });
        const body = (await res.json()) as { events: Array<{ id: number }>; total: number };
        const ms = Number(process.hrtime.bigint() - startedAt) / 1e6;
        const ids = body.events?.map((event) => event.id) ?? [];
        const newestFirst = ids.every((id, i) => i === 0 || id < ids[i - 1]);
        if (res.status !== 200 || body.total !== total || ids.length !== 50 || !newestFirst) {
          throw new Error(`${label}: ${res.status}, total ${body.total}, ${ids.length} events`);
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
        `${kind.padEnd(6)} ${String(SIZE).padStart(7)} events  ${label.padEnd(10)} total ${String(total).padStart(5)}  median ${med.toFixed(1).padStart(6)} ms  p99 ${p99.toFixed(1).padStart(6)} ms  ${verdict}`,
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
    `event search benchmark: ${RUNS} requests per query, ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  let ok = await runOn('sqlite');
  if (process.env.BENCH_DATABASE_URL) ok = (await runOn('mysql')) && ok;
  process.exit(ok ? 0 : 1);
}

void main();
