import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { expectErrorRecord, startTestApp, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase, testDatabaseKind } from './support/test-database';

/**
 * A TCP proxy in front of the MySQL server that the test can cut and restore, or stall: while
 * stalled it keeps every socket open and accepts new ones but forwards nothing, as a stopped
 * database process (SIGSTOP) behaves; resuming delivers what was held back.
 */
class CuttableProxy {
  private server?: Server;
  private sockets = new Set<Socket>();
  private stalled = false;
  private held: Array<() => void> = [];
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
      this.forward(client, upstream);
      this.forward(upstream, client);
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  private forward(from: Socket, to: Socket): void {
    from.on('data', (chunk) => {
      if (this.stalled) this.held.push(() => to.write(chunk));
      else to.write(chunk);
    });
    from.on('end', () => to.end());
  }

  stall(): void {
    this.stalled = true;
  }

  resume(): void {
    this.stalled = false;
    for (const send of this.held.splice(0)) send();
  }

  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A generous bound for "an answer arrived at all"; the measured times are in docs/. */
const ANSWERED_WITHIN_MS = 15000;

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

    it('answers 503 while the database is stalled, /health too, and recovers without a restart', async () => {
      await t.admin.get('/api/admin/roles').expect(200);
      proxy.stall();
      try {
        const started = Date.now();
        const timed = async (req: ReturnType<typeof t.http.get>) => {
          const res = await req.timeout({ response: ANSWERED_WITHIN_MS });
          return { res, ms: Date.now() - started };
        };
        // More requests than the pool has connections (10), so some wait for a connection.
        const requests = [
          ...Array.from({ length: 12 }, () => timed(t.admin.get('/api/admin/roles'))),
          timed(t.admin.post('/api/admin/projects', { id: 'stalled', name: 'stalled' })),
          timed(t.http.get('/health')),
        ];
        const answers = await Promise.all(requests);
        for (const { res } of answers) expectErrorRecord(res, 503, 'ServiceUnavailableError');
        if (process.env.REPORT_OUTAGE_TIMINGS) {
          const ms = answers.map((a) => a.ms);
          process.stdout.write(
            `stalled: requests answered 503 after ${Math.min(...ms)}-${Math.max(...ms)} ms, /health after ${answers[answers.length - 1].ms} ms\n`,
          );
        }
        // While still stalled, with the pool's connections gone, /health answers on its own.
        const healthStarted = Date.now();
        const health = await t.http.get('/health').timeout({ response: ANSWERED_WITHIN_MS });
        expectErrorRecord(health, 503, 'ServiceUnavailableError');
        if (process.env.REPORT_OUTAGE_TIMINGS) {
          process.stdout.write(
            `stalled: a later /health answered after ${Date.now() - healthStarted} ms\n`,
          );
        }
      } finally {
        proxy.resume();
      }
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
