/**
 * Benchmark of the import (issue 14): `npm run bench:import`.
 *
 * For each database, a child process builds the app with createApp() on a fresh database, fills
 * project `bench` with N features through the bulk fixture the export benchmark uses (two
 * strategies each in `development`, with constraints, a segment and strategy variants; two
 * environment variants with an override; two tags; every tenth depending on the one before),
 * exports `development`, and imports that document into the empty environment `production` of
 * the same project, then once more over itself. The import is driven through ImportService
 * (parse: the DTO validation the routes run; then the import), not over HTTP: the export of
 * 10,000 such features is about 17 MiB, over the 10 MiB body limit of the batch routes. Each run
 * reports its time, the statements it sent, and the process's peak RSS after it.
 *
 * Environment:
 *   BENCH_DATABASE_URL  also run on this MySQL/MariaDB database, dropped and recreated
 *   BENCH_SIZE          feature count (default 10000)
 *   BENCH_ONLY          sqlite or mysql
 *
 * A missed target (under 2 s per import) is reported, not failed: the figure depends on the load.
 */
import 'reflect-metadata';
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger as TypeOrmLogger } from 'typeorm';
import { freshMysqlDatabase } from './bench-support';

const SIZE = Number(process.env.BENCH_SIZE ?? 10000);
const TARGET_MS = 2000;
const PROJECT = 'bench';
const TOKEN = `*:*.bench-${randomBytes(16).toString('hex')}`;

type Kind = 'sqlite' | 'mysql';

interface Run {
  label: string;
  parseMs: number;
  importMs: number;
  statements: number;
  peakRssMb: number;
}

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

async function runScenario(kind: Kind): Promise<Run[]> {
  const { createApp } = await import('../src/app-setup');
  const { loadConfig } = await import('../src/config/app-config');
  const { getDataSourceToken } = await import('@nestjs/typeorm');
  const { insertBulkFeatures } = await import('../test/fixtures/bulk-features');
  const { ExportService } = await import('../src/export/export.service');
  const { ImportService } = await import('../src/import/import.service');

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
      `INSERT INTO project_environments (project_id, environment_name) VALUES ('${PROJECT}', 'development'), ('${PROJECT}', 'production')`,
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
    await dataSource.transaction((manager) =>
      insertBulkFeatures((sql, params) => manager.query(sql, params), {
        project: PROJECT,
        prefix: 'feature',
        count: SIZE,
        environments: ['development', 'production'],
        strategyEnvironment: 'development',
        segmentIds,
        contextField: 'region',
        tagTypes: ['simple', 'team'],
        dependencyEvery: 10,
      }),
    );
    const exported = await app
      .get(ExportService)
      .export({ environment: 'development', project: PROJECT });
    let text = '';
    for await (const piece of exported.body) text += piece;
    const body = JSON.parse(
      `{"project":"${PROJECT}","environment":"production","data":${text}}`,
    ) as unknown;
    process.stderr.write(`  ${kind}: built and exported ${SIZE} features\n`);

    const imports = app.get(ImportService);
    const principal = {
      tokenId: 0,
      tokenName: 'bench',
      type: 'admin' as const,
      grants: [{ permission: 'ADMIN' as const, environment: null }],
      expiresAt: null,
    };
    const runs: Run[] = [];
    for (const label of ['into the empty environment', 'again over itself']) {
      const start = process.hrtime.bigint();
      const dto = await imports.parse(body);
      const parsed = process.hrtime.bigint();
      counter.count = 0;
      counter.recording = true;
      await imports.import(dto, principal);
      counter.recording = false;
      const done = process.hrtime.bigint();
      runs.push({
        label,
        parseMs: Math.round(Number(parsed - start) / 1e6),
        importMs: Math.round(Number(done - parsed) / 1e6),
        statements: counter.count,
        peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      });
    }
    const [check] = await dataSource.query(
      `SELECT COUNT(*) AS n FROM feature_strategies WHERE environment_name = 'production'`,
    );
    if (Number(check.n) !== 2 * SIZE)
      throw new Error(`expected ${2 * SIZE} strategies, got ${check.n}`);
    return runs;
  } finally {
    await app.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

function runChild(kind: Kind): Promise<Run[]> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['--scenario', kind], {
      execArgv: ['-r', 'ts-node/register/transpile-only'],
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
    '| database | import | parse (DTO validation) | import (transaction) | statements | peak RSS | target < 2 s |',
  );
  console.log('|---|---|---:|---:|---:|---:|---|');
  for (const kind of only ? kinds.filter((k) => k === only) : kinds) {
    for (const run of await runChild(kind)) {
      const total = run.parseMs + run.importMs;
      console.log(
        `| ${kind} | ${run.label} | ${run.parseMs} ms | ${run.importMs} ms | ${run.statements} | ${run.peakRssMb} MiB | ${total < TARGET_MS ? 'met' : 'MISSED'} (${total} ms) |`,
      );
    }
  }
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
