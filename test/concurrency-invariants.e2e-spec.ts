import { createFeature, createStrategy, envUrl, featureUrl } from './feature-fixtures';
import { archive } from './export-fixtures';
import { galeraNodes, startReplicasOnTwoNodes } from './support/galera-replicas';
import { startTestApp, TestApp } from './support/test-app';

/** Where the racing requests go: `first` and `second` (one app, or two replicas), and the end. */
interface Racers {
  first: TestApp;
  second: TestApp;
  close(): Promise<void>;
}

/**
 * The invariants of issue 13, item 1, under concurrent requests: each test sends its requests
 * all at once, over several rounds, and then checks both the answers and the stored data. On
 * MariaDB these raced before the deciding rows were locked (D1, D2, D3, D13, D16); on SQLite the
 * transactions are serialised, and the same outcome must hold. Of two racing requests, one goes
 * to `first` and the other to `second`; setup and the final checks use `first`.
 */
function describeRaces(title: string, ROUNDS: number, start: () => Promise<Racers>): void {
  describe(title, () => {
    let racers: Racers;
    let t: TestApp;
    let other: TestApp;
    const deps = (child: string) => `${featureUrl(child)}/dependencies`;
    const rounds = <T>(make: (i: number) => Promise<T>) =>
      Promise.all(Array.from({ length: ROUNDS }, (_, i) => make(i)));
    /** The i-th of many identical requests: alternately to each side. */
    const side = (i: number) => (i % 2 === 0 ? t : other);

    beforeAll(async () => {
      racers = await start();
      ({ first: t, second: other } = racers);
    });
    afterAll(() => racers?.close());

    it('D1: two features made to depend on each other at once: one wins, no cycle', async () => {
      await rounds(async (i) => {
        await createFeature(t, `cyc-a-${i}`);
        await createFeature(t, `cyc-b-${i}`);
      });
      const answers = await rounds((i) =>
        Promise.all([
          t.admin.post(deps(`cyc-a-${i}`), { feature: `cyc-b-${i}` }),
          other.admin.post(deps(`cyc-b-${i}`), { feature: `cyc-a-${i}` }),
        ]),
      );
      for (const pair of answers) {
        expect(pair.map((res) => res.status).sort()).toEqual([201, 400]);
        expect(pair.find((res) => res.status === 400)?.body.name).toBe('ValidationError');
      }
      const cycles = await t.dataSource.query(
        `SELECT a.child FROM feature_dependencies a
         JOIN feature_dependencies b ON b.child = a.parent AND b.parent = a.child`,
      );
      expect(cycles).toEqual([]);
      const edges = await t.dataSource.query(
        `SELECT child FROM feature_dependencies WHERE child LIKE 'cyc-%'`,
      );
      expect(edges).toHaveLength(ROUNDS);
    });

    it('D2: a dependency added while its parent is archived: never an archived parent with an active child', async () => {
      await rounds(async (i) => {
        await createFeature(t, `arch-p-${i}`);
        await createFeature(t, `arch-c-${i}`);
      });
      const answers = await rounds((i) =>
        Promise.all([
          t.admin.post(deps(`arch-c-${i}`), { feature: `arch-p-${i}` }),
          other.admin.delete(featureUrl(`arch-p-${i}`)),
        ]),
      );
      for (const [add, archive] of answers) {
        // Either the dependency came first and blocks the archiving, or the archiving came first
        // and the archived feature cannot become a parent.
        expect([
          [201, 409],
          [400, 204],
        ]).toContainEqual([add.status, archive.status]);
      }
      const broken = await t.dataSource.query(
        `SELECT d.child FROM feature_dependencies d
         JOIN features p ON p.name = d.parent JOIN features c ON c.name = d.child
        WHERE p.archived_at IS NOT NULL AND c.archived_at IS NULL`,
      );
      expect(broken).toEqual([]);
    });

    it('D1: an import adding child → parent while the parent gains a parent of its own: never a chain', async () => {
      await rounds(async (i) => {
        await createFeature(t, `chain-p-${i}`);
        await createFeature(t, `chain-q-${i}`);
      });
      const importing = (i: number) => ({
        project: 'default',
        environment: 'development',
        data: {
          features: [{ name: `chain-c-${i}` }],
          featureStrategies: [],
          featureEnvironments: [],
          featureTags: [],
          tagTypes: [],
          contextFields: [],
          segments: [],
          dependencies: [{ feature: `chain-c-${i}`, dependencies: [{ feature: `chain-p-${i}` }] }],
        },
      });
      const answers = await rounds((i) =>
        Promise.all([
          t.admin.post('/api/admin/features-batch/import', importing(i)),
          // Started a little later round by round, so that some land while the import writes.
          new Promise((resolve) => setTimeout(resolve, 2 * i)).then(() =>
            other.admin.post(deps(`chain-p-${i}`), { feature: `chain-q-${i}` }),
          ),
        ]),
      );
      for (const [imported, added] of answers) {
        // Either the import came first (chain-p now has a child and cannot gain a parent), or
        // the edge did (chain-p now has a parent and cannot become one).
        expect([
          [204, 400],
          [400, 201],
        ]).toContainEqual([imported.status, added.status]);
        const refused = imported.status === 400 ? imported : added;
        expect(JSON.stringify(refused.body)).toMatch(/chain|parent cannot/);
      }
      const chains = await t.dataSource.query(
        `SELECT a.child FROM feature_dependencies a JOIN feature_dependencies b ON b.child = a.parent
          WHERE a.child LIKE 'chain-%'`,
      );
      expect(chains).toEqual([]);
    });

    /** An import body of these new features, each enabled in development with one strategy. */
    const importOf = (names: string[], description: string) => ({
      project: 'default',
      environment: 'development',
      data: {
        features: names.map((name) => ({ name, description })),
        featureStrategies: names.map((name) => ({ name: 'default', featureName: name })),
        featureEnvironments: names.map((name) => ({ featureName: name, enabled: true })),
        featureTags: [],
        tagTypes: [],
        contextFields: [],
        segments: [],
        dependencies: [],
      },
    });

    it('the same new features imported three times at once: every import succeeds', async () => {
      // Round after round: the three imports of a round race each other, and only them (sixty
      // imports at once over a Galera cluster outlast the retries of certification conflicts,
      // which answer 503 by design; docs/decisions-galera.md).
      const answers = [];
      for (let i = 0; i < ROUNDS; i++) {
        const body = importOf(
          Array.from({ length: 20 }, (_, k) => `twice-${i}-${k}`),
          'imported',
        );
        answers.push(
          await Promise.all(
            [t, other, t].map((app) => app.admin.post('/api/admin/features-batch/import', body)),
          ),
        );
      }
      // An import is an upsert: the ones that find the features created meanwhile overwrite
      // them, rather than failing on their keys.
      expect(answers.flat().map((res) => res.status)).toEqual(Array(3 * ROUNDS).fill(204));
      const [row] = await t.dataSource.query(
        `SELECT COUNT(*) AS n FROM feature_strategies WHERE feature_name LIKE 'twice-%'`,
      );
      expect(Number(row.n)).toBe(20 * ROUNDS);
    });

    it('a feature created in another project while an import names it: the import never writes it', async () => {
      await t.admin.post('/api/admin/projects', { id: 'racing', name: 'Racing' });
      const answers = await rounds((i) =>
        Promise.all([
          t.admin.post(
            '/api/admin/features-batch/import',
            importOf([`moved-${i}`], 'from the import'),
          ),
          new Promise((resolve) => setTimeout(resolve, 2 * i)).then(() =>
            other.admin.post('/api/admin/projects/racing/features', {
              name: `moved-${i}`,
              description: 'made in racing',
            }),
          ),
        ]),
      );
      for (const [imported, created] of answers) {
        // Either the import came first (the name is taken), or the feature did, and the import
        // reports it as living in another project.
        expect([
          [204, 409],
          [400, 201],
        ]).toContainEqual([imported.status, created.status]);
        if (imported.status === 400) {
          expect(JSON.stringify(imported.body)).toMatch(/exist in another project/);
        }
      }
      const touched = await t.dataSource.query(
        `SELECT f.name FROM features f WHERE f.project_id = 'racing'
           AND (f.description <> 'made in racing'
             OR EXISTS (SELECT 1 FROM feature_strategies s WHERE s.feature_name = f.name))`,
      );
      expect(touched).toEqual([]);
    });

    it('an archived feature revived twice and deleted for good at once: one of them wins', async () => {
      await rounds(async (i) => {
        await createFeature(t, `revived-${i}`);
        await archive(t, `revived-${i}`);
      });
      const answers = await rounds((i) =>
        Promise.all([
          t.admin.post(`/api/admin/archive/revive/revived-${i}`, {}),
          other.admin.post(`/api/admin/archive/revive/revived-${i}`, {}),
          side(i + 1).admin.delete(`/api/admin/archive/revived-${i}`),
        ]),
      );
      for (const statuses of answers.map((trio) => trio.map((res) => res.status))) {
        // One revive, then the other sees an active feature (400) and so does the delete (409);
        // or the delete, and neither revive finds the feature.
        expect([
          [200, 400, 409],
          [400, 200, 409],
          [404, 404, 204],
        ]).toContainEqual(statuses);
      }
      const revivedTwice = await t.dataSource.query(
        `SELECT feature_name FROM events WHERE type = 'feature-revived'
           AND feature_name LIKE 'revived-%' GROUP BY feature_name HAVING COUNT(*) > 1`,
      );
      expect(revivedTwice).toEqual([]);
    });

    it('a feature archived while an import overwrites it: archived first, the import leaves it alone', async () => {
      // A project per round, so that each import's event can be told apart.
      await rounds(async (i) => {
        await t.admin.post('/api/admin/projects', { id: `arch-i-${i}`, name: `Arch ${i}` });
        await createFeature(t, `arch-i-f-${i}`, { description: 'before' }, `arch-i-${i}`);
      });
      const answers = await rounds((i) =>
        Promise.all([
          t.admin.post('/api/admin/features-batch/import', {
            ...importOf([`arch-i-f-${i}`], 'imported'),
            project: `arch-i-${i}`,
          }),
          new Promise((resolve) => setTimeout(resolve, i % 4)).then(() =>
            other.admin.delete(featureUrl(`arch-i-f-${i}`, `arch-i-${i}`)),
          ),
        ]),
      );
      expect(answers.flat().map((res) => res.status)).toEqual(Array(2 * ROUNDS).fill(204));
      for (let i = 0; i < ROUNDS; i++) {
        const events: Array<{ type: string }> = await t.dataSource.query(
          `SELECT type FROM events WHERE project = ? AND type IN ('feature-archived', 'features-imported')
            ORDER BY id`,
          [`arch-i-${i}`],
        );
        const [row] = await t.dataSource.query(
          `SELECT f.description, (SELECT COUNT(*) FROM feature_strategies s
              WHERE s.feature_name = f.name) AS strategies
             FROM features f WHERE f.name = ?`,
          [`arch-i-f-${i}`],
        );
        const importedFirst = events[0]?.type === 'features-imported';
        expect([row.description, Number(row.strategies)]).toEqual(
          importedFirst ? ['imported', 1] : ['before', 0],
        );
      }
    });

    it('D13: the same dependency POSTed many times at once: one 201, the rest 200 (unchanged)', async () => {
      await createFeature(t, 'same-p');
      await createFeature(t, 'same-c');
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          side(i).admin.post(deps('same-c'), { feature: 'same-p' }),
        ),
      );
      expect(answers.map((res) => res.status).sort()).toEqual([
        200, 200, 200, 200, 200, 200, 200, 200, 200, 201,
      ]);
      const rows = await t.dataSource.query(
        `SELECT parent FROM feature_dependencies WHERE child = 'same-c'`,
      );
      expect(rows).toEqual([{ parent: 'same-p' }]);
    });

    /** Constraint names of strategies and segments that name no context field. */
    async function danglingConstraints(): Promise<string[]> {
      const fields = new Set(
        (await t.dataSource.query(`SELECT name FROM context_fields`)).map(
          (row: { name: string }) => row.name,
        ),
      );
      const stored: Array<{ constraints: string | unknown[] }> = [
        ...(await t.dataSource.query(`SELECT constraints FROM feature_strategies`)),
        ...(await t.dataSource.query(`SELECT constraints FROM segments`)),
      ];
      return stored
        .flatMap((row) =>
          typeof row.constraints === 'string' ? JSON.parse(row.constraints) : row.constraints,
        )
        .map((c: { contextName: string }) => c.contextName)
        .filter((name: string) => !fields.has(name));
    }

    it('D3: a strategy constraint created while its context field is deleted never names a deleted field', async () => {
      await createFeature(t, 'ctx-f');
      await rounds((i) => t.admin.post('/api/admin/context', { name: `ctx-s-${i}` }).expect(201));
      const answers = await rounds((i) =>
        Promise.all([
          t.admin.post(`${envUrl('ctx-f', 'development')}/strategies`, {
            name: 'default',
            constraints: [{ contextName: `ctx-s-${i}`, operator: 'IN', values: ['x'] }],
          }),
          other.admin.delete(`/api/admin/context/ctx-s-${i}`),
        ]),
      );
      for (const [create, remove] of answers) {
        expect([
          [201, 409],
          [400, 204],
        ]).toContainEqual([create.status, remove.status]);
      }
      expect(await danglingConstraints()).toEqual([]);
    });

    it('D3: a segment constraint created while its context field is deleted never names a deleted field', async () => {
      await rounds((i) => t.admin.post('/api/admin/context', { name: `ctx-g-${i}` }).expect(201));
      const answers = await rounds((i) =>
        Promise.all([
          t.admin.post('/api/admin/segments', {
            name: `seg-g-${i}`,
            constraints: [{ contextName: `ctx-g-${i}`, operator: 'IN', values: ['x'] }],
          }),
          other.admin.delete(`/api/admin/context/ctx-g-${i}`),
        ]),
      );
      for (const [create, remove] of answers) {
        expect([
          [201, 409],
          [400, 204],
        ]).toContainEqual([create.status, remove.status]);
      }
      expect(await danglingConstraints()).toEqual([]);
    });

    it('D3: a strategy linked to a segment while the segment is deleted never names a deleted segment', async () => {
      await createFeature(t, 'seg-f');
      const ids = await rounds(async (i) => {
        const res = await t.admin
          .post('/api/admin/segments', { name: `seg-d-${i}`, constraints: [] })
          .expect(201);
        return res.body.id as number;
      });
      const answers = await Promise.all(
        ids.map((id) =>
          Promise.all([
            t.admin.post(`${envUrl('seg-f', 'development')}/strategies`, {
              name: 'default',
              segments: [id],
            }),
            other.admin.delete(`/api/admin/segments/${id}`),
          ]),
        ),
      );
      for (const [create, remove] of answers) {
        expect([
          [201, 409],
          [400, 204],
        ]).toContainEqual([create.status, remove.status]);
      }
      const dangling = await t.dataSource.query(
        `SELECT l.segment_id FROM feature_strategy_segments l
         LEFT JOIN segments s ON s.id = l.segment_id WHERE s.id IS NULL`,
      );
      expect(dangling).toEqual([]);
    });

    /** An import body of one new feature with one strategy: this constraint, these segments. */
    const importWith = (
      feature: string,
      constraints: object[],
      segments: Array<{ id: number; name: string }>,
    ) => ({
      project: 'default',
      environment: 'development',
      data: {
        features: [{ name: feature }],
        featureStrategies: [
          {
            name: 'default',
            featureName: feature,
            constraints,
            segments: segments.map((segment) => segment.id),
          },
        ],
        featureEnvironments: [],
        featureTags: [],
        tagTypes: [],
        contextFields: [],
        segments,
        dependencies: [],
      },
    });

    it('D3: an import whose constraint names a context field being deleted never leaves it named', async () => {
      await rounds((i) => t.admin.post('/api/admin/context', { name: `ctx-i-${i}` }).expect(201));
      const answers = await rounds((i) =>
        Promise.all([
          t.admin.post(
            '/api/admin/features-batch/import',
            importWith(
              `ctx-i-f-${i}`,
              [{ contextName: `ctx-i-${i}`, operator: 'IN', values: ['x'] }],
              [],
            ),
          ),
          other.admin.delete(`/api/admin/context/ctx-i-${i}`),
        ]),
      );
      for (const [imported, remove] of answers) {
        expect([
          [204, 409],
          [400, 204],
        ]).toContainEqual([imported.status, remove.status]);
      }
      expect(await danglingConstraints()).toEqual([]);
    });

    it('D3: an import linking a segment being deleted answers 400 (segment missing), never a 409', async () => {
      const ids = await rounds(async (i) => {
        const res = await t.admin
          .post('/api/admin/segments', { name: `seg-i-${i}`, constraints: [] })
          .expect(201);
        return res.body.id as number;
      });
      const answers = await Promise.all(
        ids.map((id, i) =>
          Promise.all([
            t.admin.post(
              '/api/admin/features-batch/import',
              // The file's own id for the segment differs from ours: segments match by name.
              importWith(`seg-i-f-${i}`, [], [{ id: 1000 + i, name: `seg-i-${i}` }]),
            ),
            other.admin.delete(`/api/admin/segments/${id}`),
          ]),
        ),
      );
      for (const [imported, remove] of answers) {
        expect([
          [204, 409],
          [400, 204],
        ]).toContainEqual([imported.status, remove.status]);
        if (imported.status === 400) expect(JSON.stringify(imported.body)).toMatch(/seg-i-/);
      }
      const dangling = await t.dataSource.query(
        `SELECT l.segment_id FROM feature_strategy_segments l
         LEFT JOIN segments s ON s.id = l.segment_id WHERE s.id IS NULL`,
      );
      expect(dangling).toEqual([]);
    });

    it('D16: strategies created at once without a sortOrder get distinct sortOrders, after the existing ones', async () => {
      await createFeature(t, 'order-f');
      await createStrategy(t, 'order-f', 'development', { name: 'default', sortOrder: 3 });
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          side(i).admin.post(`${envUrl('order-f', 'development')}/strategies`, { name: 'default' }),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual(Array(10).fill(201));
      const orders = answers.map((res) => res.body.sortOrder as number).sort((a, b) => a - b);
      expect(orders).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    });
  });
}

describeRaces('invariants under concurrent writes', 8, async () => {
  const app = await startTestApp();
  return { first: app, second: app, close: () => app.close() };
});

// On a Galera cluster (`npm run test:galera` sets TEST_GALERA_URLS), the same races with the two
// requests of each pair sent to two replicas on two nodes: row locks hold on their own node only,
// so here the invariants rest on the deciding rows being written (docs/decisions-galera.md).
// On a plain run there is no cluster, and these cases are not registered.
if (galeraNodes.length >= 2) {
  // More rounds: across nodes a race is lost only when both transactions are in flight at once.
  describeRaces('invariants under concurrent writes, across two Galera nodes', 20, async () => {
    const { a, b, close } = await startReplicasOnTwoNodes();
    return { first: a, second: b, close };
  });
}
