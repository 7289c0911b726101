import { ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import {
  firstStartNoticePrinted,
  freePort,
  ROOT,
  TS_NODE,
  waitForOutput,
} from './support/main-process';
import { createTestDatabase, TestDatabase } from './support/test-database';

/** Runs a command to completion without blocking the event loop (unlike spawnSync). */
function run(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; encoding: 'utf8'; timeout: number },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, options, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ status, stdout, stderr });
    });
  });
}
describe('start-up configuration', () => {
  it('stops with one line naming the variable when a value is invalid', () => {
    const result = spawnSync(process.execPath, [...TS_NODE, join(ROOT, 'src', 'main.ts')], {
      env: { PATH: process.env.PATH, PORT: 'not-a-port' },
      encoding: 'utf8',
      timeout: 60000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'Invalid configuration: PORT must be an integer between 1 and 65535',
    ]);
  });
});

describe('the first start and a lost admin token', () => {
  let database: TestDatabase;
  let server: ChildProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    server?.kill('SIGTERM');
    await database.drop();
  });

  // Two children compile the whole app with ts-node: on a loaded 2-core machine that alone has
  // taken over two minutes, hence the long limit (a guard against hanging, not a time check).
  it('prints the generated token framed after the listen line, and the admin command mints another', async () => {
    const port = await freePort();
    const env = { PATH: process.env.PATH, DATABASE_URL: database.url };
    server = spawn(process.execPath, [...TS_NODE, join(ROOT, 'src', 'main.ts')], {
      env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const out = await waitForOutput(server, firstStartNoticePrinted);
    const lines = out.trimEnd().split('\n');

    // The notice is the last thing printed, after the server said it listens.
    const listening = lines.findIndex((line) => line.includes('Server listening at'));
    const frameStart = lines.findIndex((line) => /^\+-+\+$/.test(line));
    expect(listening).toBeGreaterThanOrEqual(0);
    expect(frameStart).toBeGreaterThan(listening);
    expect(lines[lines.length - 1]).toMatch(/^\+-+\+$/);
    const notice = lines.slice(frameStart);
    // Framed: every line of it has the same width between the bars.
    expect(new Set(notice.map((line) => line.length)).size).toBe(1);
    expect(notice.join('\n')).toContain('npm run admin -- create-token');
    const secret = /\| +(\*:\*\.[0-9a-f]{64}) +\|/.exec(out)?.[1] as string;
    expect(secret).toBeDefined();
    // The secret appears in the notice only: not in any JSON log line.
    expect(lines.filter((line) => line.startsWith('{') && line.includes(secret))).toEqual([]);

    const base = `http://127.0.0.1:${port}`;
    const projects = (token: string) =>
      fetch(`${base}/api/admin/projects`, { headers: { Authorization: token } });
    expect((await projects(secret)).status).toBe(200);

    // The generated password of the admin user is in the same notice, and signs in.
    expect(notice.join('\n')).toContain('created the user admin');
    const password = /\| +([\w-]{24}) +\|/.exec(out)?.[1] as string;
    expect(password).toBeDefined();
    expect(lines.filter((line) => line.startsWith('{') && line.includes(password))).toEqual([]);
    const login = await fetch(`${base}/auth/simple/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    expect(login.status).toBe(200);

    // Asynchronously: a blocked event loop would keep the client's idle socket past the server's
    // keep-alive timeout, and its next request would meet a closed connection.
    const minted = await run(
      process.execPath,
      [...TS_NODE, join(ROOT, 'src', 'admin-cli.ts'), 'create-token', '--name', 'lost-the-first'],
      { env, encoding: 'utf8', timeout: 60000 },
    );
    expect([minted.status, minted.stderr]).toEqual([0, expect.stringContaining('shown this once')]);
    const fresh = minted.stdout.trim();
    expect(fresh).toMatch(/^\*:\*\.[0-9a-f]{64}$/);
    expect(fresh).not.toBe(secret);
    expect((await projects(fresh)).status).toBe(200);
    const tokens = (await (
      await fetch(`${base}/api/admin/api-tokens`, { headers: { Authorization: fresh } })
    ).json()) as { tokens: Array<{ tokenName: string }> };
    expect(tokens.tokens.map((token: { tokenName: string }) => token.tokenName)).toEqual(
      expect.arrayContaining(['initial-admin-token', 'lost-the-first']),
    );

    server.kill('SIGTERM');
    await new Promise((resolve) => server?.once('exit', resolve));
    server = undefined;
  }, 300000);

  it('answers an unknown admin command with its usage and exit code 2', () => {
    const result = spawnSync(
      process.execPath,
      [...TS_NODE, join(ROOT, 'src', 'admin-cli.ts'), 'drop-everything'],
      { env: { PATH: process.env.PATH }, encoding: 'utf8', timeout: 60000 },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Usage: npm run admin -- create-token');
  });
});
