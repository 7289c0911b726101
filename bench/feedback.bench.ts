/**
 * Benchmark of POST /feedback: `npm run bench:feedback`. How to read it: docs/benchmarks.md.
 *
 * The app is built with createApp() (what main.ts runs) in a child process, so that the load
 * generator and the server do not share one event loop. Against it, autocannon posts feedback
 * through our route and through a bare route that inserts the same row through the same
 * repository without Nest's routing, guard, pipes and controller. The bare route is added by
 * this file to the app it starts; it exists in no production code path. Both routes still pass
 * Fastify's global hooks (helmet headers, request id, the request log line).
 *
 * Each route gets BENCH_DURATION seconds of load, cut into BENCH_SLICES slices that alternate
 * between the routes (ours, bare, bare, ours, ours, bare, …), so that whatever else the machine
 * does weighs on both alike. Besides requests/s and latency, the server's own CPU time per
 * request is reported: it depends far less on the machine's other load than throughput does.
 *
 * Environment:
 *   BENCH_DATABASE_URL     also run on this MySQL/MariaDB database, dropped and recreated first
 *                          (e.g. mariadb://root@127.0.0.1:3306/flagkeeper_bench)
 *   BENCH_LOG_LEVEL        the server's LOG_LEVEL (default info: one JSON line per request)
 *   BENCH_DURATION         seconds of load per route (default 10)
 *   BENCH_SLICES           slices per route (default 5)
 *   BENCH_CONNECTIONS      concurrent connections (default 50)
 *   BENCH_ONLY             sqlite or mysql: run on that database only
 *   BENCH_CPU_PROFILE_DIR  write a V8 CPU profile of the server there (node --cpu-prof)
 *
 * Exit status 1 when fewer rows are stored than POSTs were acknowledged, or when a measured run
 * had errors or non-2xx answers. Missed throughput targets are reported, not failed: the figures
 * depend on what else the machine is doing.
 */
import 'reflect-metadata';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger as TypeOrmLogger } from 'typeorm';
import { createDatabaseSql } from '../src/database/sql-dialect';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SLICES = Number(process.env.BENCH_SLICES ?? 5);
const WARMUP_SECONDS = 3;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
/** The admin token of one benchmark; the parent makes it and hands it to the server it starts. */
const TOKEN = process.env.BENCH_TOKEN ?? `*:*.bench-${randomBytes(16).toString('hex')}`;
const BARE_PATH = '/bench/bare-feedback';

const TARGET_RPS = 1000;
const TARGET_P99_MS = 100;
const TARGET_OVERHEAD = 0.25;

/** A realistic body: every field given, some non-ASCII text. */
function bodyFor(category: string): string {
  return JSON.stringify({
    category,
    userType: 'developer',
    difficultyScore: 3.5,
    positive: 'The clone endpoint saved us a day of clicking. Schön! 👍',
    areasForImprovement: 'The export file could be smaller; 导出文件可以更小。',
  });
}

// ---------------------------------------------------------------------------------------------
// Server side (child process)
// ---------------------------------------------------------------------------------------------

type ServerMessage =
  | { type: 'ready'; port: number; rssKb: number }
  | { type: 'cpu'; micros: number }
  | { type: 'stats'; maxRssKb: number; statements: Record<string, number> };

/** Counts SQL statements by kind, to show that a warm token costs no database round trip. */
class StatementCounter implements TypeOrmLogger {
  readonly counts: Record<string, number> = {};

