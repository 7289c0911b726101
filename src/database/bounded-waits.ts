import type { DataSource } from 'typeorm';

/**
 * How long a request may wait on MySQL/MariaDB before it answers 503 (docs/decisions-galera.md,
 * "Bounded waits"). A request waits at most ACQUIRE_TIMEOUT_MS for a pooled connection and
 * QUERY_TIMEOUT_MS for each statement; a new connection gives up after CONNECT_TIMEOUT_MS (in
 * database-options.ts; a connection made for an acquire counts against ACQUIRE). The first wait to
 * run out fails the request, so it answers within about ACQUIRE + QUERY = 4.5 s whatever the
 * stall. QUERY is the larger share because a legitimate statement can be slow: inserting the
 * 66,000 names of a 2 MiB export selection takes a second or more on a busy machine. A statement
 * that runs longer than QUERY is cut and answered 503 too; that is the price of the bound.
 */
export const CONNECT_TIMEOUT_MS = 2000;
export const ACQUIRE_TIMEOUT_MS = 1000;
export const QUERY_TIMEOUT_MS = 3500;

/** mysql2's code for a query timeout; database-errors.ts maps it to 503. */
const QUERY_TIMEOUT_CODE = 'PROTOCOL_SEQUENCE_TIMEOUT';

type Callback = (error: (Error & { code?: string }) | null, ...rest: unknown[]) => void;

/** The parts of a mysql2 pool connection this file touches. */
interface PoolConnection {
  query(...args: unknown[]): unknown;
  release(): void;
  destroy(): void;
}

interface MysqlDriverInternals {
  obtainMasterConnection(): Promise<PoolConnection>;
  obtainSlaveConnection(): Promise<PoolConnection>;
}

const bounded = new WeakSet<PoolConnection>();

class AcquireTimeoutError extends Error {
  // The same code as a connect timeout, so database-errors.ts maps it to 503.
  readonly code = 'ETIMEDOUT';
  constructor() {
    super(`No database connection became free within ${ACQUIRE_TIMEOUT_MS} ms`);
  }
}

/**
 * Gives every statement on this connection a client-side timeout. A timed-out connection is
 * destroyed rather than returned to the pool: mysql2 keeps the unanswered statement queued on it,
 * so the next request would wait behind it, and after a stall its answer could arrive at any time.
 */
function boundQueries(connection: PoolConnection): PoolConnection {
  if (bounded.has(connection)) return connection;
  bounded.add(connection);
  const query = connection.query.bind(connection);
  connection.query = (...args: unknown[]) => {
    const [sql] = args;
    if (typeof sql === 'string') args[0] = { sql, timeout: QUERY_TIMEOUT_MS };
    else if (sql && typeof sql === 'object' && !('timeout' in sql))
      args[0] = { ...sql, timeout: QUERY_TIMEOUT_MS };
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as Callback;
      args[last] = (error: Parameters<Callback>[0], ...rest: unknown[]) => {
        if (error?.code === QUERY_TIMEOUT_CODE) connection.destroy();
        callback(error, ...rest);
      };
    }
    return query(...args);
  };
  return connection;
}

/** Waits for a pooled connection no longer than ACQUIRE_TIMEOUT_MS; one that comes later goes back. */
async function acquireWithin(obtain: () => Promise<PoolConnection>): Promise<PoolConnection> {
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const pending = obtain();
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new AcquireTimeoutError());
    }, ACQUIRE_TIMEOUT_MS);
  });
  pending.then(
    (connection) => {
      if (timedOut) connection.release();
    },
    () => undefined,
  );
  try {
    return boundQueries(await Promise.race([pending, timeout]));
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Bounds every wait on a MySQL/MariaDB data source: pool acquire and each statement (rules of
 * issue 13, D6). TypeORM's mysql driver has no acquire timeout (mysql2's pool ignores one), and its
 * query timeout option would also cut long migration statements; so this is installed on the
 * driver once the migrations have run, and request traffic only is bounded.
 */
export function boundDatabaseWaits(dataSource: DataSource): void {
  if (dataSource.options.type !== 'mysql' && dataSource.options.type !== 'mariadb') return;
  const driver = dataSource.driver as unknown as MysqlDriverInternals;
  const master = driver.obtainMasterConnection.bind(driver);
  const slave = driver.obtainSlaveConnection.bind(driver);
  driver.obtainMasterConnection = () => acquireWithin(master);
  driver.obtainSlaveConnection = () => acquireWithin(slave);
}
