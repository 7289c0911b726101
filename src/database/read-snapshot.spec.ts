import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { READER_CACHE_SIZE, ReadSnapshots } from './read-snapshot';

describe('ReadSnapshots on a SQLite file', () => {
  let dir: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flagkeeper-read-snapshot-'));
    dataSource = new DataSource({ type: 'better-sqlite3', database: join(dir, 'db.sqlite') });
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads with SQLite's own page cache, smaller than the app connection's", async () => {
    const cacheSize = async (query: (sql: string) => Promise<Array<{ cache_size: number }>>) =>
      (await query('PRAGMA cache_size'))[0].cache_size;
    const snapshots = new ReadSnapshots(dataSource);
    try {
      const snapshot = await snapshots.open();
      expect(await cacheSize((sql) => snapshot.query(sql))).toBe(READER_CACHE_SIZE);
      await snapshot.close();
      // A kept connection keeps it.
      const again = await snapshots.open();
      expect(await cacheSize((sql) => again.query(sql))).toBe(READER_CACHE_SIZE);
      await again.close();
    } finally {
      snapshots.close();
    }
    // better-sqlite3's default, which the app's own connection keeps.
    expect(await cacheSize((sql) => dataSource.query(sql))).toBe(-16000);
  });
});