  logQuery(query: string): void {
    const kind = /^\s*INSERT INTO [`"]?feedback/i.test(query)
      ? 'INSERT feedback'
      : /FROM [`"]?api_tokens/i.test(query)
        ? 'SELECT api_tokens (token lookup)'
        : /FROM [`"]?role_permissions/i.test(query)
          ? 'SELECT role_permissions'
          : 'other';
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
  }

  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

async function runServer(databaseUrl: string): Promise<void> {
  const { createApp } = await import('../src/app-setup');
  const { loadConfig } = await import('../src/config/app-config');
  const { getRepositoryToken } = await import('@nestjs/typeorm');
  const { Feedback } = await import('../src/feedback/feedback.entity');

  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    INIT_ADMIN_API_TOKENS: TOKEN,
    LOG_LEVEL: LOG_LEVEL,
    HOST: '127.0.0.1',
  });
  const statements = new StatementCounter();
  const app = await createApp(config, { sqlLogger: statements });

  // The bare route: the same INSERT through the same repository, nothing else of ours.
  const repository = app.get<import('typeorm').Repository<InstanceType<typeof Feedback>>>(
    getRepositoryToken(Feedback),
  );
  const fastify = app.getHttpAdapter().getInstance();
  fastify.post(BARE_PATH, async (request) => {
    const body = request.body as {
      category: string;
      userType?: string | null;
      difficultyScore?: number | null;
      positive?: string | null;
      areasForImprovement?: string | null;
    };
    const row = {
      category: body.category,
      userType: body.userType ?? null,
      difficultyScore: body.difficultyScore ?? null,
      positive: body.positive ?? null,
      areasForImprovement: body.areasForImprovement ?? null,
      createdAt: new Date(),
    };
    const result = await repository.insert(row);
    return { id: result.identifiers[0].id, ...row, createdAt: row.createdAt.toISOString() };
  });

  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const reply = (message: ServerMessage) => process.send?.(message);
  reply({ type: 'ready', port, rssKb: Math.round(process.memoryUsage().rss / 1024) });

  // Should the benchmark itself die, the server must not linger.
  process.on('disconnect', () => process.exit(1));
  process.on('message', (message: { type: 'cpu' | 'stop' }) => {
    if (message.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      reply({ type: 'cpu', micros: user + system });
      return;
    }
    // Closing first lets the requests still in flight when autocannon stopped finish, so the
    // counts below include them.
    void app.close().then(() => {
      process.send?.(
        {
          type: 'stats',
          maxRssKb: process.resourceUsage().maxRSS,
          statements: statements.counts,
        } satisfies ServerMessage,
        () => process.exit(0),
      );
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Load side (parent process)
// ---------------------------------------------------------------------------------------------

interface AutocannonResult {
  latency: { p50: number; p99: number; max: number };
  duration: number;
  totalCompletedRequests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration?: number;
  method?: 'POST';
  headers?: Record<string, string>;
  body?: string;
  skipAggregateResult?: boolean;
}
type Autocannon = ((options: AutocannonOptions) => Promise<AutocannonResult>) & {
  aggregateResult(results: AutocannonResult[], options: AutocannonOptions): AutocannonResult;
};
// autocannon ships no type declarations; this is the part of its API used here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as Autocannon;

interface Target {
  kind: 'sqlite' | 'mysql';
  url: string;
  describe: string;
  countRows(): Promise<Record<string, number>>;
  cleanup(): Promise<void>;
}

async function sqliteTarget(): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'flagkeeper-bench-'));
  const file = join(dir, 'bench.sqlite');
  return {
    kind: 'sqlite',
    url: `sqlite:${file}`,
    describe: `SQLite file ${file} (WAL)`,
    countRows: async () => {
      const { default: Database } = await import('better-sqlite3');
      const db = new Database(file, { readonly: true });
      try {
        const rows = db
          .prepare('SELECT category, COUNT(*) AS n FROM feedback GROUP BY category')
          .all() as Array<{ category: string; n: number }>;
        return Object.fromEntries(rows.map((row) => [row.category, Number(row.n)]));
      } finally {
        db.close();
      }
    },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function mysqlTarget(serverUrl: string): Promise<Target> {
  const { createConnection } = await import('mysql2/promise');
  const url = new URL(serverUrl.replace(/^mariadb:/, 'mysql:'));
  const database = decodeURIComponent(url.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(database)) {
    throw new Error('BENCH_DATABASE_URL must name a database (letters, digits, _) to recreate');
  }
  const connect = (withDatabase: boolean) =>
    createConnection({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      ...(withDatabase ? { database } : {}),
    });
  const admin = await connect(false);
  await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
  const [version] = (await admin.query('SELECT VERSION() AS v')) as unknown as [
    Array<{ v: string }>,
  ];
  await admin.query(createDatabaseSql(database, version[0].v));
  await admin.end();
  return {
    kind: 'mysql',
    url: serverUrl,
    describe: `MySQL ${version[0].v} at ${url.host}, database ${database} (recreated)`,
    countRows: async () => {
      const conn = await connect(true);
      try {
        const [rows] = (await conn.query(
          'SELECT category, COUNT(*) AS n FROM feedback GROUP BY category',
        )) as unknown as [Array<{ category: string; n: number | string }>];
        return Object.fromEntries(rows.map((row) => [row.category, Number(row.n)]));
      } finally {
        await conn.end();
      }
    },
    cleanup: async () => {},
  };
}

class Server {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly rssAtStartKb: number,
  ) {}

  static start(target: Target, logFile: string): Promise<Server> {
    const out = openSync(logFile, 'w');
    const child = fork(__filename, ['--server', target.url], {
      execArgv: [
        '-r',
        'ts-node/register/transpile-only',
        ...(process.env.BENCH_CPU_PROFILE_DIR
          ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE_DIR}`]
          : []),
      ],
      env: { ...process.env, BENCH_TOKEN: TOKEN },
      // The server's JSON log goes to a file, as it would to a log collector; not to this terminal.
      stdio: ['ignore', out, 'inherit', 'ipc'],
    });
    closeSync(out);
    return new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the server exited during start (${code})`)));
      child.once('message', (message: ServerMessage) => {
        if (message.type === 'ready') resolve(new Server(child, message.port, message.rssKb));
      });
    });
  }

  private ask<T extends ServerMessage['type']>(
    request: 'cpu' | 'stop',
    answer: T,
  ): Promise<Extract<ServerMessage, { type: T }>> {
    return new Promise((resolve) => {
      const listener = (message: ServerMessage) => {
        if (message.type !== answer) return;
        this.child.off('message', listener);
        resolve(message as Extract<ServerMessage, { type: T }>);
      };
      this.child.on('message', listener);
      this.child.send({ type: request });
    });
  }

  /** CPU time (user + system) the server process has used so far, in microseconds. */
  async cpuMicros(): Promise<number> {
    return (await this.ask('cpu', 'cpu')).micros;
  }

  async stop(): Promise<Extract<ServerMessage, { type: 'stats' }>> {
    this.child.removeAllListeners('exit');
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    const stats = await Promise.race([
      this.ask('stop', 'stats'),
      exited.then(() => Promise.reject(new Error('the server exited before reporting'))),
    ]);
    await exited;
    return stats;
  }
}

interface Route {
  label: string;
  path: string;
  category: string;
  slices: AutocannonResult[];
  cpuMicros: number;
}

function load(port: number, path: string, category: string, seconds: number) {
  return autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'content-type': 'application/json', authorization: TOKEN },
    body: bodyFor(category),
    skipAggregateResult: true,
  });
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  ok: number;
  non2xx: number;
  errors: number;
  cpuPerRequest: number;
  slices: number[];
}

function figures(route: Route, port: number): Figures {
  const all = autocannon.aggregateResult(route.slices, {
    url: `http://127.0.0.1:${port}${route.path}`,
    connections: CONNECTIONS,
  });
  const rate = (r: AutocannonResult) => r.totalCompletedRequests / r.duration;
  const seconds = route.slices.reduce((sum, r) => sum + r.duration, 0);
  return {
    rps: route.slices.reduce((sum, r) => sum + r.totalCompletedRequests, 0) / seconds,
    p50: all.latency.p50,
    p99: all.latency.p99,
    max: all.latency.max,
    ok: all['2xx'],
    non2xx: all.non2xx,
    errors: all.errors + all.timeouts,
    cpuPerRequest: route.cpuMicros / Math.max(1, all['2xx']),
    slices: route.slices.map(rate),
  };
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

