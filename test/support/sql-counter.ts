import type { Logger } from 'typeorm';

/**
 * The auth version read (AuthVersion in src/auth): sent at most every 200 ms by whichever request
 * comes along, so whether it falls inside a measured request depends on the clock, not on the
 * request. Left out of the counts.
 */
const PERIODIC_READ = /^SELECT version FROM auth_version WHERE id = 1$/;

/** A TypeORM logger that counts the SQL statements sent, so tests can show a count is fixed. */
export class SqlCounter implements Logger {
  count = 0;
  statements: string[] = [];
  private recording = false;

  /** Counts the statements that `action` sends. */
  async measure<T>(
    action: () => Promise<T>,
  ): Promise<{ result: T; count: number; statements: string[] }> {
    this.count = 0;
    this.statements = [];
    this.recording = true;
    try {
      const result = await action();
      return { result, count: this.count, statements: [...this.statements] };
    } finally {
      this.recording = false;
    }
  }

  logQuery(query: string): void {
    if (!this.recording || PERIODIC_READ.test(query)) return;
    this.count += 1;
    this.statements.push(query);
  }

  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}
