/**
 * Flagkeeper beside Unleash on the same data: `npm run bench:peer` (issue 15).
 *
 * Both servers must already run and hold the same data: `../shared/peer/run-unleash.sh` starts
 * Unleash 7.5.1, and `../shared/peer/populate.mjs URL TOKEN N`, run unchanged against each
 * server, fills both alike. This script only measures, over HTTP with `fetch`, time until the
 * last byte of the body:
 *
 * - export: `POST /api/admin/features-batch/export {environment, project}`
 * - list:   `GET /api/admin/projects/:project/features`
 * - one feature: `GET /api/admin/projects/:project/features/:name`
 *
 * Interleaved: in each round every request goes to both servers one after the other, and the
 * server that goes first alternates from round to round, so that a burst of load elsewhere on
 * the machine falls on both. It prints each round, then per request the median of each server,
 * the median and range of the per-round ratios (Flagkeeper / Unleash), the response sizes, the
 * load average before and after, and (with the PIDs given) each server's peak RSS (VmHWM).
 *
 * Environment (defaults in brackets):
 *   FLAGKEEPER_URL [http://127.0.0.1:3000], FLAGKEEPER_TOKEN (required)
 *   UNLEASH_URL [http://127.0.0.1:4242], UNLEASH_TOKEN [*:*.unleash-peer-admin-secret]
 *   PEER_PROJECT [default], PEER_ENVIRONMENT [development], PEER_FEATURE [peer-flag-00000]
 *   PEER_ROUNDS [10], PEER_WARMUP [2]
 *   FLAGKEEPER_PID, UNLEASH_PID  optional: read their /proc/<pid>/status for the peak RSS
 *
 * Exit status 1 when a request answers anything but 200 or the two servers' documents do not hold
 * the same number of features. Figures are printed, never judged: on a shared machine they move
 * with its load (see docs/benchmarks.md).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

interface Server {
  label: 'flagkeeper' | 'unleash';
  url: string;
  token: string;
  pid?: string;
}

interface Work {
  name: string;
  /** The request, and the count of features its answer holds (to check both hold the same). */
  send: (server: Server) => Promise<{ ms: number; bytes: number; features: number }>;
}

const env = process.env;
const PROJECT = env.PEER_PROJECT ?? 'default';
const ENVIRONMENT = env.PEER_ENVIRONMENT ?? 'development';
const FEATURE = env.PEER_FEATURE ?? 'peer-flag-00000';
const ROUNDS = Number(env.PEER_ROUNDS ?? 10);
const WARMUP = Number(env.PEER_WARMUP ?? 2);

function server(label: Server['label'], url: string, token: string | undefined, pid?: string) {
  if (!token) throw new Error(`${label.toUpperCase()}_TOKEN is required`);
  return { label, url: url.replace(/\/+$/, ''), token, pid };
}