const COLUMNS: Array<[string, number]> = [
  ['route', 30],
  ['req/s', 7],
  ['(slices min–max)', 17],
  ['p50 ms', 7],
  ['p99 ms', 7],
  ['max ms', 7],
  ['2xx', 8],
  ['non-2xx', 8],
  ['errors', 7],
  ['CPU µs/req', 11],
];

function line(cells: string[]): string {
  return cells
    .map((cell, i) => (i === 0 ? cell.padEnd(COLUMNS[i][1]) : cell.padStart(COLUMNS[i][1])))
    .join(' ');
}

async function benchmark(target: Target): Promise<boolean> {
  const logDir = mkdtempSync(join(tmpdir(), 'flagkeeper-bench-log-'));
  const logFile = join(logDir, 'server.log');
  console.log(`\n== ${target.kind}: ${target.describe}`);
  const server = await Server.start(target, logFile);
  const acknowledged: Record<string, number> = {};
  const acknowledge = (category: string, r: AutocannonResult) =>
    (acknowledged[category] = (acknowledged[category] ?? 0) + r['2xx']);

  const ours: Route = {
    label: 'POST /feedback (ours)',
    path: '/feedback',
    category: 'bench-api',
    slices: [],
    cpuMicros: 0,
  };
  const bare: Route = {
    label: `POST ${BARE_PATH}`,
    path: BARE_PATH,
    category: 'bench-bare',
    slices: [],
    cpuMicros: 0,
  };

  // Warm-up: JIT, connection pools, the token cache; its rows are checked like the others.
  for (const route of [ours, bare]) {
    const category = `${route.category}-warmup`;
    acknowledge(category, await load(server.port, route.path, category, WARMUP_SECONDS));
  }

  console.log(
    `load average before the measured runs: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const order = Array.from({ length: SLICES }, (_, i) =>
    i % 2 === 0 ? [ours, bare] : [bare, ours],
  );
  for (const route of order.flat()) {
    const before = await server.cpuMicros();
    const result = await load(server.port, route.path, route.category, DURATION / SLICES);
    route.cpuMicros += (await server.cpuMicros()) - before;
    route.slices.push(result);
    acknowledge(route.category, result);
  }
  const loadAfter = loadavg();

  const stats = await server.stop();
  const stored = await target.countRows();
  const logLines = readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"request completed"')).length;
  rmSync(logDir, { recursive: true, force: true });

  const a = figures(ours, server.port);
  const b = figures(bare, server.port);
  console.log(line(COLUMNS.map(([name]) => name)));
  for (const [route, f] of [
    [ours, a],
    [bare, b],
  ] as const) {
    console.log(
      line([
        route.label,
        fmt(f.rps),
        `${fmt(Math.min(...f.slices))}–${fmt(Math.max(...f.slices))}`,
        fmt(f.p50),
        fmt(f.p99),
        fmt(f.max),
        fmt(f.ok),
        fmt(f.non2xx),
        fmt(f.errors),
        fmt(f.cpuPerRequest),
      ]),
    );
  }
  const overhead = 1 - a.rps / b.rps;
  console.log(
    `our layers (Nest routing, guard, validation pipe, controller, service mapping) cost ` +
      `${(overhead * 100).toFixed(1)}% of the bare route's throughput; ` +
      `server CPU per request ${fmt(a.cpuPerRequest)} vs ${fmt(b.cpuPerRequest)} µs ` +
      `(+${fmt(a.cpuPerRequest - b.cpuPerRequest)} µs, +${(((a.cpuPerRequest - b.cpuPerRequest) / b.cpuPerRequest) * 100).toFixed(0)}%)`,
  );
  console.log(
    `load average after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')} (this machine has ${cpus().length} cores)`,
  );

  const clean = a.errors + a.non2xx === 0;
  const checks: Array<[string, boolean]> = [
    [`≥ ${fmt(TARGET_RPS)} req/s`, a.rps >= TARGET_RPS],
    [`p99 < ${TARGET_P99_MS} ms`, a.p99 < TARGET_P99_MS],
    ['no errors or non-2xx', clean],
    [`our layers ≤ ${TARGET_OVERHEAD * 100}% of the bare route`, overhead <= TARGET_OVERHEAD],
  ];
  console.log(
    `targets: ${checks.map(([name, ok]) => `${name}: ${ok ? 'met' : 'MISSED'}`).join('; ')}`,
  );

  let lost = 0;
  const perCategory = Object.keys(acknowledged).map((category) => {
    const have = stored[category] ?? 0;
    if (have < acknowledged[category]) lost += acknowledged[category] - have;
    return `${category} ${fmt(acknowledged[category])}/${fmt(have)}`;
  });
  const sum = (values: number[]) => values.reduce((x, y) => x + y, 0);
  console.log(
    `acknowledged (2xx) vs stored rows: ${fmt(sum(Object.values(acknowledged)))} vs ` +
      `${fmt(sum(Object.values(stored)))} (${perCategory.join(', ')}) → ` +
      (lost === 0
        ? 'every acknowledged POST is stored (extra rows: requests in flight when a run stopped)'
        : `${fmt(lost)} ACKNOWLEDGED POSTS ARE MISSING`),
  );
  console.log(
    `SQL statements over the whole life of the server: ${Object.entries(stats.statements)
      .map(([kind, n]) => `${kind} ${fmt(n)}`)
      .join(', ')}`,
  );
  console.log(
    `server: RSS ${fmt(server.rssAtStartKb / 1024)} MB after start, peak ${fmt(stats.maxRssKb / 1024)} MB ` +
      `(run through ts-node, whose compiler is part of it); request log lines written: ${fmt(logLines)}`,
  );
  await target.cleanup();
  return lost === 0 && clean && b.errors + b.non2xx === 0;
}

async function main(): Promise<void> {
  console.log(
    `Feedback benchmark: ${CONNECTIONS} connections, ${DURATION} s per route (${SLICES} slices, after a ` +
      `${WARMUP_SECONDS} s warm-up), server LOG_LEVEL=${LOG_LEVEL}` +
      (LOG_LEVEL === 'info' ? ' (one JSON request line per request, written to a file)' : ''),
  );
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}; ` +
      'the server (a child process) and autocannon (this process) share it',
  );
  const only = process.env.BENCH_ONLY;
  const targets: Array<() => Promise<Target>> = [];
  if (only !== 'mysql') targets.push(sqliteTarget);
  const mysqlUrl = process.env.BENCH_DATABASE_URL;
  if (mysqlUrl && only !== 'sqlite') targets.push(() => mysqlTarget(mysqlUrl));
  else if (!mysqlUrl) console.log('(set BENCH_DATABASE_URL to also run on MySQL/MariaDB)');

  let ok = true;
  for (const make of targets) ok = (await benchmark(await make())) && ok;
  if (!ok) {
    console.error('\nFAILED: acknowledged rows are missing, or a measured run had errors');
    process.exit(1);
  }
}

if (process.argv[2] === '--server') {
  runServer(process.argv[3]).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
