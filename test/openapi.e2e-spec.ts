import { startTestApp, TestApp } from './support/test-app';

type Operation = {
  summary?: string;
  operationId?: string;
  security?: unknown[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

function operations(doc: {
  paths: Record<string, Record<string, Operation>>;
}): Array<{ key: string; path: string; op: Operation }> {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ key: `${method} ${path}`, path, op })),
  );
}

const ERROR_RECORD = { $ref: '#/components/schemas/errorSchema' };

/** The statuses whose answer is declared as the error record. */
function errorStatuses(op: Operation): string[] {
  return Object.entries(op.responses)
    .filter(
      ([, response]) =>
        JSON.stringify(response.content?.['application/json']?.schema) ===
        JSON.stringify(ERROR_RECORD),
    )
    .map(([status]) => status);
}

describe('OpenAPI document', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('names every schema of the seed specification', async () => {
    const doc = (await t.http.get('/docs/openapi.json').expect(200)).body;
    const schemas = Object.keys(doc.components.schemas);
    expect(schemas).toEqual(
      expect.arrayContaining([
        'cloneEnvironmentSchema',
        'environmentSchema',
        'provideFeedbackSchema',
        'feedbackSchema',
        'exportQuerySchema',
        'exportResultSchema',
        'featureSchema',
        'featureEnvironmentSchema',
        'featureStrategySchema',
        'constraintSchema',
        'strategyVariantSchema',
        'variantSchema',
        'payloadSchema',
        'contextFieldSchema',
        'featureTagSchema',
        'tagTypeSchema',
        'exportDependencySchema',
        'errorSchema',
      ]),
    );
    // Class names never leak into the document as schema names.
    expect(schemas.filter((name) => /Dto$/.test(name))).toEqual([]);
  });

  it('documents the three seed operations with their paths and methods', async () => {
    const doc = (await t.http.get('/docs/openapi.json').expect(200)).body;
    expect(doc.paths['/api/admin/environments/{name}/clone'].post).toBeDefined();
    expect(doc.paths['/feedback'].post).toBeDefined();
    expect(doc.paths['/api/admin/features-batch/export'].post).toBeDefined();
    expect(doc.components.securitySchemes.apiKey).toEqual({
      type: 'apiKey',
      name: 'Authorization',
      in: 'header',
    });
  });

  it('gives every operation a summary and a unique operationId', async () => {
    const doc = (await t.http.get('/docs/openapi.json').expect(200)).body;
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(60);
    expect(ops.filter(({ op }) => !op.summary).map(({ key }) => key)).toEqual([]);
    const ids = ops.map(({ op }) => op.operationId);
    expect(ids.filter((id) => !id)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares the error record for the errors each route can answer', async () => {
    const doc = (await t.http.get('/docs/openapi.json').expect(200)).body;
    const byKey = new Map(operations(doc).map(({ key, op }) => [key, op]));
    const errors = (key: string) => errorStatuses(byKey.get(key) as Operation);
    // The seed's: the clone's 400 and 401, the export's 404.
    expect(errors('post /api/admin/environments/{name}/clone')).toEqual(
      expect.arrayContaining(['400', '401', '403', '404', '409', '413']),
    );
    expect(errors('post /api/admin/features-batch/export')).toEqual(
      expect.arrayContaining(['400', '401', '403', '404', '413']),
    );
    expect(errors('post /feedback')).toEqual(expect.arrayContaining(['400', '401', '403', '413']));
    for (const { key, op } of operations(doc)) {
      if (['get /health', 'post /auth/simple/login', 'post /logout'].includes(key)) continue;
      // Every route behind the guard answers 401 and 403; every route with a body 400 and 413.
      expect([key, errors(key)]).toEqual([key, expect.arrayContaining(['401', '403'])]);
      if (op.requestBody) {
        expect([key, errors(key)]).toEqual([key, expect.arrayContaining(['400', '413'])]);
      }
      // A name or id in the path that does not exist is 404.
      if (key.includes('{'))
        expect([key, errors(key)]).toEqual([key, expect.arrayContaining(['404'])]);
    }
  });

  it('asks no token of the public routes and one of every other', async () => {
    const doc = (await t.http.get('/docs/openapi.json').expect(200)).body;
    expect(doc.security).toEqual([{ apiKey: [] }]);
    const unsecured = operations(doc)
      .filter(({ op }) => Array.isArray(op.security) && op.security.length === 0)
      .map(({ key }) => key);
    expect(unsecured.sort()).toEqual(['get /health', 'post /auth/simple/login', 'post /logout']);
    // The answer agrees: /health and the document itself answer without a token.
    await t.http.get('/health').expect(200);
    await t.http.get('/docs').expect(200);
  });

  it('gives every response with a body a schema, the feedback listing and summary included', async () => {
    const doc = (await t.http.get('/docs/openapi.json').expect(200)).body;
    const missing: string[] = [];
    for (const { key, op } of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (status === '204') continue;
        if (!response.content?.['application/json']?.schema) missing.push(`${key} ${status}`);
      }
    }
    expect(missing).toEqual([]);
    const ok = (path: string) =>
      doc.paths[path].get.responses['200'].content['application/json'].schema;
    expect(ok('/api/admin/feedback')).toEqual({ $ref: '#/components/schemas/feedbackListSchema' });
    expect(ok('/api/admin/feedback/summary')).toEqual({
      $ref: '#/components/schemas/feedbackSummarySchema',
    });
  });
});
