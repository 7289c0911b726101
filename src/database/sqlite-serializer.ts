import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/** What the patch relies on in TypeORM, or undefined when all of it holds. */
export function brokenAssumption(dataSource: DataSource): string | undefined {
  const driver = dataSource.driver as unknown as { createQueryRunner?(mode: string): QueryRunner };
  if (typeof dataSource.manager.transaction !== 'function')
    return 'EntityManager.transaction is gone';
  if (typeof driver.createQueryRunner !== 'function') return 'the driver has no createQueryRunner';
  const runner = driver.createQueryRunner('master');
  if (typeof runner.query !== 'function') return 'the query runner has no query method';
  if (driver.createQueryRunner('master') !== runner) {
    return 'the driver no longer shares one query runner (it may serialise by itself now)';
  }
  return undefined;
}

/** A FIFO async mutex. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();

  async acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => held);
    await previous;
    return release;
  }
}

/**
 * Why this patches TypeORM instead of using a supported API: there is none. TypeORM 1.1's
 * better-sqlite3 driver hands the same query runner to every caller (no pool, no second
 * connection), so neither a queue around `dataSource.transaction` (plain queries of other requests
 * would still run inside an open transaction, and roll back with it) nor a dedicated query runner
 * is possible. The patch therefore stays, here only, and `sqlite-serializer.spec.ts` fails when a
 * TypeORM upgrade changes what it relies on: one shared runner, `EntityManager.transaction`, and
 * `QueryRunner.query`. `assumptionsHold` checks the same at start.
 *
 * TypeORM's better-sqlite3 driver sends every query through one shared connection and one shared
 * query runner. Two requests that open transactions at the same time would therefore interleave
 * inside one SQLite transaction (the second BEGIN becoming a SAVEPOINT of the first). This makes
 * SQLite behave like a database with real transactions: a transaction holds a process-wide lock
 * from BEGIN to COMMIT/ROLLBACK, and every other query waits for it. (SQLite is single-process by
 * nature, so an in-process lock is the right scope; MySQL is not touched.)
 */
export function serializeSqliteTransactions(dataSource: DataSource): void {
  const broken = brokenAssumption(dataSource);
  if (broken) {
    throw new Error(
      `serializeSqliteTransactions: ${broken}; revisit src/database/sqlite-serializer.ts`,
    );
  }
  const mutex = new Mutex();
  const inTransaction = new AsyncLocalStorage<true>();
  const manager = dataSource.manager;
  const originalTransaction = manager.transaction.bind(manager) as (
    ...args: unknown[]
  ) => Promise<unknown>;

  (manager as { transaction: EntityManager['transaction'] }).transaction = (async (
    ...args: unknown[]
  ) => {
    if (inTransaction.getStore()) return originalTransaction(...args);
    const release = await mutex.acquire();
    try {
      return await inTransaction.run(true, () => originalTransaction(...args));
    } finally {
      release();
    }
  }) as EntityManager['transaction'];

  const driver = dataSource.driver as unknown as { createQueryRunner(mode: string): QueryRunner };
  const originalCreate = driver.createQueryRunner.bind(driver);
  const patched = new WeakSet<QueryRunner>();
  driver.createQueryRunner = (mode: string) => {
    const runner = originalCreate(mode);
    if (!patched.has(runner)) {
      patched.add(runner);
      const originalQuery = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
      (runner as { query: unknown }).query = async (...args: unknown[]) => {
        if (inTransaction.getStore()) return originalQuery(...args);
        const release = await mutex.acquire();
        try {
          return await originalQuery(...args);
        } finally {
          release();
        }
      };
    }
    return runner;
  };
}
