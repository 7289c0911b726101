/**
 * Benchmark of POST /api/admin/features-batch/export: `npm run bench:export`.
 *
 * For each database and size, a child process builds the app with createApp() (exactly what
 * main.ts runs) on a fresh database, listens on 127.0.0.1, and fills one project with N
 * features: the project, context field, segments and tag type through the admin API, the
 * features with bulk INSERTs of the rows the API writes (test/fixtures/bulk-features.ts): each
 * feature with two strategies in `development` (constraints, a segment, strategy variants), two
 * environment variants with stickiness and an override, two tags, a row in `development` and
 * `production`; one in ten depends on the feature before it. It then exports the project over
 * HTTP: one warm-up, five measured runs (client-side time until the last byte), and a last run
 * whose body is parsed and checked. One process per scenario, so that each peak RSS
 * (`process.resourceUsage().maxRSS`, read before the checked run) belongs to that scenario
 * alone; it includes the client's side, which only counts bytes, and ts-node's compiler. The RSS
 * just before the first export (and the peak until then, from loading and building) is printed
 * beside it, so that what the exports add can be told apart.
 *
 * Environment:
 *   BENCH_DATABASE_URL  also run on this MySQL/MariaDB database, dropped and recreated for each
 *                       size (e.g. mariadb://root@127.0.0.1:3306/flagkeeper_bench_export)
 *   BENCH_SIZES         comma-separated feature counts (default 1000,10000)
 *   BENCH_ONLY          sqlite or mysql: run on that database only
 *   BENCH_RUNS          measured runs per scenario (default 5)
 *   BENCH_CPU_PROFILE_DIR  write a V8 CPU profile of each scenario there (node --cpu-prof)
 *   BENCH_NODE_FLAGS    extra node flags for the scenario processes (e.g. --max-semi-space-size=64)
 *
 * Exit status 1 when an export answers anything but 200 or its contents are not what was built.
 * A missed target (10,000 features under 1 s median) is reported, not failed: the figure depends
 * on what else the machine is doing.
 */
import 'reflect-metadata';
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RowDataPacket } from 'mysql2/promise';
import type { Logger as TypeOrmLogger } from 'typeorm';
import { createDatabaseSql } from '../src/database/sql-dialect';
import { benchFeatures } from './bench-support';

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TARGET_MS = 1000;
const TARGET_SIZE = 10000;
const PROJECT = 'bench';
const TOKEN = `*:*.bench-${randomBytes(16).toString('hex')}`;

type Kind = 'sqlite' | 'mysql';

interface ScenarioResult {
  kind: Kind;
  features: number;
  runsMs: number[];
  medianMs: number;
  /** CPU time of this process (server, and SQLite itself; not mysqld) per export, median. */
  cpuMs: number;
  bytes: number;
  statements: number;
  rssBeforeMb: number;
  peakRssBeforeMb: number;
  peakRssMb: number;
  /** The highest RSS sampled (every 10 ms) while the exports ran, fill excluded. */
  rssDuringMb: number;
  checked: string;
}

/** Counts the SQL statements that the app sends while `recording`. */
class StatementCounter implements TypeOrmLogger {
  count = 0;
  recording = false;

  logQuery(): void {
    if (this.recording) this.count += 1;
  }

  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// ---------------------------------------------------------------------------------------------
// One scenario (child process)
// ---------------------------------------------------------------------------------------------

async function freshMysqlDatabase(serverUrl: string): Promise<string> {
  const { createConnection } = await import('mysql2/promise');
  const url = new URL(serverUrl.replace(/^mariadb:/, 'mysql:'));
  const database = decodeURIComponent(url.pathname.slice(1)) || 'flagkeeper_bench_export';
  const admin = await createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  });
  await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
  const [[server]] = await admin.query<Array<{ version: string } & RowDataPacket>>(
    'SELECT VERSION() AS version',
  );
  await admin.query(createDatabaseSql(database, server.version));
  await admin.end();
  return serverUrl;
}

