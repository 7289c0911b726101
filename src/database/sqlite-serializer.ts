import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

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
 * TypeORM's better-sqlite3 driver sends every query through one shared connection and one shared
 * query runner. Two requests that open transactions at the same time would therefore interleave
 * inside one SQLite transaction (the second BEGIN becoming a SAVEPOINT of the first). This makes
 * SQLite behave like a database with real transactions: a transaction holds a process-wide lock
 * from BEGIN to COMMIT/ROLLBACK, and every other query waits for it. (SQLite is single-process by
 * nature, so an in-process lock is the right scope; MySQL is not touched.)
 */
export function serializeSqliteTransactions(dataSource: DataSource): void {
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
