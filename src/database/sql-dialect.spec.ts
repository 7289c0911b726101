import { createDatabaseSql, dialectOfServerVersion, jsonRecords, jsonStrings } from './sql-dialect';

// Only MariaDB runs here; the MySQL 8 spelling is pinned by these tests (issue 13, D11).
describe('the no-pad collation of each server flavour', () => {
  it('tells MariaDB from MySQL by SELECT VERSION()', () => {
    expect(dialectOfServerVersion('10.11.19-MariaDB-0+deb12u1')).toBe('mariadb');
    expect(dialectOfServerVersion('11.4.2-MariaDB-log')).toBe('mariadb');
    expect(dialectOfServerVersion('8.4.3')).toBe('mysql8');
    expect(dialectOfServerVersion('8.0.36-standard')).toBe('mysql8');
  });

  it('names the no-pad binary collation, never utf8mb4_bin, in run-time SQL', () => {
    expect(jsonStrings('mariadb')).toContain('COLLATE utf8mb4_nopad_bin PATH');
    expect(jsonStrings('mysql8')).toContain('COLLATE utf8mb4_0900_bin PATH');
    const records = jsonRecords('mysql8', { name: 'name', text: 'text', n: 'int' });
    expect(records.match(/COLLATE utf8mb4_0900_bin/g)).toHaveLength(2);
    expect(jsonStrings('sqlite')).not.toContain('COLLATE');
    for (const sql of [jsonStrings('mariadb'), jsonRecords('mariadb', { a: 'name', b: 'text' })]) {
      expect(sql).not.toContain('utf8mb4_bin');
    }
  });

  it('creates test and benchmark databases with it', () => {
    expect(createDatabaseSql('fk_x', '10.11.6-MariaDB')).toBe(
      'CREATE DATABASE `fk_x` CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin',
    );
    expect(createDatabaseSql('fk_x', '8.4.3')).toBe(
      'CREATE DATABASE `fk_x` CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_bin',
    );
  });
});
