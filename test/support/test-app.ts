import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { getDataSourceToken } from '@nestjs/typeorm';
import pino from 'pino';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import type { DataSource } from 'typeorm';
import { createApp } from '../../src/app-setup';
import { loadConfig } from '../../src/config/app-config';
import { SqlCounter } from './sql-counter';
import { createTestDatabase, TestDatabase } from './test-database';

export const ADMIN_TOKEN = '*:*.e2e-admin-token-0123456789abcdef';
/** The password of the `admin` user every test app starts with. */
export const ADMIN_PASSWORD = 'e2e-admin-password-0123';

export interface TestApp {
  app: NestFastifyApplication;
  http: TestAgent;
  dataSource: DataSource;
  sql: SqlCounter;
  database: TestDatabase;
  /** A supertest request with the admin token set. */
  admin: {
    get(url: string): request.Test;
    post(url: string, body?: object): request.Test;
    put(url: string, body?: object): request.Test;
    patch(url: string, body?: object): request.Test;
    delete(url: string): request.Test;
  };
  as(token: string): TestApp['admin'];
  close(): Promise<void>;
}

function withToken(http: TestAgent, token: string): TestApp['admin'] {
  return {
    get: (url) => http.get(url).set('Authorization', token),
    post: (url, body) => {
      const req = http.post(url).set('Authorization', token);
      return body === undefined ? req : req.send(body);
    },
    put: (url, body) => {
      const req = http.put(url).set('Authorization', token);
      return body === undefined ? req : req.send(body);
    },
    patch: (url, body) => {
      const req = http.patch(url).set('Authorization', token);
      return body === undefined ? req : req.send(body);
    },
    delete: (url) => http.delete(url).set('Authorization', token),
  };
}

/**
 * Boots the whole application, exactly as main.ts does, on a fresh database of its own
 * (SQLite, or MySQL when TEST_DATABASE_URL is set), with an admin token ready.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { logLines?: string[]; databaseUrl?: string } = {},
): Promise<TestApp> {
  const database = options.databaseUrl
    ? { url: options.databaseUrl, drop: async () => undefined }
    : await createTestDatabase();
  const config = loadConfig({
    DATABASE_URL: database.url,
    INIT_ADMIN_API_TOKENS: ADMIN_TOKEN,
    INIT_ADMIN_PASSWORD: ADMIN_PASSWORD,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const sql = new SqlCounter();
  const app = await createApp(config, {
    databaseRetryAttempts: 0,
    sqlLogger: sql,
    logger: options.logLines
      ? pino({ level: 'info' }, { write: (line: string) => options.logLines?.push(line) })
      : pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
  });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  const http = request(app.getHttpServer());
  return {
    app,
    http,
    dataSource: app.get<DataSource>(getDataSourceToken()),
    sql,
    database,
    admin: withToken(http, ADMIN_TOKEN),
    as: (token) => withToken(http, token),
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

/** Creates a custom role with these permission rows and a service token bound to it; returns the token. */
export async function serviceTokenWith(
  t: TestApp,
  permissions: Array<{ name: string; environment?: string }>,
): Promise<string> {
  const role = await t.admin
    .post('/api/admin/roles', { name: `role-${Math.random().toString(36).slice(2)}`, permissions })
    .expect(201);
  const token = await t.admin
    .post('/api/admin/api-tokens', { tokenName: 'service', type: 'service', roleId: role.body.id })
    .expect(201);
  return token.body.secret as string;
}

/** Asserts the error record shape of rules.md §2 and returns its body. */
export function expectErrorRecord(
  res: request.Response,
  status: number,
  name: string,
): {
  id: string;
  name: string;
  message: string;
  details?: Array<{ path: string; message: string }>;
} {
  if (res.status !== status || res.body?.name !== name) {
    throw new Error(`expected ${status} ${name}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual(
    expect.objectContaining({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name,
      message: expect.any(String),
    }),
  );
  return res.body;
}