async function runScenario(kind: Kind, size: number): Promise<ScenarioResult> {
  const { createApp } = await import('../src/app-setup');
  const { loadConfig } = await import('../src/config/app-config');
  const { getDataSourceToken } = await import('@nestjs/typeorm');
  const { insertBulkFeatures } = await import('../test/fixtures/bulk-features');

  const dir = kind === 'sqlite' ? mkdtempSync(join(tmpdir(), 'flagkeeper-bench-export-')) : '';
  const databaseUrl =
    kind === 'sqlite'
      ? `sqlite:${join(dir, 'bench.sqlite')}`
      : await freshMysqlDatabase(process.env.BENCH_DATABASE_URL as string);
  const counter = new StatementCounter();
  const app = await createApp(
    loadConfig({
      DATABASE_URL: databaseUrl,
      INIT_ADMIN_API_TOKENS: TOKEN,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
    }),
    { sqlLogger: counter },
  );
  try {
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const created = async (path: string, body: unknown) => {
      const res = await post(path, body);
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: number };
    };

    await created('/api/admin/projects', { id: PROJECT, name: 'Benchmark' });
    await created('/api/admin/context', {
      name: 'region',
      stickiness: true,
      legalValues: [{ value: 'eu' }, { value: 'us' }, { value: 'apac' }],
    });
    const segmentIds: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const segment = await created('/api/admin/segments', {
        name: `segment-${i}`,
        constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }],
      });
      segmentIds.push(segment.id);
    }
    await created('/api/admin/tag-types', { name: 'team', description: 'Owning team' });

    const dataSource = app.get<import('typeorm').DataSource>(getDataSourceToken());
    const built = Date.now();
    await dataSource.transaction((manager) =>
      insertBulkFeatures(
        (sql, params) => manager.query(sql, params),
        benchFeatures(PROJECT, 'feature', size, segmentIds),
      ),
    );
    if (kind === 'mysql') {
      // As a database that has lived a while would have them.
      await dataSource.query(
        'ANALYZE TABLE features, feature_environments, feature_strategies, feature_strategy_segments, feature_tags, feature_dependencies',
      );
    }
    process.stderr.write(`  built ${size} features on ${kind} in ${Date.now() - built} ms\n`);

    const query = { environment: 'development', project: PROJECT };
    /** One export; the body is read to its end and only counted. */
    const timedExport = async (): Promise<{
      ms: number;
      cpuMs: number;
      bytes: number;
      statements: number;
    }> => {
      counter.count = 0;
      counter.recording = true;
      const cpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      const res = await post('/api/admin/features-batch/export', query);
      if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}`);
      let bytes = 0;
      for await (const chunk of res.body) bytes += (chunk as Uint8Array).byteLength;
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const used = process.cpuUsage(cpu);
      counter.recording = false;
      return { ms, cpuMs: (used.user + used.system) / 1000, bytes, statements: counter.count };
    };

    // A large fill outlasts the server's keep-alive (10 s), and a request sent on the socket it
    // closed fails with ECONNRESET: one throwaway request takes that socket out of the pool.
    await fetch(`${base}/health`).catch(() => undefined);
    // maxRSS covers the fill too, which at 100,000 features outgrows any export; so the RSS is
    // also sampled while the exports run, and compared with the RSS just before them.
    global.gc?.();
    const rssBeforeMb = process.memoryUsage().rss / 1024 / 1024;
    let rssDuring = 0;
    const sampler = setInterval(() => {
      rssDuring = Math.max(rssDuring, process.memoryUsage().rss);
    }, 10);
    const peakRssBeforeMb = process.resourceUsage().maxRSS / 1024;
    await timedExport();
    const runs: Array<Awaited<ReturnType<typeof timedExport>>> = [];
    for (let i = 0; i < RUNS; i++) runs.push(await timedExport());
    const peakRssMb = process.resourceUsage().maxRSS / 1024;
    clearInterval(sampler);

    const res = await post('/api/admin/features-batch/export', query);
    const document = (await res.json()) as Record<string, unknown[]>;
    const expected: Record<string, number> = {
      features: size,
      featureEnvironments: size,
      featureStrategies: 2 * size,
      contextFields: 4, // region, userId, sessionId, appName
      segments: segmentIds.length,
      featureTags: 2 * size,
      tagTypes: 2,
      dependencies: Math.floor((size - 1) / 10),
    };
    for (const [list, count] of Object.entries(expected)) {
      if (document[list]?.length !== count) {
        throw new Error(`${list}: expected ${count}, got ${document[list]?.length}`);
      }
    }
    return {
      kind,
      features: size,
      runsMs: runs.map((run) => Math.round(run.ms)),
      medianMs: Math.round(median(runs.map((run) => run.ms))),
      cpuMs: Math.round(median(runs.map((run) => run.cpuMs))),
      bytes: runs[0].bytes,
      statements: runs[0].statements,
      rssBeforeMb: Math.round(rssBeforeMb),
      peakRssBeforeMb: Math.round(peakRssBeforeMb),
      peakRssMb: Math.round(peakRssMb),
      rssDuringMb: Math.round(rssDuring / 1024 / 1024),
      checked: Object.entries(expected)
        .map(([list, count]) => `${list} ${count}`)
        .join(', '),
    };
  } finally {
    await app.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Driver (parent process)
// ---------------------------------------------------------------------------------------------

function runChild(kind: Kind, size: number): Promise<ScenarioResult> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['--scenario', kind, String(size)], {
      execArgv: [
        '-r',
        'ts-node/register/transpile-only',
        ...(process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(' ') : []),
        ...(process.env.BENCH_CPU_PROFILE_DIR
          ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE_DIR}`]
          : []),
      ],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: ScenarioResult | undefined;
    child.on('message', (message: ScenarioResult) => (result = message));
    child.on('exit', (code) =>
      result && code === 0 ? resolve(result) : reject(new Error(`${kind} ${size} failed`)),
    );
  });
}

