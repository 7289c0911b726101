import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { DataSource, QueryRunner } from 'typeorm';

/**
 * Migrations run under a database-wide lock, so that replicas starting at once on an empty
 * database all come up on the first try: one migrates, the others wait and then find nothing to do
 * (issue 13, D17; docs/decisions-galera.md, "Migrations on several replicas").
 *
 * - MySQL/MariaDB: GET_LOCK, held by one connection for the whole run; the server frees it when
 *   that connection dies, so a crashed replica never leaves it behind.
 * - Galera: GET_LOCK is local to one node, so two replicas on two nodes would both hold it. There,
 *   the lock is a row: every node sees it, and two inserts of it at once are a certification
 *   conflict (or a duplicate key), never two winners. A row outlives a crashed holder, so it carries
 *   an expiry after which another replica may take it over.
 * - SQLite: a file used by one process; no lock.
 */
const LOCK_NAME = 'flagkeeper_migrations';
/** How long a replica waits for another one's migrations before it gives up starting. */
export const MIGRATION_LOCK_WAIT_S = 600;
/** After this, a lock row left by a replica that died while migrating may be taken over. */
const LOCK_ROW_LEASE_MINUTES = 30;
/** Errors that mean "another replica inserted the lock row first" (duplicate key, Galera conflict). */
const LOCK_TAKEN_CODES = new Set(['ER_DUP_ENTRY', 'ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);

function codeOf(error: unknown): string | undefined {
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function isGalera(runner: QueryRunner): Promise<boolean> {
  const rows: Array<{ Value?: string }> = await runner.query("SHOW VARIABLES LIKE 'wsrep_on'");
  return rows[0]?.Value === 'ON';
}

async function withGetLock(runner: QueryRunner, migrate: () => Promise<void>): Promise<void> {
  const [row]: Array<{ acquired: number | null }> = await runner.query(
    'SELECT GET_LOCK(?, ?) AS acquired',
    [LOCK_NAME, MIGRATION_LOCK_WAIT_S],
  );
  if (Number(row?.acquired) !== 1) {
    throw new Error(`Another replica held the migration lock for ${MIGRATION_LOCK_WAIT_S} s`);
  }
  try {
    await migrate();
  } finally {
    await runner.query('SELECT RELEASE_LOCK(?)', [LOCK_NAME]);
  }
}

async function withLockRow(runner: QueryRunner, migrate: () => Promise<void>): Promise<void> {
  // Not a migration: the lock must exist before the first migration runs. IF NOT EXISTS makes the
  // race harmless (Galera runs DDL in total order on every node).
  await runner.query(
    'CREATE TABLE IF NOT EXISTS migrations_lock (id TINYINT NOT NULL PRIMARY KEY, ' +
      'holder VARCHAR(64) NOT NULL, expires_at DATETIME NOT NULL) ENGINE=InnoDB',
  );
  const holder = `${hostname().slice(0, 40)}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const deadline = Date.now() + MIGRATION_LOCK_WAIT_S * 1000;
  for (;;) {
    await runner.query('DELETE FROM migrations_lock WHERE id = 1 AND expires_at < UTC_TIMESTAMP()');
    try {
      await runner.query(
        'INSERT INTO migrations_lock (id, holder, expires_at) ' +
          `VALUES (1, ?, UTC_TIMESTAMP() + INTERVAL ${LOCK_ROW_LEASE_MINUTES} MINUTE)`,
        [holder],
      );
      break;
    } catch (error) {
      if (!LOCK_TAKEN_CODES.has(codeOf(error) ?? '')) throw error;
    }
    if (Date.now() > deadline) {
      throw new Error(`Another replica held the migration lock for ${MIGRATION_LOCK_WAIT_S} s`);
    }
    // Jitter keeps replicas that lost together from retrying in step.
    await sleep(200 + Math.random() * 300);
  }
  try {
    await migrate();
  } finally {
    await runner.query('DELETE FROM migrations_lock WHERE id = 1 AND holder = ?', [holder]);
  }
}

/** Runs the pending migrations (each in its own transaction) under the lock described above. */
export async function runMigrationsUnderLock(dataSource: DataSource): Promise<void> {
  const migrate = async () => {
    await dataSource.runMigrations({ transaction: 'each' });
  };
  if (dataSource.options.type !== 'mysql' && dataSource.options.type !== 'mariadb') {
    return migrate();
  }
  // One connection holds the lock for the whole run; the migrations use connections of their own.
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await ((await isGalera(runner)) ? withLockRow : withGetLock)(runner, migrate);
  } finally {
    await runner.release();
  }
}
