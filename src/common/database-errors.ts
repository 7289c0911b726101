/**
 * Recognises driver errors by their codes, the same way for mysql2 and better-sqlite3, so that
 * services and the filter need not know which database is in use.
 */
function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  const code = e.driverError?.code ?? e.code;
  return typeof code === 'string' ? code : undefined;
}

const UNIQUE_CODES = new Set([
  'ER_DUP_ENTRY',
  'SQLITE_CONSTRAINT_PRIMARYKEY',
  'SQLITE_CONSTRAINT_UNIQUE',
]);
const FOREIGN_KEY_CODES = new Set([
  'ER_NO_REFERENCED_ROW',
  'ER_NO_REFERENCED_ROW_2',
  'ER_ROW_IS_REFERENCED',
  'ER_ROW_IS_REFERENCED_2',
  'SQLITE_CONSTRAINT_FOREIGNKEY',
]);
// Values the DTOs should have refused (a null for a NOT NULL column, a string longer than its
// column, a number out of range): the client's input, so a 400 rather than a 500.
const BAD_VALUE_CODES = new Set([
  'SQLITE_CONSTRAINT_NOTNULL',
  'ER_BAD_NULL_ERROR',
  'ER_DATA_TOO_LONG',
  'ER_WARN_DATA_OUT_OF_RANGE',
  'ER_TRUNCATED_WRONG_VALUE',
  'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD',
]);
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'CR_SERVER_GONE_ERROR',
  'CR_CONNECTION_ERROR',
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
]);

// Conflicts between concurrent transactions that go away when the transaction is run again:
// InnoDB deadlock (1213, also how Galera reports a failed certification) and lock wait timeout
// (1205), and SQLite's busy file (another process holds the write lock past the busy timeout).
const TRANSIENT_CONFLICT_CODES = new Set([
  'ER_LOCK_DEADLOCK',
  'ER_LOCK_WAIT_TIMEOUT',
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_BUSY_RECOVERY',
]);
const TRANSIENT_CONFLICT_ERRNOS = new Set([1213, 1205]);

export function isTransientConflict(error: unknown): boolean {
  if (TRANSIENT_CONFLICT_CODES.has(codeOf(error) ?? '')) return true;
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { errno?: unknown; driverError?: { errno?: unknown } };
  const errno = e.driverError?.errno ?? e.errno;
  if (typeof errno === 'number' && TRANSIENT_CONFLICT_ERRNOS.has(errno)) return true;
  const message = error instanceof Error ? error.message : '';
  return /WSREP detected deadlock\/conflict/i.test(message);
}

export function isUniqueViolation(error: unknown): boolean {
  return UNIQUE_CODES.has(codeOf(error) ?? '');
}

export function isForeignKeyViolation(error: unknown): boolean {
  return FOREIGN_KEY_CODES.has(codeOf(error) ?? '');
}

export function isBadValue(error: unknown): boolean {
  return BAD_VALUE_CODES.has(codeOf(error) ?? '');
}

export function isDatabaseUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (code && UNAVAILABLE_CODES.has(code)) return true;
  // mysql2 reports a closed pool or a dead connection, and better-sqlite3 a closed file, with
  // messages rather than codes.
  const message = error instanceof Error ? error.message : '';
  return /Pool is closed|connection is in closed state|The database connection is not open/i.test(
    message,
  );
}
