import { startTestApp, TestApp } from './test-app';
import { createTestDatabase, TestDatabase } from './test-database';

/**
 * The server URLs of the Galera cluster's nodes, from TEST_GALERA_URLS (comma-separated; set by
 * `npm run test:galera`), or none on a plain run.
 */
export const galeraNodes = (process.env.TEST_GALERA_URLS ?? '')
  .split(',')
  .filter((url) => url.length > 0);

/** The same database on another node. */
export function onNode(databaseUrl: string, node: string): string {
  const url = new URL(node);
  url.pathname = new URL(databaseUrl).pathname;
  return url.toString();
}

export interface TwoReplicas {
  a: TestApp;
  b: TestApp;
  database: TestDatabase;
  close(): Promise<void>;
}

/**
 * Two Flagkeeper replicas on one fresh database, replica `a` connected to node 1 and `b` to
 * node 2, started at once (their migrations are serialised by the lock row). TEST_DATABASE_URL
 * names node 1, where createTestDatabase() makes the schema; Galera replicates the CREATE
 * DATABASE to every node.
 */
export async function startReplicasOnTwoNodes(): Promise<TwoReplicas> {
  if (galeraNodes.length < 2) throw new Error('TEST_GALERA_URLS must name at least two nodes');
  const database = await createTestDatabase();
  const [a, b] = await Promise.all(
    galeraNodes
      .slice(0, 2)
      .map((node) => startTestApp({}, { databaseUrl: onNode(database.url, node) })),
  );
  return {
    a,
    b,
    database,
    close: async () => {
      await a?.app.close();
      await b?.app.close();
      await database.drop();
    },
  };
}
