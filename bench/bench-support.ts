import { readdirSync, readFileSync } from 'node:fs';
import type { RowDataPacket } from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import type { BulkFeatures } from '../test/fixtures/bulk-features';
import { createDatabaseSql } from '../src/database/sql-dialect';

/** Pieces every benchmark of the second wave shares: the figures and a fresh MySQL database. */

/** The p-th percentile (nearest rank) of the values. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Drops and recreates the database named in the URL (or `fallbackName` when it names none), with
 * the no-pad binary collation of the migrations; returns the URL unchanged.
 */
export async function freshMysqlDatabase(serverUrl: string, fallbackName: string): Promise<string> {
  const { createConnection } = await import('mysql2/promise');
  const url = new URL(serverUrl.replace(/^mariadb:/, 'mysql:'));
  const database = decodeURIComponent(url.pathname.slice(1)) || fallbackName;
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

/**
 * Lets the database finish the work that writes leave behind before the next run is timed: on
 * SQLite a WAL checkpoint; on MySQL, InnoDB's purge of delete-marked rows and the flushing of
 * the pages they dirtied. Left running in the background after a deleted clone (50,000 rows),
 * they slowed the next clone down by half again or more (measured).
 */
export async function settle(kind: 'sqlite' | 'mysql', dataSource: DataSource): Promise<void> {
  if (kind === 'sqlite') {
    await dataSource.query('PRAGMA wal_checkpoint(TRUNCATE)');
    return;
  }
  const pause = () => new Promise((resolve) => setTimeout(resolve, 500));
  const historyLength = async () => {
    const [row] = (await dataSource.query(
      "SELECT `COUNT` AS n FROM information_schema.INNODB_METRICS WHERE NAME = 'trx_rseg_history_len'",
    )) as Array<{ n: unknown }>;
    return Number(row?.n ?? 0);
  };
  const dirtyPages = async () => {
    const [row] = (await dataSource.query(
      "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'",
    )) as Array<{ Value: unknown }>;
    return Number(row?.Value ?? 0);
  };
  // Other clients of the server (tests running alongside) keep both figures moving a little, so
  // the wait is for "purged" and "no longer falling", with a time limit.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && (await historyLength()) >= 100) await pause();
  let dirty = await dirtyPages();
  while (Date.now() < deadline) {
    await pause();
    const now = await dirtyPages();
    if (now >= dirty) break;
    dirty = now;
  }
}

/**
 * The bulk fixture as the export, search and import benchmarks fill it (the data of their
 * figures): `development` and `production` linked, two strategies each in `development` with the
 * context field `region` and the segments round-robin, tags of `simple` and `team`, every tenth
 * feature depending on the one before.
 */
export function benchFeatures(
  project: string,
  prefix: string,
  count: number,
  segmentIds: number[],
): BulkFeatures {
  return {
    project,
    prefix,
    count,
    environments: ['development', 'production'],
    strategyEnvironment: 'development',
    segmentIds,
    contextField: 'region',
    tagTypes: ['simple', 'team'],
    dependencyEvery: 10,
  };
}

/**
 * CPU time (ns) of each thread of the local mariadbd/mysqld, read from /proc, or null when the
 * server is not on this machine or not readable. On a loaded machine the wall time of a request is
 * mostly waiting for a core; the CPU time of the server thread that ran it is the steadier figure.
 * The busiest thread during a request is its connection's (the other clients of a shared server
 * may make it another thread; the figure is labelled as the busiest thread's).
 */
export function serverThreadCpu(pid: string | null): Map<string, number> | null {
  if (!pid) return null;
  try {
    const cpu = new Map<string, number>();
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        const [ns] = readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ');
        cpu.set(task, Number(ns));
      } catch {
        // The thread ended meanwhile.
      }
    }
    return cpu;
  } catch {
    return null;
  }
}

/** The process id of the server behind `dataSource`, from its pid file, if it is on this machine. */
export async function serverPid(dataSource: DataSource): Promise<string | null> {
  try {
    const [row] = (await dataSource.query('SELECT @@pid_file AS f')) as Array<{ f: string }>;
    const pid = readFileSync(row.f, 'utf8').trim();
    return /^\d+$/.test(pid) ? pid : null;
  } catch {
    return null;
  }
}

export function busiestThreadMs(
  before: Map<string, number> | null,
  after: Map<string, number> | null,
) {
  if (!before || !after) return undefined;
  let most = 0;
  // A thread that started during the request (a new pooled connection) counts from zero.
  for (const [task, ns] of after) most = Math.max(most, ns - (before.get(task) ?? 0));
  return most / 1e6;
}
