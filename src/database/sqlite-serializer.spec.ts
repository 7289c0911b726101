import { DataSource } from 'typeorm';
import { brokenAssumption, serializeSqliteTransactions } from './sqlite-serializer';

/** Lets every other ready promise run, so that concurrent work really interleaves. */
const yieldTurns = async (turns = 5) => {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
};

async function openSqlite(serialized: boolean): Promise<DataSource> {
  const dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
  await dataSource.initialize();
  if (serialized) serializeSqliteTransactions(dataSource);
  await dataSource.query('CREATE TABLE t (v TEXT NOT NULL)');
  return dataSource;
}

async function values(dataSource: DataSource): Promise<string[]> {
  const rows: Array<{ v: string }> = await dataSource.query('SELECT v FROM t ORDER BY v');
  return rows.map((row) => row.v);
}

/** A transaction that writes, waits while others run, and fails: nothing of it may remain. */
function failingTransaction(dataSource: DataSource): Promise<unknown> {
  return dataSource
    .transaction(async (manager) => {
      await manager.query(`INSERT INTO t (v) VALUES ('rolled-back')`);
      await yieldTurns();
      throw new Error('fails after writing');
    })
    .catch((error: Error) => error.message);
}

describe('serializeSqliteTransactions (a patch of TypeORM internals: this spec guards it)', () => {
  let dataSource: DataSource;
  afterEach(() => dataSource?.destroy());

  it('finds what it relies on in this TypeORM: one query runner shared by every caller', async () => {
    dataSource = await openSqlite(false);
    expect(brokenAssumption(dataSource)).toBeUndefined();
    expect(dataSource.createQueryRunner()).toBe(dataSource.createQueryRunner());
  });

  it('keeps a plain write made during another transaction out of that transaction', async () => {
    dataSource = await openSqlite(true);
    const failing = failingTransaction(dataSource);
    await yieldTurns(1);
    await dataSource.query(`INSERT INTO t (v) VALUES ('plain')`);
    await expect(failing).resolves.toBe('fails after writing');
    expect(await values(dataSource)).toEqual(['plain']);
  });

  it('keeps two concurrent transactions apart: one failing does not undo the other', async () => {
    dataSource = await openSqlite(true);
    const failing = failingTransaction(dataSource);
    const committing = dataSource.transaction(async (manager) => {
      await manager.query(`INSERT INTO t (v) VALUES ('committed')`);
      await yieldTurns();
    });
    await Promise.all([failing, committing]);
    expect(await values(dataSource)).toEqual(['committed']);
  });

  it('lets a transaction nest another and query on without waiting for itself', async () => {
    dataSource = await openSqlite(true);
    await dataSource.transaction(async (outer) => {
      await outer.query(`INSERT INTO t (v) VALUES ('outer')`);
      await dataSource.transaction((inner) => inner.query(`INSERT INTO t (v) VALUES ('inner')`));
      await dataSource.query(`INSERT INTO t (v) VALUES ('plain-inside')`);
    });
    expect(await values(dataSource)).toEqual(['inner', 'outer', 'plain-inside']);
  });

  it('is needed: without it, the plain write is rolled back with the failing transaction', async () => {
    dataSource = await openSqlite(false);
    const failing = failingTransaction(dataSource);
    await yieldTurns(1);
    await dataSource.query(`INSERT INTO t (v) VALUES ('plain')`);
    await failing;
    expect(await values(dataSource)).toEqual([]);
  });
});
