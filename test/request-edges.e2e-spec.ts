import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { HTTP_TIMEOUTS } from '../src/common/http-edge';
import { createFeature, envUrl, featureUrl } from './feature-fixtures';
import {
  ADMIN_TOKEN,
  expectErrorRecord,
  serviceTokenWith,
  startTestApp,
  TestApp,
} from './support/test-app';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** Sends bytes as they are on a fresh socket and reads the answer until the server closes. */
function rawRequest(port: number, request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(request);
  });
}

function parseRaw(text: string): RawResponse {
  const [head, ...rest] = text.split('\r\n\r\n');
  const [statusLine, ...headerLines] = head.split('\r\n');
  const headers: http.IncomingHttpHeaders = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(rest.join('')) };
}

function expectRecord(res: RawResponse, status: number, name: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual(
    expect.objectContaining({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name }),
  );
  expect(typeof res.body.message).toBe('string');
}

/** A body nested `depth` levels deep, e.g. [[[]]] or {"a":{"a":{}}}. */
function nested(depth: number, open: string, close: string): string {
  return open.repeat(depth) + close.repeat(depth);
}

describe('the HTTP edge: parsing, limits and errors before routing', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    await createFeature(t, 'edge-feature');
  });
  afterAll(() => t.close());

  describe('request tolerance (issue 11)', () => {
    it('takes an empty body with Content-Type: application/json as no body', async () => {
      await t.admin
        .post(`${envUrl('edge-feature', 'development')}/on`)
        .set('content-type', 'application/json')
        .send('')
        .expect(204);
      const feature = await t.admin.get(featureUrl('edge-feature')).expect(200);
      expect(
        (feature.body.environments as Array<{ name: string; enabled: boolean }>).find(
          (e) => e.name === 'development',
        )?.enabled,
      ).toBe(true);
      await t.admin.post('/api/admin/tag-types', { name: 'edge-tags' }).expect(201);
      await t.admin
        .delete('/api/admin/tag-types/edge-tags')
        .set('content-type', 'application/json; charset=utf-8')
        .send('')
        .expect(204);
      await t.admin.get('/api/admin/tag-types/edge-tags').expect(404);
    });

    it('still answers a route that needs a body with a ValidationError when it gets none', async () => {
      const res = await t.admin
        .post('/api/admin/roles')
        .set('content-type', 'application/json')
        .send('');
      expectErrorRecord(res, 400, 'ValidationError');
    });

    it('accepts the Bearer scheme in any letter case', async () => {
      for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
        await t.http
          .get('/api/admin/roles')
          .set('Authorization', `${scheme} ${ADMIN_TOKEN}`)
          .expect(200);
      }
      const bare = await t.http.get('/api/admin/roles').set('Authorization', 'bearer ');
      expectErrorRecord(bare, 401, 'AuthenticationRequired');
    });

    it('reads a PATCH sent as application/json-patch+json', async () => {
      const res = await t.admin
        .patch(featureUrl('edge-feature'))
        .set('content-type', 'application/json-patch+json')
        .send(JSON.stringify([{ op: 'replace', path: '/description', value: 'patched' }]))
        .expect(200);
      expect(res.body.description).toBe('patched');
      const stored = await t.admin.get(featureUrl('edge-feature')).expect(200);
      expect(stored.body.description).toBe('patched');
    });
  });

  describe('hostile bodies (issue 13)', () => {
    it('D8: refuses JSON nested deeper than 64 levels with a 400, whoever sends it', async () => {
      const powerless = await serviceTokenWith(t, []);
      const bodies = [
        `{"name":"deep","permissions":${nested(64, '[', ']')}}`,
        nested(1300, '[', ']'),
        `{"a":${nested(2400, '{"a":', '}').replace(/\{"a":\}/, '{}')}}`,
      ];
      for (const body of bodies) {
        for (const caller of [t.admin, t.as(powerless)]) {
          const res = await caller
            .post('/api/admin/roles')
            .set('content-type', 'application/json')
            .send(body);
          expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
            { path: '/body', message: 'The body nests deeper than 64 levels' },
          ]);
        }
      }
      // 64 levels are still parsed, and then judged by the route's own rules.
      const atLimit = await t.admin
        .post('/api/admin/roles')
        .set('content-type', 'application/json')
        .send(`{"name":${nested(63, '[', ']')},"permissions":[]}`);
      const record = expectErrorRecord(atLimit, 400, 'ValidationError');
      expect(record.details?.map((d) => d.path)).toEqual(['/body/name']);
      await t.admin.get('/api/admin/roles').expect(200);
    });

    it('D10: takes numeric path ids only as plain decimals', async () => {
      const role = await t.admin
        .post('/api/admin/roles', { name: 'numeric-id', permissions: [] })
        .expect(201);
      const id = role.body.id as number;
      for (const spelling of [
        `0x${id.toString(16)}`,
        `${id}e0`,
        `+${id}`,
        `${id}.0`,
        `0${id}`,
        ` ${id}`,
        '0',
      ]) {
        const res = await t.admin.get(`/api/admin/roles/${encodeURIComponent(spelling)}`);
        expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
          { path: '/param/id', message: 'id must be a positive integer' },
        ]);
        const del = await t.admin.delete(`/api/admin/roles/${encodeURIComponent(spelling)}`);
        expectErrorRecord(del, 400, 'ValidationError');
      }
      await t.admin.get(`/api/admin/roles/${id}`).expect(200);
    });

    it('D12: refuses an unpaired surrogate in any string or key of a body, and in a query', async () => {
      const cases: Array<[string, string]> = [
        ['{"name":"bad\\ud800","permissions":[]}', '/body/name'],
        ['{"name":"low\\udc00x","permissions":[]}', '/body/name'],
        [
          '{"name":"r","permissions":[{"name":"UPDATE_FEATURE_ENVIRONMENT","environment":"\\udbff"}]}',
          '/body/permissions/0/environment',
        ],
        ['{"name":"r","permissions":[],"\\ud800":1}', '/body/\ufffd'],
      ];
      for (const [body, path] of cases) {
        const res = await t.admin
          .post('/api/admin/roles')
          .set('content-type', 'application/json')
          .send(body);
        expect(expectErrorRecord(res, 400, 'ValidationError').details?.[0].path).toBe(path);
      }
      // The same code unit sent as raw bytes (CESU-8) is not UTF-8 at all.
      const raw = await t.admin
        .post('/api/admin/roles')
        .set('content-type', 'application/json')
        .send(
          Buffer.concat([
            Buffer.from('{"name":"'),
            Buffer.from([0xed, 0xa0, 0x80]),
            Buffer.from('","permissions":[]}'),
          ]),
        );
      expectErrorRecord(raw, 400, 'ValidationError');
      const query = await t.admin.get('/api/admin/feedback?category=%ED%A0%80');
      expectErrorRecord(query, 400, 'ValidationError');
      const listed = await t.admin.get('/api/admin/roles').expect(200);
      expect(JSON.stringify(listed.body)).not.toMatch(/bad|low\\u/);
      // A surrogate pair is one ordinary character.
      const pair = await t.admin
        .post('/api/admin/roles')
        .set('content-type', 'application/json')
        .send('{"name":"emoji \\ud83d\\ude00","permissions":[]}')
        .expect(201);
      expect(pair.body.name).toBe('emoji \u{1f600}');
    });

    it('D14: refuses prototype, constructor, toString and __proto__ keys at every depth', async () => {
      const cases: Array<[string, string]> = [
        ['{"name":"p","permissions":[],"prototype":{}}', '/body/prototype'],
        [
          '{"name":"p","permissions":[{"name":"ADMIN","constructor":"x"}]}',
          '/body/permissions/0/constructor',
        ],
        [
          '{"name":"p","permissions":[{"name":"ADMIN","toString":"x"}]}',
          '/body/permissions/0/toString',
        ],
        [
          '{"name":"p","permissions":[{"name":"ADMIN","__proto__":{"x":1}}]}',
          '/body/permissions/0/__proto__',
        ],
      ];
      for (const [body, path] of cases) {
        const res = await t.admin
          .post('/api/admin/roles')
          .set('content-type', 'application/json')
          .send(body);
        expect(expectErrorRecord(res, 400, 'ValidationError').details).toContainEqual({
          path,
          message: `${path.split('/').pop()} is not an allowed property`,
        });
      }
      // The strategy's parameters are a free map, and the names are refused there too.
      const strategy = await t.admin
        .post(`${envUrl('edge-feature', 'development')}/strategies`)
        .set('content-type', 'application/json')
        .send('{"name":"default","parameters":{"prototype":"1"}}');
      expect(expectErrorRecord(strategy, 400, 'ValidationError').details?.[0].path).toBe(
        '/body/parameters/prototype',
      );
      const roles = await t.admin.get('/api/admin/roles').expect(200);
      expect((roles.body.roles as Array<{ name: string }>).map((r) => r.name)).not.toContain('p');
    });
  });

  describe('errors raised before routing are error records (D15)', () => {
    it('answers bad percent-encoding with a 400 ValidationError', async () => {
      const res = await t.admin.get('/api/admin/roles/%E0%A4%A');
      expect(expectErrorRecord(res, 400, 'ValidationError').details?.[0].path).toBe('/url');
      expect(res.headers['x-request-id']).toBeDefined();
    });

    it('answers a path segment over 100 characters with a 414 UriTooLongError', async () => {
      const res = await t.admin.get(`/api/admin/projects/${'p'.repeat(101)}`);
      expectErrorRecord(res, 414, 'UriTooLongError');
      await t.admin.get(`/api/admin/projects/${'p'.repeat(100)}`).expect(404);
    });

    it('answers a URL or a header over 16 KiB with a 431 HeaderFieldsTooLargeError', async () => {
      const longUrl = await rawRequest(
        port,
        `GET /api/admin/roles?q=${'x'.repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      expectRecord(parseRaw(longUrl), 431, 'HeaderFieldsTooLargeError');
      const longHeader = await rawRequest(
        port,
        `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'y'.repeat(17 * 1024)}\r\n\r\n`,
      );
      expectRecord(parseRaw(longHeader), 431, 'HeaderFieldsTooLargeError');
    });

    it('answers a request that is not HTTP with a 400 record', async () => {
      const res = parseRaw(await rawRequest(port, 'NOT HTTP AT ALL\r\n\r\n'));
      expectRecord(res, 400, 'ValidationError');
    });
  });

  describe('connections (D18, D19)', () => {
    it('D18: lets a client finish sending a body over the limit, then read the 413', async () => {
      // Like many clients, this one reads the answer only once it has sent the whole body, and it
      // asks for the connection to be closed afterwards: a server that closes while the body is
      // still coming makes its writes fail (EPIPE, ECONNRESET) and the 413 is lost.
      const body = Buffer.alloc(24 * 1024 * 1024, 'a');
      for (let round = 0; round < 3; round++) {
        const text = await new Promise<string>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1');
          socket.pause();
          const chunks: Buffer[] = [];
          socket.on('data', (chunk) => chunks.push(chunk));
          socket.on('error', reject);
          socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
          socket.write(
            'POST /api/admin/roles HTTP/1.1\r\nHost: x\r\nConnection: close\r\n' +
              `Authorization: ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\n` +
              `Content-Length: ${body.length}\r\n\r\n`,
          );
          socket.write(body, (error) => (error ? reject(error) : socket.resume()));
        });
        expectRecord(parseRaw(text), 413, 'PayloadTooLargeError');
      }
    });

    it('D19: applies the documented header, request, keep-alive and idle timeouts', () => {
      const server = t.app.getHttpServer() as http.Server;
      expect(server.headersTimeout).toBe(HTTP_TIMEOUTS.headers);
      expect(server.requestTimeout).toBe(HTTP_TIMEOUTS.request);
      expect(server.keepAliveTimeout).toBe(HTTP_TIMEOUTS.keepAlive);
      expect(server.timeout).toBe(HTTP_TIMEOUTS.inactivity);
      expect(HTTP_TIMEOUTS.headers).toBeLessThanOrEqual(10_000);
      expect(HTTP_TIMEOUTS.request).toBeLessThanOrEqual(30_000);
    });

    it('D19: answers a client that never finishes its headers with a 408 record and closes', async () => {
      const res = parseRaw(await rawRequest(port, 'GET /health HTTP/1.1\r\nHost: x\r\n'));
      expectRecord(res, 408, 'RequestTimeoutError');
    }, 30_000);
  });
});