async function timed(
  target: Server,
  method: 'GET' | 'POST',
  path: string,
  body?: object,
): Promise<{ ms: number; bytes: number; json: unknown }> {
  const started = process.hrtime.bigint();
  const res = await fetch(target.url + path, {
    method,
    headers: {
      Authorization: target.token,
      Accept: 'application/json',
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 200) {
    throw new Error(
      `${target.label} ${method} ${path}: ${res.status} ${bytes.toString('utf8', 0, 300)}`,
    );
  }
  // Parsed after the clock stops: the client's parsing is not the server's time.
  return { ms, bytes: bytes.length, json: JSON.parse(bytes.toString('utf8')) as unknown };
}

const project = encodeURIComponent(PROJECT);

const WORKS: Work[] = [
  {
    name: 'export',
    send: async (target) => {
      const r = await timed(target, 'POST', '/api/admin/features-batch/export', {
        environment: ENVIRONMENT,
        project: PROJECT,
      });
      return {
        ms: r.ms,
        bytes: r.bytes,
        features: (r.json as { features: unknown[] }).features.length,
      };
    },
  },
  {
    name: 'list',
    send: async (target) => {
      const r = await timed(target, 'GET', `/api/admin/projects/${project}/features`);
      return {
        ms: r.ms,
        bytes: r.bytes,
        features: (r.json as { features: unknown[] }).features.length,
      };
    },
  },
  {
    name: 'one feature',
    send: async (target) => {
      const r = await timed(
        target,
        'GET',
        `/api/admin/projects/${project}/features/${encodeURIComponent(FEATURE)}`,
      );
      return { ms: r.ms, bytes: r.bytes, features: 1 };
    },
  },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function peakRss(pid: string | undefined): string {
  if (!pid) return 'n/a (no PID given)';
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    const rss = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return `peak ${(Number(hwm) / 1024).toFixed(0)} MiB, now ${(Number(rss) / 1024).toFixed(0)} MiB`;
  } catch {
    return `n/a (cannot read /proc/${pid}/status)`;
  }
}

const size = (bytes: number) =>
  bytes >= 1e5 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(1)} kB`;

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const flagkeeper = server(
    'flagkeeper',
    env.FLAGKEEPER_URL ?? 'http://127.0.0.1:3000',
    env.FLAGKEEPER_TOKEN,
    env.FLAGKEEPER_PID,
  );
  const unleash = server(
    'unleash',
    env.UNLEASH_URL ?? 'http://127.0.0.1:4242',
    env.UNLEASH_TOKEN ?? '*:*.unleash-peer-admin-secret',
    env.UNLEASH_PID,
  );
  const loadBefore = load();
  console.log(
    `Peer benchmark: project ${PROJECT}, environment ${ENVIRONMENT}, feature ${FEATURE}; ` +
      `${WARMUP} warm-up and ${ROUNDS} measured rounds; load average ${loadBefore}`,
  );

  let failed = false;
  for (const work of WORKS) {
    for (let i = 0; i < WARMUP; i += 1) {
      await work.send(flagkeeper);
      await work.send(unleash);
    }
    const times: Record<Server['label'], number[]> = { flagkeeper: [], unleash: [] };
    const ratios: number[] = [];
    const bytes: Record<Server['label'], number> = { flagkeeper: 0, unleash: 0 };
    console.log(`\n${work.name}`);
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? [flagkeeper, unleash] : [unleash, flagkeeper];
      const results: Partial<
        Record<Server['label'], { ms: number; bytes: number; features: number }>
      > = {};
      for (const target of order) results[target.label] = await work.send(target);
      const fk = results.flagkeeper as { ms: number; bytes: number; features: number };
      const un = results.unleash as { ms: number; bytes: number; features: number };
      if (fk.features !== un.features) {
        console.log(`  features differ: flagkeeper ${fk.features}, unleash ${un.features}`);
        failed = true;
      }
      times.flagkeeper.push(fk.ms);
      times.unleash.push(un.ms);
      bytes.flagkeeper = fk.bytes;
      bytes.unleash = un.bytes;
      ratios.push(fk.ms / un.ms);
      console.log(
        `  round ${round + 1}: flagkeeper ${fk.ms.toFixed(1)} ms, unleash ${un.ms.toFixed(1)} ms, ` +
          `ratio ${(fk.ms / un.ms).toFixed(2)}×`,
      );
    }
    console.log(
      `  median: flagkeeper ${median(times.flagkeeper).toFixed(1)} ms, unleash ` +
        `${median(times.unleash).toFixed(1)} ms; median per-round ratio ` +
        `${median(ratios).toFixed(2)}× (range ${Math.min(...ratios).toFixed(2)}–` +
        `${Math.max(...ratios).toFixed(2)}×); response flagkeeper ${size(bytes.flagkeeper)}, ` +
        `unleash ${size(bytes.unleash)}`,
    );
  }
  console.log(`\nload average before ${loadBefore}, after ${load()}`);
  console.log(`flagkeeper RSS: ${peakRss(flagkeeper.pid)}`);
  console.log(`unleash RSS: ${peakRss(unleash.pid)}`);
  if (failed) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
