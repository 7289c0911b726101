import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { expectErrorRecord, startTestApp, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase, testDatabaseKind } from './support/test-database';

/** A TCP proxy in front of the MySQL server that the test can cut and restore. */
class CuttableProxy {
  private server?: Server;
  private sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = new Socket();
      upstream.connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 20000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

if (testDatabaseKind() === 'mysql') {
  describe('database outage (MySQL)', () => {
    let t: TestApp;
    let database: TestDatabase;
    let proxy: CuttableProxy;

    beforeAll(async () => {
      database = await createTestDatabase();
      const url = new URL(database.url.replace(/^mariadb:/, 'mysql:'));
      proxy = new CuttableProxy(url.hostname, Number(url.port || 3306));
      await proxy.open();
      const viaProxy = new URL(database.url);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      t = await startTestApp({}, { databaseUrl: viaProxy.toString() });
    });
    afterAll(async () => {
      await t.close();
      await proxy.cut();
      await database.drop();
    });

    it('answers 503 while the database is unreachable and recovers without a restart', async () => {
      await t.admin.get('/api/admin/roles').expect(200);
      await proxy.cut();

      const health = await t.http.get('/health');
      expectErrorRecord(health, 503, 'ServiceUnavailableError');
      expectErrorRecord(await t.admin.get('/api/admin/roles'), 503, 'ServiceUnavailableError');

      await proxy.open();
      expect(await eventually(async () => (await t.http.get('/health')).status === 200)).toBe(true);
      await t.admin.get('/api/admin/roles').expect(200);
    });
  });
} else {
  describe('database outage (SQLite)', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t.close());

    it('answers 503 when the database file can no longer be used', async () => {
      await t.http.get('/health').expect(200);
      // An embedded database has no network to lose; a closed handle is the nearest equivalent.
      (
        t.dataSource.driver as unknown as { databaseConnection: { close(): void } }
      ).databaseConnection.close();
      expectErrorRecord(await t.http.get('/health'), 503, 'ServiceUnavailableError');
      // The token is cached from the first request, so the route itself reaches the database.
      expectErrorRecord(await t.admin.get('/api/admin/roles'), 503, 'ServiceUnavailableError');
    });
  });
}
