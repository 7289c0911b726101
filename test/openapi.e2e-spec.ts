import { startTestApp, TestApp } from './support/test-app';

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
});
