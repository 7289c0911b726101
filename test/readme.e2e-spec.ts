import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  firstStartNoticePrinted,
  freePort,
  ROOT,
  TS_NODE,
  waitForOutput,
} from './support/main-process';
import { createTestDatabase, TestDatabase } from './support/test-database';

/** One command of a README shell block: its text as written and the status its comment promises. */
interface ReadmeCommand {
  text: string;
  status: number;
}

/** The `sh` blocks of README.md that follow a heading or paragraph mentioning curl. */
function curlBlocks(readme: string): string[] {
  return [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((match) => match[1])
    .filter((block) => /^curl /m.test(block));
}

/**
 * Splits a block into its variable assignments (TOKEN=…, H=…) and its curl commands, joining
 * continuation lines. Each command's trailing comment must end with its status in parentheses,
 * so that the README says what to expect and this test holds it to that.
 */
function parseBlock(block: string): { setup: string[]; commands: ReadmeCommand[] } {
  const logical = block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const setup: string[] = [];
  const commands: ReadmeCommand[] = [];
  for (const line of logical) {
    if (/^[A-Z_]+=/.test(line)) {
      setup.push(line.replace(/\s+#.*$/, ''));
      continue;
    }
    const comment = /^(curl .*?)\s+#(.*)$/.exec(line);
    if (!comment) throw new Error(`README command without a comment: ${line}`);
    const status = /\((\d{3})\)\s*$/.exec(comment[2]);
    if (!status) throw new Error(`README comment without a status in parentheses: ${line}`);
    commands.push({ text: comment[1], status: Number(status[1]) });
  }
  return { setup, commands };
}

describe('README: the curl walk-through', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  let database: TestDatabase;
  let server: ChildProcess | undefined;
  let port: number;
  let token: string;
  let password: string;
  let cwd: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    cwd = mkdtempSync(join(tmpdir(), 'flagkeeper-readme-'));
    port = await freePort();
    // Started as `npm start` starts it (main.ts, no token configured), so the first-start notice
    // hands over the token and the password the README tells the reader to copy.
    server = spawn(process.execPath, [...TS_NODE, join(ROOT, 'src', 'main.ts')], {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: database.url,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const out = await waitForOutput(server, firstStartNoticePrinted);
    token = /\| +(\*:\*\.[0-9a-f]{64}) +\|/.exec(out)?.[1] as string;
    password = /\| +([\w-]{24}) +\|/.exec(out)?.[1] as string;
    if (!token || !password) throw new Error(`no token or password in the notice: ${out}`);
  }, 120000);

  afterAll(async () => {
    if (server) {
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await database?.drop();
    rmSync(cwd, { recursive: true, force: true });
  });

  /** The README's placeholders made real: the printed secrets, and this test's port. */
  function substitute(line: string): string {
    return line
      .replace(/^TOKEN='[^']*'/, `TOKEN='${token}'`)
      .replace(/^PASSWORD='[^']*'/, `PASSWORD='${password}'`)
      .replaceAll('localhost:3000', `127.0.0.1:${port}`);
  }

  it('has the walk-through and the sign-in blocks, every command with its status', () => {
    const blocks = curlBlocks(readme).map(parseBlock);
    expect(blocks.map((block) => block.commands.length)).toEqual([8, 2]);
    expect(blocks[0].setup.map((line) => line.split('=')[0])).toEqual(['TOKEN', 'H']);
    expect(blocks[1].setup.map((line) => line.split('=')[0])).toEqual(['PASSWORD']);
  });

  it('runs every command as written, in order, each exiting 0 with the status its comment gives', () => {
    const results: Array<{ command: string; exit: number | null; status: number }> = [];
    const expected: typeof results = [];
    for (const { setup, commands } of curlBlocks(readme).map(parseBlock)) {
      for (const command of commands) {
        // The status is written after the body on a line of its own; the command is unchanged.
        const script = [
          ...setup.map(substitute),
          `${substitute(command.text)} -w '\\n%{http_code}'`,
        ];
        const run = spawnSync('bash', ['-c', script.join('\n')], {
          cwd,
          encoding: 'utf8',
          timeout: 30000,
        });
        const status = Number(run.stdout.trim().split('\n').pop());
        results.push({ command: command.text, exit: run.status, status });
        expected.push({ command: command.text, exit: 0, status: command.status });
      }
    }
    expect(results).toEqual(expected);
  });

  it('left what the walk-through promises: the feature on in development and in its clone, feedback stored', async () => {
    const get = async (path: string) => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        headers: { Authorization: token },
      });
      expect(res.status).toBe(200);
      return res.json();
    };
    const staging = await get('/api/admin/projects/default/features/new-checkout');
    const environments = (staging as { environments: Array<{ name: string; enabled: boolean }> })
      .environments;
    expect(environments).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'development', enabled: true }),
        expect.objectContaining({ name: 'staging', enabled: true }),
      ]),
    );
    expect(await get('/api/admin/feedback')).toEqual({
      feedback: [expect.objectContaining({ category: 'general', positive: 'Fast' })],
    });
  });
});

/**
 * Every other command of the README's shell blocks, and where it runs. A command added to the
 * README fails this test until it is run somewhere (or listed, with its reason, as not run).
 */
describe('README: every command is run by a test or by CI', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const file = (path: string) => readFileSync(join(ROOT, path), 'utf8');

  const RUN_BY: Record<string, Array<[file: string, text: string]>> = {
    'npm ci && npm start': [
      ['.ci/run', 'npm ci'],
      ['.ci/readme-commands.sh', 'npm start'],
    ],
    'npm run admin -- create-token': [['.ci/readme-commands.sh', 'npm run admin -- create-token']],
    'npm ci && npm test': [
      ['.ci/run', 'npm ci'],
      ['.ci/run', 'npm test'],
    ],
    'TEST_DATABASE_URL=mariadb://root@127.0.0.1:3306/test npm run test:e2e:mysql': [
      ['.ci/run', 'npm run test:e2e:mysql'],
    ],
    "mysql -e 'CREATE DATABASE flagkeeper'": [
      ['.ci/readme-commands.sh', 'readme_line "mysql -e \'CREATE DATABASE flagkeeper\'"'],
    ],
    'DATABASE_URL=mysql://user:pass@127.0.0.1:3306/flagkeeper npm start': [
      [
        '.ci/readme-commands.sh',
        "readme_line 'DATABASE_URL=mysql://user:pass@127.0.0.1:3306/flagkeeper npm start'",
      ],
    ],
  };
  /**
   * Not run anywhere: `docker compose` needs a Docker engine, which no machine of this project's
   * kind has (only the client). The image's runtime commands run in .ci/container-smoke.sh.
   */
  const NOT_RUN = ['docker compose up --build'];

  function otherCommands(): string[] {
    return [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
      .map((match) => match[1])
      .filter((block) => !/^curl /m.test(block))
      .flatMap((block) => block.replace(/\\\n\s*/g, ' ').split('\n'))
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line !== '');
  }

  it('knows every command of the README', () => {
    expect(otherCommands().sort()).toEqual([...Object.keys(RUN_BY), ...NOT_RUN].sort());
  });

  it('finds each in the CI script that runs it, and CI runs that script', () => {
    const missing = Object.entries(RUN_BY).flatMap(([command, places]) =>
      places.filter(([path, text]) => !file(path).includes(text)).map((p) => [command, ...p]),
    );
    expect(missing).toEqual([]);
    expect(file('.ci/run')).toContain('bash .ci/readme-commands.sh');
  });
});
