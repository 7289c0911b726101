import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { isTransientConflict } from '../common/database-errors';
import { ServiceUnavailableError } from '../common/errors';

/**
 * How often a transient conflict is tried in all, and the longest pause between two tries.
 * Eight tries: ten writes to one row sent at once through two Galera nodes (the claimed rows of
 * docs/decisions-galera.md) needed up to six under load, since every commit on one node aborts
 * the transaction holding that row on the other; five answered some of them 503.
 */
export const RETRY_POLICY = { attempts: 8, baseDelayMs: 10, maxDelayMs: 250 } as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Full jitter (a random pause up to an exponentially growing cap), so that the transactions
 * that just collided do not collide again in lock step.
 */
function backoff(failedAttempts: number): number {
  const cap = Math.min(
    RETRY_POLICY.maxDelayMs,
    RETRY_POLICY.baseDelayMs * 2 ** (failedAttempts - 1),
  );
  return Math.random() * cap;
}

/**
 * Runs `work` again while it fails with a transient conflict (deadlock, lock wait timeout, Galera
 * certification failure, SQLITE_BUSY), at most RETRY_POLICY.attempts times. A conflict that
 * outlasts the retries becomes a 503: the request was sound, the database was too busy. Any
 * other error (a real conflict such as a unique violation, a 4xx thrown by the work) passes
 * through at once.
 */
export async function retryTransient<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isTransientConflict(error)) throw error;
      if (attempt >= RETRY_POLICY.attempts) {
        throw new ServiceUnavailableError(
          'The database is busy with conflicting changes; try again shortly',
        );
      }
      await sleep(backoff(attempt));
    }
  }
}

/**
 * The one place where transient conflicts are retried, so that no service needs to know about
 * them: every `dataSource.transaction(...)` (and `manager.transaction`) reruns its whole callback
 * on a transient conflict, and a statement sent outside a transaction is resent. A statement
 * inside a transaction is never resent on its own, since the database has rolled the transaction
 * back (deadlock, certification failure) or left it in an unknown state (lock wait timeout); the
 * transaction is retried as a whole instead. A transaction's callback must therefore have no side
 * effects outside the database, which holds for every callback in this code base.
 *
 * Install it after serializeSqliteTransactions, so that a retry waits outside SQLite's lock.
 */
export function retryTransientConflicts(dataSource: DataSource): void {
  const inTransaction = new AsyncLocalStorage<true>();
  const manager = dataSource.manager;
  const originalTransaction = manager.transaction.bind(manager) as (
    ...args: unknown[]
  ) => Promise<unknown>;
  (manager as { transaction: EntityManager['transaction'] }).transaction = ((
    ...args: unknown[]
  ) => {
    // A transaction opened inside another is retried with the outer one, as a whole.
    if (inTransaction.getStore()) return originalTransaction(...args);
    return retryTransient(() => inTransaction.run(true, () => originalTransaction(...args)));
  }) as EntityManager['transaction'];

  const driver = dataSource.driver as unknown as { createQueryRunner(mode: string): QueryRunner };
  const originalCreate = driver.createQueryRunner.bind(driver);
  const patched = new WeakSet<QueryRunner>();
  driver.createQueryRunner = (mode: string) => {
    const runner = originalCreate(mode);
    if (!patched.has(runner)) {
      patched.add(runner);
      const originalQuery = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
      (runner as { query: unknown }).query = (...args: unknown[]) =>
        runner.isTransactionActive || inTransaction.getStore()
          ? originalQuery(...args)
          : retryTransient(() => originalQuery(...args));
    }
    return runner;
  };
}
