/**
 * Benchmark of the import (issue 14): `npm run bench:import`.
 *
 * For each database, a child process builds the app with createApp() on a fresh database, fills
 * project `bench` with N features through the bulk fixture the export benchmark uses (two
 * strategies each in `development`, with constraints, a segment and strategy variants; two
 * environment variants with an override; two tags; every tenth depending on the one before),
 * exports `development`, and imports that document into the empty environment `production` of
 * the same project, then once more over itself: BENCH_ROUNDS rounds, the environment emptied
 * again between them (emptyTarget), and the database let settle before each import. Before the
 * rounds, a warm-up import of a fifth of the size into another project runs the same code once,
 * so that the rounds measure compiled code, as in a server that has imported before (the other
 * benchmarks warm up too); its own, cold, time is in its row. Each import is one request to
 * POST /api/admin/features-batch/import through Fastify's inject (the whole route: JSON parsing
 * of the body text, guard, validation, transaction; no socket). Each run reports its time, split
 * where the transaction begins (before: body parsing and validation; from there: the
 * transaction), the statements of the transaction, the process's CPU time, on MariaDB the CPU
 * time of the busiest server thread (the import's connection: the server's own work, steadier
 * than the wall time on a loaded machine) and its peak RSS; the summary gives each import's median
 * over the rounds against the target.
 *
 * Environment:
 *   BENCH_DATABASE_URL  also run on this MySQL/MariaDB database, dropped and recreated
 *   BENCH_SIZE          feature count (default 10000)
 *   BENCH_ONLY          sqlite or mysql
 *   BENCH_ROUNDS        measured rounds, each into the emptied environment then over itself (3)
 *   BENCH_CPU_PROF      a directory: a V8 CPU profile of the whole child process goes there
 *   BENCH_IMPORT_PROF   a directory: a V8 CPU profile of each import request alone goes there
 *   BENCH_NODE_FLAGS    extra node flags for the child process (e.g. --max-semi-space-size=8)
 *
 * A missed target (a median under 2 s per import) is reported, not failed: the figure depends on
 * the load.
 */
import 'reflect-metadata';
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger as TypeOrmLogger } from 'typeorm';
import {
  benchFeatures,
  busiestThreadMs,
  freshMysqlDatabase,
  percentile,
  serverPid,
  serverThreadCpu,
  settle,
} from './bench-support';

const SIZE = Number(process.env.BENCH_SIZE ?? 10000);
const TARGET_MS = 2000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PROJECT = 'bench';
/** The warm-up import's project: its own features, so that the measured imports find none of it. */
const WARM_UP = 'warm-up';
const TOKEN = `*:*.bench-${randomBytes(16).toString('hex')}`;

type Kind = 'sqlite' | 'mysql';

interface Run {
  label: string;
  /** 0 for the warm-up, then 1 to ROUNDS. */
  round: number;
  bodyMib: number;
  load: number;
  cpuMs: number;
  /** CPU time of the busiest thread of a local MariaDB server during the import, ms. */
  serverThreadMs?: number;
  parseMs: number;
  importMs: number;
  statements: number;
  peakRssMb: number;
}

/**
 * Counts the statements of a run and, with BENCH_PROFILE set, times each one as the gap until
 * the next statement starts (the run's statements are sequential, in one transaction).
 */
