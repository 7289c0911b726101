import { create, EXPORT, ExportDocument, expectStatus, exportOf } from './export-fixtures';
import { bulkFeatureName, insertBulkFeatures } from './fixtures/bulk-features';
import { READER_CACHE_SIZE } from '../src/database/read-snapshot';
import { dialectOf } from '../src/database/sql-dialect';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

/*
 * The export as an HTTP operation: validation, authentication, not-found rules, body limits,
 * the one read transaction and the fixed number of SQL statements.
 */
describe('export: requests', () => {
  let t: TestApp;
  const segmentIds: number[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    await create(t, '/api/admin/context', {
      name: 'region',
      legalValues: [{ value: 'eu' }, { value: 'us' }],
    });
    for (const name of ['s1', 's2', 's3']) {
      segmentIds.push((await create(t, '/api/admin/segments', { name, constraints: [] })).body.id);
    }
    await create(t, '/api/admin/tag-types', { name: 'team' });
    await create(t, '/api/admin/projects', { id: 'small', name: 'Small' });
    await create(t, '/api/admin/projects', { id: 'large', name: 'Large' });
    const bulk = {
      environments: ['development', 'production'],
      strategyEnvironment: 'development',
      segmentIds,
      contextField: 'region',
      tagTypes: ['simple', 'team'] as [string, string],
      dependencyEvery: 10,
    };
    const query = (sql: string, params?: unknown[]) => t.dataSource.query(sql, params);
    await insertBulkFeatures(query, { ...bulk, project: 'small', prefix: 'small', count: 10 });
    await insertBulkFeatures(query, { ...bulk, project: 'large', prefix: 'large', count: 1000 });
  });
  afterAll(() => t.close());

  describe('validation (400 ValidationError, before anything is looked up)', () => {
    it('needs at least one selector', async () => {
      const res = await t.admin.post(EXPORT, { environment: 'no-such-env', downloadFile: true });
      expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
        {
          path: '/body',
          message: 'One of features, tag or project is required to select the features to export',
        },
      ]);
    });

    it('needs an environment', async () => {
      const res = await t.admin.post(EXPORT, { project: 'default' });
      expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
        { path: '/body/environment', message: 'environment is required' },
      ]);
    });

    it('reports every field of the wrong type, null included, and unknown properties', async () => {
      const res = await t.admin.post(EXPORT, {
        environment: 7,
        features: 'checkout',
        tag: null,
        project: 5,
        downloadFile: 'yes',
        format: 'csv',
      });
      expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
        { path: '/body/format', message: 'format is not an allowed property' },
        {
          path: '/body/environment',
          message: 'environment must be 1 to 100 characters long; environment must be a string',
        },
        { path: '/body/downloadFile', message: 'downloadFile must be a boolean' },
        { path: '/body/features', message: 'features must be an array of feature names' },
        {
          path: '/body/tag',
          message: 'tag must be 1 to 100 characters long; tag must be a string',
        },
        {
          path: '/body/project',
          message: 'project must be 1 to 100 characters long; project must be a string',
        },
      ]);
    });

    it('checks each feature name, and the lengths', async () => {
      const res = await t.admin.post(EXPORT, {
        environment: '',
        features: ['ok', 3, 'x'.repeat(101)],
        tag: '',
      });
      expect(
        expectErrorRecord(res, 400, 'ValidationError')
          .details?.map((d) => d.path)
          .sort(),
      ).toEqual(['/body/environment', '/body/features', '/body/tag']);
    });

    it('answers a body that is not an object, not JSON, or not sent as JSON', async () => {
      const array = await t.admin.post(EXPORT).send([{ environment: 'development' }]);
      expect(expectErrorRecord(array, 400, 'ValidationError').details).toEqual([
        { path: '/body', message: 'The body must be a JSON object' },
      ]);
      const broken = await t.admin
        .post(EXPORT)
        .set('content-type', 'application/json')
        .send('{"environment": ');
      expectErrorRecord(broken, 400, 'ValidationError');
      const text = await t.admin
        .post(EXPORT)
        .set('content-type', 'text/plain')
        .send('environment=development');
      expectErrorRecord(text, 415, 'ContentTypeError');
    });
  });

  describe('authentication', () => {
    it('401 without a token or with an unknown one', async () => {
      const body = { environment: 'development', features: [] };
      expectErrorRecord(await t.http.post(EXPORT).send(body), 401, 'AuthenticationRequired');
      expectErrorRecord(
        await t.as('*:*.not-a-known-token-0000000000').post(EXPORT, body),
        401,
        'AuthenticationRequired',
      );
    });

    it('403 for client and frontend tokens', async () => {
      for (const type of ['client', 'frontend']) {
        const token = await create(t, '/api/admin/api-tokens', {
          tokenName: type,
          type,
          environment: 'development',
        });
        const res = await t
          .as(token.body.secret)
          .post(EXPORT, { environment: 'development', features: [] });
        expectErrorRecord(res, 403, 'PermissionError');
      }
    });

    it('any admin-API token may export: a service token whose role holds no permission', async () => {
      const token = await serviceTokenWith(t, []);
      const res = await expectStatus(
        t.as(token).post(EXPORT, { environment: 'development', project: 'small' }),
        200,
      );
      expect(res.body.features).toHaveLength(10);
    });
  });

  describe('not found (404 NotFoundError)', () => {
    it('an unknown environment', async () => {
      const res = await t.admin.post(EXPORT, { environment: 'staging', project: 'no-such' });
      expect(expectErrorRecord(res, 404, 'NotFoundError').message).toBe(
        'Could not find environment with name staging',
      );
    });

    it('an unknown project when the project rule applies', async () => {
      for (const body of [{ project: 'nope' }, { features: [], project: 'nope' }]) {
        const res = await t.admin.post(EXPORT, { environment: 'development', ...body });
        expect(expectErrorRecord(res, 404, 'NotFoundError').message).toBe(
          'Could not find project with id nope',
        );
      }
    });

    it('not when a rule above it applies', async () => {
      for (const body of [{ tag: 'small' }, { features: ['small-000001'] }]) {
        await expectStatus(
          t.admin.post(EXPORT, { environment: 'development', project: 'nope', ...body }),
          200,
        );
      }
    });
  });

  describe('body limit of /api/admin/features-batch/*', () => {
    it('accepts a features list of 2 MiB (other routes stop at 100 KiB)', async () => {
      const known = Array.from({ length: 1000 }, (_, i) => bulkFeatureName('large', i + 1));
      const unknown = Array.from({ length: 65000 }, (_, i) => `unknown-feature-${i}-padding-x`);
      const features = [...unknown, ...known];
      const body = JSON.stringify({ environment: 'development', features });
      expect(body.length).toBeGreaterThan(2 * 1024 * 1024);
      const res = await expectStatus(
        t.admin.post(EXPORT).set('content-type', 'application/json').send(body),
        200,
      );
      expect((res.body as ExportDocument).features).toHaveLength(1000);
      expect((res.body as ExportDocument).featureStrategies).toHaveLength(2000);

      const elsewhere = await t.admin.post('/api/admin/projects', {
        id: 'big',
        name: 'Big',
        description: 'x'.repeat(101 * 1024),
      });
      expectErrorRecord(elsewhere, 413, 'PayloadTooLargeError');
    });

    it('answers 413 over 10 MiB', async () => {
      const features = Array.from({ length: 400000 }, (_, i) => `feature-name-${i}-xxxxxx`);
      const res = await t.admin.post(EXPORT, { environment: 'development', features });
      expectErrorRecord(res, 413, 'PayloadTooLargeError');
    });
  });

  describe('OpenAPI', () => {
    it('documents the route with the seed schema names, beside the features schemas', async () => {
      const doc = (await expectStatus(t.http.get('/docs/openapi.json'), 200)).body;
      const route = doc.paths['/api/admin/features-batch/export'].post;
      expect(route.requestBody.content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/exportQuerySchema',
      });
      expect(route.responses['200'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/exportResultSchema',
      });
      const schemas = doc.components.schemas;
      expect(schemas.exportQuerySchema.required).toEqual(['environment']);
      expect(Object.keys(schemas.exportQuerySchema.properties).sort()).toEqual([
        'downloadFile',
        'environment',
        'features',
        'project',
        'tag',
      ]);
      const result = schemas.exportResultSchema;
      expect(Object.keys(result.properties)).toEqual([
        'features',
        'featureEnvironments',
        'featureStrategies',
        'contextFields',
        'segments',
        'featureTags',
        'tagTypes',
        'dependencies',
      ]);
      expect(result.properties.featureStrategies.items).toEqual({
        $ref: '#/components/schemas/featureStrategySchema',
      });
      expect(result.properties.tagTypes.items).toEqual({
        $ref: '#/components/schemas/tagTypeSchema',
      });
      expect(schemas.exportFeatureEnvironmentSchema.properties.variants.items).toEqual({
        $ref: '#/components/schemas/variantSchema',
      });
      // the features module's own schemas are untouched
      expect(schemas.featureSchema.properties).toHaveProperty('environments');
      expect(schemas.featureEnvironmentSchema.properties).toHaveProperty('hasStrategies');
    });
  });

  describe('one read transaction, a fixed number of statements', () => {
    /**
     * The statements of the export itself (a token lookup may come first when its cache expired).
     * Warm by default: an export before it has kept its runs, which this one reads; a cold one
     * starts with none kept.
     */
    const measure = async (body: object, { cold = false } = {}) => {
      if (cold) await t.dataSource.query('DELETE FROM export_kept_runs');
      else await exportOf(t, body);
      const { result, statements } = await t.sql.measure(() => exportOf(t, body));
      const own = statements.filter((sql) => !/api_tokens|role_permissions/.test(sql));
      return { document: result, count: own.length, statements: own };
    };

    /** The statements between BEGIN / START TRANSACTION and the end, whitespace evened out. */
    const insideOf = (statements: string[]) => {
      const begin = statements.findIndex((sql) => /^(BEGIN|START TRANSACTION)/.test(sql));
      // MySQL: the isolation level is set for the transaction that follows.
      expect(statements.slice(0, begin)).toEqual(
        t.database.url.startsWith('sqlite:')
          ? []
          : ['SET TRANSACTION ISOLATION LEVEL REPEATABLE READ'],
      );
      return statements.slice(begin + 1).map((sql) => sql.replace(/\s+/g, ' '));
    };
    const mariadb = () => dialectOf(t.dataSource) === 'mariadb';
    /**
     * Each table's read repeats the selection as a sub-select and is ordered by the database; the
     * features' own read filters the table itself where the selection is a condition on it. Then
     * the selection's kept runs are looked up by their first features. Warm, every run is
     * current: the feature environments, strategies and tags are the runs' kept text. Cold, they
     * are read from their tables: on MariaDB the server's row estimates come first, and a
     * selection of most of the table has the feature environments and tags read without
     * semi-joins (`scan`).
     */
    const reads = (
      selection: string,
      {
        scan,
        onFeatures = `f\\.name IN \\(${selection}\\)`,
        cold = false,
      }: { scan: boolean; onFeatures?: string; cold?: boolean },
    ) => {
      const walk = scan && mariadb() ? "SET STATEMENT optimizer_switch='semijoin=off' FOR " : '';
      const kept = (list: string) =>
        new RegExp(
          `^SELECT k\\.${list} FROM export_kept_runs k WHERE k\\.environment_name = \\? AND k\\.first_feature IN \\(\\?(, \\?)*\\) AND k\\.${list} <> '' ORDER BY k\\.first_feature$`,
        );
      return [
        new RegExp(`^SELECT .* FROM features f WHERE ${onFeatures} ORDER BY f\\.name$`),
        /^SELECT k\.first_feature, k\.signature, k\.names FROM export_kept_runs k WHERE k\.environment_name = \? AND k\.first_feature IN \(\?(, \?)*\)$/,
        ...(cold
          ? [
              ...(mariadb()
                ? [/^SELECT TABLE_NAME AS name, TABLE_ROWS AS estimate FROM information_schema/]
                : []),
              new RegExp(
                `^${walk}SELECT .* FROM feature_environments fe WHERE .* IN \\(${selection}\\) ORDER BY fe\\.feature_name`,
              ),
              new RegExp(
                `^SELECT .* AS item, fs\\.feature_name FROM feature_strategies fs WHERE .* IN \\(${selection}\\) ORDER BY fs\\.feature_name`,
              ),
            ]
          : [kept('environments'), kept('strategies')]),
        /^SELECT .* FROM context_fields /,
        /^SELECT id, name FROM segments WHERE id IN \(SELECT \w+\.?\w* FROM (json_each|JSON_TABLE)\(\?/,
        cold
          ? new RegExp(
              `^${walk}SELECT .* FROM feature_tags ft WHERE .* IN \\(${selection}\\) ORDER BY ft\\.feature_name`,
            )
          : kept('tags'),
        /^SELECT .* FROM tag_types /,
        new RegExp(
          `^SELECT .* FROM feature_dependencies d WHERE .* IN \\(${selection}\\) ORDER BY d\\.child`,
        ),
      ];
    };

    it('reads everything inside one snapshot, each table once, in the order of the document', async () => {
      const { statements } = await measure({ environment: 'development', project: 'large' });
      const patterns = [
        /^SELECT name FROM environments /,
        /^SELECT id FROM projects /,
        // 1,000 of the 1,010 features: most of the table.
        ...reads(
          'SELECT fp\\.name FROM features fp WHERE fp\\.project_id = \\? AND fp\\.archived_at IS NULL',
          { scan: true, onFeatures: 'f\\.project_id = \\? AND f\\.archived_at IS NULL' },
        ),
        /^COMMIT$/,
        // The features-exported event (metadata only), its own INSERT after the read.
        /^INSERT INTO events /,
      ];
      const inside = insideOf(statements);
      expect(inside).toHaveLength(patterns.length);
      inside.forEach((sql, i) => expect(sql).toMatch(patterns[i]));
    });

    it('cold: reads the tables, and keeps the runs once the snapshot has ended', async () => {
      const { statements } = await measure(
        { environment: 'development', project: 'large' },
        { cold: true },
      );
      const patterns = [
        /^SELECT name FROM environments /,
        /^SELECT id FROM projects /,
        ...reads(
          'SELECT fp\\.name FROM features fp WHERE fp\\.project_id = \\? AND fp\\.archived_at IS NULL',
          {
            scan: true,
            onFeatures: 'f\\.project_id = \\? AND f\\.archived_at IS NULL',
            cold: true,
          },
        ),
        /^COMMIT$/,
        /^INSERT INTO events /,
        // The keep: one transaction, its statements at most about 1 MiB each.
        /^(BEGIN|START TRANSACTION)/,
      ];
      const inside = insideOf(statements);
      let keep = inside.slice(patterns.length, -1);
      if (dialectOf(t.dataSource) === 'sqlite') {
        // Written through a page cache as small as the read connections': the app's is read,
        // lowered for the keep's statements and put back.
        const [{ cache_size: appCache }] = await t.dataSource.query('PRAGMA cache_size');
        expect(appCache).not.toBe(READER_CACHE_SIZE);
        expect(keep.slice(0, 2)).toEqual([
          'PRAGMA cache_size',
          `PRAGMA cache_size = ${READER_CACHE_SIZE}`,
        ]);
        expect(keep.at(-1)).toBe(`PRAGMA cache_size = ${appCache}`);
        keep = keep.slice(2, -1);
      }
      expect(keep.length).toBeGreaterThanOrEqual(1);
      expect(keep.length).toBeLessThanOrEqual(3);
      keep.forEach((sql) => expect(sql).toMatch(/^INSERT INTO export_kept_runs /));
      expect(inside.at(-1)).toBe('COMMIT');
      inside.slice(0, patterns.length).forEach((sql, i) => expect(sql).toMatch(patterns[i]));
      // Runs of at most 256 features: at least four for the 1,000.
      const [{ kept }] = await t.dataSource.query(
        `SELECT COUNT(*) AS kept FROM export_kept_runs WHERE environment_name = 'development'
            AND first_feature IN (SELECT name FROM features WHERE project_id = 'large')`,
      );
      expect(Number(kept)).toBeGreaterThanOrEqual(4);
    });

    it('by names: the list goes into a temporary table once, which each read joins', async () => {
      const { statements } = await measure({
        environment: 'development',
        features: ['large-000001', 'small-000001'],
      });
      const patterns = [
        /^SELECT name FROM environments /,
        /^DROP (TEMPORARY )?TABLE IF EXISTS (temp\.)?export_selection$/,
        /^CREATE TEMP(ORARY)? TABLE export_selection /,
        /^INSERT INTO export_selection \(name\) SELECT \w+\.?\w* FROM (json_each|JSON_TABLE)\(\?/,
        ...reads('SELECT sel\\.name FROM export_selection sel', { scan: false }),
        /^DROP (TEMPORARY )?TABLE IF EXISTS (temp\.)?export_selection$/,
        /^COMMIT$/,
        /^INSERT INTO events /,
      ];
      const inside = insideOf(statements);
      expect(inside).toHaveLength(patterns.length);
      inside.forEach((sql, i) => expect(sql).toMatch(patterns[i]));
    });

    it('concurrent exports each see their own selection (one temporary table per connection)', async () => {
      const bodies = Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? { environment: 'development', project: 'large' }
          : { environment: 'development', features: ['small-000001', 'small-000002'] },
      );
      const documents = await Promise.all(bodies.map((body) => exportOf(t, body)));
      expect(documents.map((document) => document.features.length)).toEqual([
        1000, 2, 1000, 2, 1000, 2,
      ]);
      // and the connection is clean afterwards
      expect(
        (await exportOf(t, { environment: 'development', tag: 'small' })).features,
      ).toHaveLength(10);
    });

    it.each([
      ['project', (size: string) => ({ project: size })],
      ['tag', (size: string) => ({ tag: size })],
      [
        'names',
        (size: string) => ({
          features: Array.from({ length: size === 'small' ? 10 : 1000 }, (_, i) =>
            bulkFeatureName(size, i + 1),
          ),
        }),
      ],
    ])('by %s: the same count for 10 and 1,000 features', async (_rule, selector) => {
      const small = await measure({ environment: 'development', ...selector('small') });
      const large = await measure({ environment: 'development', ...selector('large') });
      expect(small.document.features.length).toBeLessThan(20);
      expect(large.document.features.length).toBeGreaterThanOrEqual(1000);
      expect(large.document.featureStrategies.length).toBeGreaterThanOrEqual(2000);
      expect(large.count).toBe(small.count);
    });
  });
});
