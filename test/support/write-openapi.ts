// Writes the OpenAPI document the service serves at /docs/openapi.json to a file (default
// openapi.json), by booting the app on a throwaway SQLite database: `npm run lint:openapi` lints it.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { createApp } from '../../src/app-setup';
import { loadConfig } from '../../src/config/app-config';

async function main(): Promise<void> {
  const target = resolve(process.argv[2] ?? 'openapi.json');
  const dir = mkdtempSync(join(tmpdir(), 'flagkeeper-openapi-'));
  try {
    const config = loadConfig({
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      // A token of its own, so that no first-start token is generated and printed.
      INIT_ADMIN_API_TOKENS: `*:*.${randomBytes(16).toString('hex')}`,
      LOG_LEVEL: 'silent',
    });
    const app = await createApp(config, { logger: pino({ level: 'silent' }) });
    await app.init();
    const fastify = app.getHttpAdapter().getInstance();
    await fastify.ready();
    const res = await fastify.inject({ method: 'GET', url: '/docs/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`/docs/openapi.json answered ${res.statusCode}`);
    writeFileSync(target, JSON.stringify(JSON.parse(res.body), null, 2) + '\n');
    await app.close();
    process.stdout.write(`wrote ${target}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