class StatementCounter implements TypeOrmLogger {
  count = 0;
  recording = false;
  /** Set for a run: the next transaction to begin is the import's. */
  armed = false;
  /** When the run's transaction began. */
  began?: bigint;
  timings: Array<{ sql: string; ms: number }> = [];
  private last?: { sql: string; at: bigint };
  logQuery(sql: string): void {
    // The guard's token reads come before the transaction; the import's statements are its own.
    if (!this.recording) {
      if (!this.armed || !/^(START|BEGIN) TRANSACTION/.test(sql)) return;
      this.armed = false;
      this.recording = true;
      this.began = process.hrtime.bigint();
    }
    this.count += 1;
    this.lap(sql);
  }
  lap(sql?: string): void {
    const now = process.hrtime.bigint();
    if (this.last) {
      this.timings.push({ sql: this.last.sql, ms: Number(now - this.last.at) / 1e6 });
    }
    this.last = sql === undefined ? undefined : { sql, at: now };
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

async function runScenario(kind: Kind): Promise<Run[]> {
  const { createApp } = await import('../src/app-setup');
  const { loadConfig } = await import('../src/config/app-config');
  const { getDataSourceToken } = await import('@nestjs/typeorm');
  const { insertBulkFeatures } = await import('../test/fixtures/bulk-features');
  const { ExportService } = await import('../src/export/export.service');

  const dir = kind === 'sqlite' ? mkdtempSync(join(tmpdir(), 'flagkeeper-bench-import-')) : '';
  const databaseUrl =
    kind === 'sqlite'
      ? `sqlite:${join(dir, 'bench.sqlite')}`
      : await freshMysqlDatabase(
          process.env.BENCH_DATABASE_URL as string,
          'flagkeeper_bench_import',
        );
  const counter = new StatementCounter();
  const app = await createApp(
    loadConfig({ DATABASE_URL: databaseUrl, INIT_ADMIN_API_TOKENS: TOKEN, LOG_LEVEL: 'warn' }),
    { sqlLogger: counter },
  );
  try {
    await app.init();
    const dataSource = app.get<import('typeorm').DataSource>(getDataSourceToken());
    // Through the services' tables directly: the admin API's behaviour is not what is measured.
    await dataSource.query(
      `INSERT INTO projects (id, name, created_at) VALUES ('${PROJECT}', 'Benchmark', '2026-01-01 00:00:00.000')`,
    );
    await dataSource.query(
      `INSERT INTO projects (id, name, created_at) VALUES ('${WARM_UP}', 'Warm-up', '2026-01-01 00:00:00.000')`,
    );
    await dataSource.query(
      `INSERT INTO project_environments (project_id, environment_name) VALUES ('${PROJECT}', 'development'), ('${PROJECT}', 'production'), ('${WARM_UP}', 'development'), ('${WARM_UP}', 'production')`,
    );
    await dataSource.query(
      `INSERT INTO context_fields (name, stickiness, sort_order, legal_values, created_at) VALUES ('region', 1, 10, '[{"value":"eu"},{"value":"us"},{"value":"apac"}]', '2026-01-01 00:00:00.000')`,
    );
    await dataSource.query(
      `INSERT INTO tag_types (name, description, created_at) VALUES ('team', 'Owning team', '2026-01-01 00:00:00.000')`,
    );
    const segmentIds: number[] = [];
    for (let i = 1; i <= 5; i++) {
      await dataSource.query(
        `INSERT INTO segments (name, constraints, created_at) VALUES ('segment-${i}', '[]', '2026-01-01 00:00:00.000')`,
      );
      const [row] = await dataSource.query(`SELECT id FROM segments WHERE name = 'segment-${i}'`);
      segmentIds.push(Number(row.id));
    }
    const fill = (project: string, prefix: string, count: number) =>
      dataSource.transaction((manager) =>
        insertBulkFeatures(
          (sql, params) => manager.query(sql, params),
          benchFeatures(project, prefix, count, segmentIds),
        ),
      );
    const exportOf = async (project: string) => {
      const exported = await app.get(ExportService).export({ environment: 'development', project });
      let text = '';
      for await (const piece of exported.body) text += piece;
      return `{"project":"${project}","environment":"production","data":${text}}`;
    };
    await fill(PROJECT, 'feature', SIZE);
    await fill(WARM_UP, 'warm', Math.ceil(SIZE / 5));
    const payload = await exportOf(PROJECT);
    const warmUpPayload = await exportOf(WARM_UP);
    const bodyMib = Buffer.byteLength(payload) / 1024 / 1024;
    process.stderr.write(
      `  ${kind}: built and exported ${SIZE} features (${bodyMib.toFixed(1)} MiB)\n`,
    );

    const fastify = app.getHttpAdapter().getInstance();
    const pid = kind === 'mysql' ? await serverPid(dataSource) : null;
    const runs: Run[] = [];
    const imports = [
      {
        label: `warm-up (cold): ${Math.ceil(SIZE / 5)} features, another project`,
        body: warmUpPayload,
        round: 0,
      },
    ];
    for (let round = 1; round <= ROUNDS; round++) {
      imports.push({ label: 'into the empty environment', body: payload, round });
      imports.push({ label: 'again over itself', body: payload, round });
    }
    for (const { label, body, round } of imports) {
      if (label === 'into the empty environment' && round > 1) await emptyTarget(dataSource);
      await settle(kind, dataSource);
      counter.count = 0;
      counter.began = undefined;
      counter.timings = [];
      counter.armed = true;
      const profile = process.env.BENCH_IMPORT_PROF ? await startProfile() : undefined;
      const threadsBefore = serverThreadCpu(pid);
      const cpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      const res = await fastify.inject({
        method: 'POST',
        url: '/api/admin/features-batch/import',
        headers: { authorization: TOKEN, 'content-type': 'application/json' },
        payload: body,
      });
      const done = process.hrtime.bigint();
      const cpuMs = process.cpuUsage(cpu);
      const serverThreadMs = busiestThreadMs(threadsBefore, serverThreadCpu(pid));
      if (profile) await profile.stopInto(process.env.BENCH_IMPORT_PROF as string, kind, label);
      counter.recording = false;
      counter.lap();
      if (res.statusCode !== 204) throw new Error(`import: ${res.statusCode} ${res.body}`);
      if (process.env.BENCH_PROFILE) {
        for (const { sql, ms } of counter.timings.splice(0)) {
          process.stderr.write(
            `    ${ms.toFixed(0).padStart(6)} ms  ${sql.replace(/\s+/g, ' ').slice(0, 110)}\n`,
          );
        }
      }
      const parsed = counter.began ?? done;
      runs.push({
        label,
        round,
        bodyMib: Math.round((Buffer.byteLength(body) / 1024 / 1024) * 10) / 10,
        load: Math.round(loadavg()[0] * 10) / 10,
        cpuMs: Math.round((cpuMs.user + cpuMs.system) / 1000),
        serverThreadMs: serverThreadMs === undefined ? undefined : Math.round(serverThreadMs),
        parseMs: Math.round(Number(parsed - start) / 1e6),
        importMs: Math.round(Number(done - parsed) / 1e6),
        statements: counter.count,
        peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      });
    }
    const [check] = await dataSource.query(
      `SELECT COUNT(*) AS n FROM feature_strategies fs JOIN features f ON f.name = fs.feature_name
        WHERE fs.environment_name = 'production' AND ${IN_PROJECT}`,
    );
    if (Number(check.n) !== 2 * SIZE)
      throw new Error(`expected ${2 * SIZE} strategies, got ${check.n}`);
    return runs;
  } finally {
    await app.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/** The measured project's features, as a condition on `feature_name` of the table read. */
const IN_PROJECT = `feature_name IN (SELECT name FROM features WHERE project_id = '${PROJECT}')`;

/**
 * Puts the target environment back as the first import found it, so that the next round imports
 * into an empty environment again: no strategies (their segment links go with them), the
 * switches off and no variants, and no `live` stage (the import enters it in a production
 * environment). The features, their tags and dependencies stay: they were there before too.
 */
async function emptyTarget(dataSource: import('typeorm').DataSource): Promise<void> {
  await dataSource.query(
    `DELETE FROM feature_strategies WHERE environment_name = 'production' AND ${IN_PROJECT}`,
  );
  await dataSource.query(
    `UPDATE feature_environments SET enabled = 0, variants = '[]'
      WHERE environment_name = 'production' AND ${IN_PROJECT}`,
  );
  await dataSource.query(`DELETE FROM feature_lifecycles WHERE stage = 'live' AND ${IN_PROJECT}`);
}

/**
 * A CPU profile of the calling process from now until stopInto(), written as a `.cpuprofile`
 * file: the import request alone, without the fill and the export before it.
 */
async function startProfile(): Promise<{
  stopInto(dir: string, kind: Kind, label: string): Promise<void>;
}> {
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.start');
  return {
    async stopInto(dir, kind, label) {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      session.disconnect();
      const file = join(dir, `import-${kind}-${label.replace(/\W+/g, '-')}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      process.stderr.write(`    profile: ${file}\n`);
    },
  };
}

function runChild(kind: Kind): Promise<Run[]> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['--scenario', kind], {
      execArgv: [
        '-r',
        'ts-node/register/transpile-only',
        ...(process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(' ') : []),
        // BENCH_CPU_PROF=dir writes a V8 CPU profile of the run there (for chrome://inspect).
        ...(process.env.BENCH_CPU_PROF
          ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
          : []),
      ],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: Run[] | undefined;
    child.on('message', (message: Run[]) => (result = message));
    child.on('exit', (code) =>
      result && code === 0 ? resolve(result) : reject(new Error(`${kind} failed`)),
    );
  });
}

async function main(): Promise<void> {
  const kinds: Kind[] = ['sqlite'];
  if (process.env.BENCH_DATABASE_URL) kinds.push('mysql');
  const only = process.env.BENCH_ONLY as Kind | undefined;
  console.log(
    `Import benchmark: ${SIZE} features, ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, Node ${process.version}`,
  );
  console.log('');
  console.log(
    '| database | import | round | body | parse + validation | transaction | node CPU | server thread CPU | statements | peak RSS | load (1 min) | total |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const summary: string[] = [];
  for (const kind of only ? kinds.filter((k) => k === only) : kinds) {
    const runs = await runChild(kind);
    for (const run of runs) {
      console.log(
        `| ${kind} | ${run.label} | ${run.round || '–'} | ${run.bodyMib} MiB | ${run.parseMs} ms | ${run.importMs} ms | ${run.cpuMs} ms | ${run.serverThreadMs === undefined ? '–' : `${run.serverThreadMs} ms`} | ${run.statements} | ${run.peakRssMb} MiB | ${run.load} | ${run.parseMs + run.importMs} ms |`,
      );
    }
    for (const label of ['into the empty environment', 'again over itself']) {
      const rounds = runs.filter((r) => r.label === label);
      const totals = rounds.map((r) => r.parseMs + r.importMs);
      const median = percentile(totals, 50);
      const threads = rounds.flatMap((r) =>
        r.serverThreadMs === undefined ? [] : [r.serverThreadMs],
      );
      summary.push(
        `| ${kind} | ${label} | ${median} ms | ${Math.min(...totals)}–${Math.max(...totals)} ms | ${threads.length ? `${percentile(threads, 50)} ms` : '–'} | ${median < TARGET_MS ? 'met' : 'MISSED'} |`,
      );
    }
  }
  console.log('');
  console.log(
    `| database | import | median of ${ROUNDS} | min–max | server thread CPU (median) | target < 2 s (median) |`,
  );
  console.log('|---|---|---:|---:|---:|---|');
  for (const line of summary) console.log(line);
}

if (process.argv[2] === '--scenario') {
  runScenario(process.argv[3] as Kind).then(
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
