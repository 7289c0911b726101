import { parseJson } from './json-column';

/**
 * Raw query results differ between mysql2 and better-sqlite3 (counts as strings, datetimes as
 * strings or Dates, booleans as 0/1). These converters are the one place that evens them out.
 */
export function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(value ?? 0);
}

export function toNullableNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : toNumber(value);
}

export function toBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** SQLite returns `YYYY-MM-DD HH:MM:SS.SSS` (UTC); mysql2 returns a Date (timezone Z). */
export function toDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  const text = String(value);
  return new Date(/[zZ]|[+-]\d\d:\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
}

export function toIso(value: unknown): string | null {
  return toDate(value)?.toISOString() ?? null;
}

export { parseJson };

/**
 * A timestamp as a raw-query parameter: `YYYY-MM-DD HH:MM:SS.mmm` in UTC, which both databases
 * store as is (better-sqlite3 cannot bind a Date; mysql2 runs with timezone Z).
 */
export function sqlTimestamp(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

/** `?, ?, ?`: one placeholder per value, for `IN (...)` lists. */
export function placeholders(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}
