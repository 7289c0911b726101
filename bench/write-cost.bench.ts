/**
 * What one write costs, for comparing two versions of the code (issue 12: the event log adds one
 * INSERT to every write, in the write's transaction): `npm run bench:write-cost`.
 *
 * On each database, builds the app with createApp() (what main.ts runs) on a fresh database,
 * creates a feature with one flexibleRollout strategy through the API, then sends BENCH_RUNS
 * strategy updates (`PUT …/strategies/:id`, the rollout changing each time) one after the other,
 * after BENCH_WARMUP unmeasured ones. Prints the median and 99th percentile of the request time
 * (client-side, until the last byte) and the statements one update sends.
 *
 * It uses only routes and start-up code that existed before the event log, so the same file runs
 * on an older checkout: docs/benchmarks.md compares the commit before the events with the one
 * that added them, on the same machine, back to back.
 *
 * Environment:
 *   BENCH_DATABASE_URL  also run on this MySQL/MariaDB database, dropped and recreated
 *                       (e.g. mariadb://root@127.0.0.1:3306/flagkeeper_bench_writes)
 *   BENCH_RUNS          measured updates per database (default 500)
 *   BENCH_WARMUP        unmeasured updates first (default 50)
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createConnection } from 'mysql2/promise';
import { createApp } from '../src/app-setup';
import { loadConfig } from '../src/config/app-config';
import { SqlCounter } from '../test/support/sql-counter';

const RUNS = Number(process.env.BENCH_RUNS ?? 500);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 50);
const TOKEN = '*:*.bench-write-cost-token-0123456789';
const FEATURE_URL = '/api/admin/projects/default/features/write-cost';

/** Kept self-contained (no newer helper), so that the file runs unchanged on older commits. */
async function recreateMysqlDatabase(serverUrl: string): Promise<void> {
  const url = new URL(serverUrl.replace(/^mariadb:/, 'mysql:'));
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^\w+$/.test(name)) throw new Error('BENCH_DATABASE_URL must name a database');
  const admin = await createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
  });
  await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
  // The collation the older migrations expect; the current ones convert it to no-pad themselves.
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  await admin.end();
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

async function benchOne(databaseUrl: string, label: string): Promise<void> {
  const sql = new SqlCounter();
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    INIT_ADMIN_API_TOKENS: TOKEN,
    LOG_LEVEL: 'warn',
  });
  const app = await createApp(config, { sqlLogger: sql, databaseRetryAttempts: 0 });
  try {
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    const send = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: { authorization: TOKEN, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return text ? (JSON.parse(text) as { id?: string }) : {};
    };
    await send('POST', '/api/admin/projects/default/features', { name: 'write-cost' });
    const strategy = (n: number) => ({
      name: 'flexibleRollout',
      parameters: { rollout: String(n % 100), stickiness: 'default', groupId: 'write-cost' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['a', 'b'] }],
    });
    const { id } = await send(
      'POST',
      `${FEATURE_URL}/environments/development/strategies`,
      strategy(0),
    );
    const update = (n: number) =>
      send('PUT', `${FEATURE_URL}/environments/development/strategies/${id}`, strategy(n));

    for (let n = 1; n <= WARMUP; n++) await update(n);
    const { count } = await sql.measure(() => update(0));
    const times: number[] = [];
    const load = loadavg()[0];
    for (let n = 1; n <= RUNS; n++) {
      const start = performance.now();
      await update(n);
      times.push(performance.now() - start);
    }
    console.log(
      `${label}: strategy update median ${quantile(times, 0.5).toFixed(2)} ms, ` +
        `p99 ${quantile(times, 0.99).toFixed(2)} ms over ${RUNS}; ${count} statements per update ` +
        `(incl. the token lookup when its cache entry expired); load ${load.toFixed(2)} → ` +
        `${loadavg()[0].toFixed(2)}`,
    );
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'flagkeeper-bench-writes-'));
  try {
    await benchOne(`sqlite:${join(dir, 'bench.sqlite')}`, 'SQLite');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const mysqlUrl = process.env.BENCH_DATABASE_URL;
  if (mysqlUrl) {
    await recreateMysqlDatabase(mysqlUrl);
    await benchOne(mysqlUrl, 'MariaDB/MySQL');
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