async function main(): Promise<void> {
  const kinds: Kind[] = ['sqlite'];
  if (process.env.BENCH_DATABASE_URL) kinds.push('mysql');
  const only = process.env.BENCH_ONLY as Kind | undefined;
  const chosen = only ? kinds.filter((kind) => kind === only) : kinds;
  console.log(
    `Export benchmark: ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, Node ${process.version}; ${RUNS} measured runs after one warm-up`,
  );
  if (!process.env.BENCH_DATABASE_URL) {
    console.log('(set BENCH_DATABASE_URL to run on MySQL/MariaDB too)');
  }
  const results: ScenarioResult[] = [];
  for (const kind of chosen) {
    for (const size of SIZES) results.push(await runChild(kind, size));
  }

  console.log('');
  console.log(
    '| database | features | median | runs (ms) | CPU per export | response | statements | RSS before exports (peak so far) | peak RSS | RSS during exports (over before) |',
  );
  console.log('|---|---:|---:|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(
      `| ${r.kind} | ${r.features} | ${r.medianMs} ms | ${r.runsMs.join(', ')} | ${r.cpuMs} ms | ${(r.bytes / 1024 / 1024).toFixed(2)} MiB | ${r.statements} | ${r.rssBeforeMb} MiB (${r.peakRssBeforeMb} MiB) | ${r.peakRssMb} MiB | ${r.rssDuringMb} MiB (+${r.rssDuringMb - r.rssBeforeMb}) |`,
    );
  }
  console.log('');
  for (const r of results) console.log(`checked ${r.kind} ${r.features}: ${r.checked}`);
  for (const r of results.filter((r) => r.features === TARGET_SIZE)) {
    const verdict = r.medianMs < TARGET_MS ? 'met' : 'MISSED';
    console.log(`target ${TARGET_SIZE} features < ${TARGET_MS} ms median on ${r.kind}: ${verdict}`);
  }
}

if (process.argv[2] === '--scenario') {
  runScenario(process.argv[3] as Kind, Number(process.argv[4])).then(
    (result) => process.send?.(result, () => process.exit(0)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
