import {
  archive,
  create,
  createStrategyIn,
  emptyExport,
  enable,
  EXPORT,
  ExportDocument,
  exportOf,
  expectStatus,
  tag,
} from './export-fixtures';
import { createFeature, envUrl, featureUrl } from './feature-fixtures';
import { startTestApp, TestApp } from './support/test-app';

/*
 * The contents of an export (rules.md §6), compared as whole documents. The data set is built
 * through the admin API and uses every exported field: two projects, archived features,
 * strategies with constraints on custom context fields with legal values, segments, strategy and
 * environment variants with stickiness and overrides, tags of two types, dependencies, and names
 * whose byte order differs from a locale's ("Zebra" before "beta", "Ärger" after "payments").
 */
describe('export: contents', () => {
  let t: TestApp;
  const segment: Record<'staff' | 'vip' | 'betaTesters', number> = {
    staff: 0,
    vip: 0,
    betaTesters: 0,
  };
  const strategyId: Record<
    'checkoutKill' | 'checkoutRollout' | 'checkoutUser' | 'checkoutProd' | 'legacy' | 'betaSearch',
    string
  > = {
    checkoutKill: '',
    checkoutRollout: '',
    checkoutUser: '',
    checkoutProd: '',
    legacy: '',
    betaSearch: '',
  };

  beforeAll(async () => {
    t = await startTestApp();
    await create(t, '/api/admin/projects', { id: 'beta', name: 'Beta' });

    await create(t, '/api/admin/context', {
      name: 'region',
      description: 'Where the user is',
      legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }],
    });
    await create(t, '/api/admin/context', { name: 'tenant', stickiness: true, sortOrder: 7 });
    await create(t, '/api/admin/context', {
      name: 'plan',
      legalValues: [{ value: 'pro' }, { value: 'free' }],
    });
    await create(t, '/api/admin/context', { name: 'appVersion' });
    await create(t, '/api/admin/context', { name: 'segmentOnly', legalValues: [{ value: 'x' }] });
    await create(t, '/api/admin/context', { name: 'unused' });

    segment.staff = (
      await create(t, '/api/admin/segments', {
        name: 'staff',
        constraints: [{ contextName: 'segmentOnly', operator: 'IN', values: ['x'] }],
      })
    ).body.id;
    segment.vip = (
      await create(t, '/api/admin/segments', { name: 'VIP', constraints: [] })
    ).body.id;
    segment.betaTesters = (
      await create(t, '/api/admin/segments', { name: 'beta-testers', constraints: [] })
    ).body.id;
    await create(t, '/api/admin/segments', { name: 'unused-segment', constraints: [] });

    await create(t, '/api/admin/tag-types', {
      name: 'team',
      description: 'Owning team',
      icon: 'people',
    });

    await createFeature(t, 'checkout', {
      type: 'release',
      description: 'New checkout',
      impressionData: true,
    });
    await createFeature(t, 'checkout-ui', { type: 'experiment' });
    await createFeature(t, 'Zebra', { type: 'operational' });
    await expectStatus(
      t.admin.patch(featureUrl('Zebra'), [{ op: 'replace', path: '/stale', value: true }]),
      200,
    );
    await createFeature(t, 'plain');
    await createFeature(t, 'legacy', { type: 'kill-switch', description: 'Old flow' });
    await createFeature(t, 'beta-search', { type: 'permission' }, 'beta');
    await createFeature(t, 'beta-old', {}, 'beta');

    strategyId.checkoutKill = await createStrategyIn(t, 'checkout', 'development', {
      name: 'default',
      title: 'Kill switch',
      disabled: true,
      sortOrder: 0,
    });
    strategyId.checkoutRollout = await createStrategyIn(t, 'checkout', 'development', {
      name: 'flexibleRollout',
      title: 'Europe first',
      sortOrder: 1,
      parameters: { rollout: '50', stickiness: 'tenant', groupId: 'checkout' },
      constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }],
      variants: [
        {
          name: 'blue',
          weight: 0,
          weightType: 'variable',
          stickiness: 'userId',
          payload: { type: 'string', value: 'blue' },
        },
      ],
      segments: [segment.staff, segment.vip],
    });
    strategyId.checkoutUser = await createStrategyIn(t, 'checkout', 'development', {
      name: 'default',
      sortOrder: 1,
      constraints: [{ contextName: 'userId', operator: 'NUM_GT', value: '10', inverted: true }],
    });
    strategyId.checkoutProd = await createStrategyIn(t, 'checkout', 'production', {
      name: 'default',
      constraints: [{ contextName: 'appVersion', operator: 'SEMVER_GT', value: '1.0.0' }],
    });
    strategyId.legacy = await createStrategyIn(t, 'legacy', 'development', {
      name: 'default',
      constraints: [
        {
          contextName: 'tenant',
          operator: 'STR_STARTS_WITH',
          values: ['acme'],
          caseInsensitive: true,
        },
      ],
      segments: [segment.betaTesters],
    });
    strategyId.betaSearch = await createStrategyIn(
      t,
      'beta-search',
      'development',
      {
        name: 'flexibleRollout',
        parameters: { rollout: '10', stickiness: 'random', groupId: 'search' },
        variants: [{ name: 'on', weight: 1000, weightType: 'fix', stickiness: 'default' }],
        segments: [segment.betaTesters],
      },
      'beta',
    );

    await expectStatus(
      t.admin.put(`${envUrl('checkout', 'development')}/variants`, [
        {
          name: 'control',
          weight: 0,
          weightType: 'variable',
          stickiness: 'sessionId',
          overrides: [{ contextName: 'plan', values: ['pro'] }],
        },
        {
          name: 'treatment',
          weight: 200,
          weightType: 'fix',
          payload: { type: 'json', value: '{"a":1}' },
        },
      ]),
      200,
    );
    await expectStatus(
      t.admin.put(`${envUrl('plain', 'development')}/variants`, [
        { name: 'only', weight: 1000, weightType: 'fix' },
      ]),
      200,
    );
    await enable(t, 'checkout', 'development');
    await enable(t, 'beta-search', 'development', 'beta');

    await tag(t, 'checkout', 'simple', 'beta');
    await tag(t, 'checkout', 'team', 'payments');
    await tag(t, 'checkout-ui', 'team', 'payments');
    await tag(t, 'checkout-ui', 'team', 'Ärger');
    await tag(t, 'legacy', 'simple', 'beta');
    await tag(t, 'beta-search', 'simple', 'payments');
    await tag(t, 'beta-search', 'simple', 'beta');
    await tag(t, 'beta-old', 'simple', 'old');

    await create(t, `${featureUrl('checkout-ui')}/dependencies`, {
      feature: 'checkout',
      variants: ['blue'],
    });
    await create(t, `${featureUrl('checkout-ui')}/dependencies`, {
      feature: 'Zebra',
      enabled: false,
    });

    await archive(t, 'legacy');
    await archive(t, 'beta-old', 'beta');
    // Created last, so that no project is linked to it: features without a row there.
    await create(t, '/api/admin/environments', { name: 'staging', type: 'preproduction' });
  });
  afterAll(() => t.close());

  /* The exported records, as rules.md §6 lists their fields. */

  const F = {
    zebra: {
      name: 'Zebra',
      description: null,
      type: 'operational',
      project: 'default',
      stale: true,
      impressionData: false,
      archived: false,
    },
    betaOld: {
      name: 'beta-old',
      description: null,
      type: 'release',
      project: 'beta',
      stale: false,
      impressionData: false,
      archived: true,
    },
    betaSearch: {
      name: 'beta-search',
      description: null,
      type: 'permission',
      project: 'beta',
      stale: false,
      impressionData: false,
      archived: false,
    },
    checkout: {
      name: 'checkout',
      description: 'New checkout',
      type: 'release',
      project: 'default',
      stale: false,
      impressionData: true,
      archived: false,
    },
    checkoutUi: {
      name: 'checkout-ui',
      description: null,
      type: 'experiment',
      project: 'default',
      stale: false,
      impressionData: false,
      archived: false,
    },
    legacy: {
      name: 'legacy',
      description: 'Old flow',
      type: 'kill-switch',
      project: 'default',
      stale: false,
      impressionData: false,
      archived: true,
    },
    plain: {
      name: 'plain',
      description: null,
      type: 'release',
      project: 'default',
      stale: false,
      impressionData: false,
      archived: false,
    },
  };

  const featureEnvironment = (
    name: string,
    enabled = false,
    variants: object[] = [],
    environment = 'development',
  ) => ({ name, featureName: name, environment, enabled, variants });

  const FE = {
    zebra: featureEnvironment('Zebra'),
    betaOld: featureEnvironment('beta-old'),
    betaSearch: featureEnvironment('beta-search', true),
    checkout: featureEnvironment('checkout', true, [
      {
        name: 'control',
        weight: 800,
        weightType: 'variable',
        stickiness: 'sessionId',
        overrides: [{ contextName: 'plan', values: ['pro'] }],
      },
      {
        name: 'treatment',
        weight: 200,
        weightType: 'fix',
        stickiness: 'default',
        payload: { type: 'json', value: '{"a":1}' },
      },
    ]),
    checkoutUi: featureEnvironment('checkout-ui'),
    legacy: featureEnvironment('legacy'),
    plain: featureEnvironment('plain', false, [
      { name: 'only', weight: 1000, weightType: 'fix', stickiness: 'default' },
    ]),
  };

  const S = {
    checkoutKill: () => ({
      id: strategyId.checkoutKill,
      name: 'default',
      featureName: 'checkout',
      title: 'Kill switch',
      parameters: {},
      constraints: [],
      variants: [],
      sortOrder: 0,
      disabled: true,
      segments: [],
    }),
    checkoutRollout: () => ({
      id: strategyId.checkoutRollout,
      name: 'flexibleRollout',
      featureName: 'checkout',
      title: 'Europe first',
      parameters: { rollout: '50', stickiness: 'tenant', groupId: 'checkout' },
      constraints: [
        {
          contextName: 'region',
          operator: 'IN',
          values: ['eu'],
          caseInsensitive: false,
          inverted: false,
        },
      ],
      variants: [
        {
          name: 'blue',
          weight: 1000,
          weightType: 'variable',
          stickiness: 'userId',
          payload: { type: 'string', value: 'blue' },
        },
      ],
      sortOrder: 1,
      disabled: false,
      segments: [segment.staff, segment.vip].sort((a, b) => a - b),
    }),
    checkoutUser: () => ({
      id: strategyId.checkoutUser,
      name: 'default',
      featureName: 'checkout',
      title: null,
      parameters: {},
      constraints: [
        {
          contextName: 'userId',
          operator: 'NUM_GT',
          value: '10',
          caseInsensitive: false,
          inverted: true,
        },
      ],
      variants: [],
      sortOrder: 1,
      disabled: false,
      segments: [],
    }),
    checkoutProd: () => ({
      id: strategyId.checkoutProd,
      name: 'default',
      featureName: 'checkout',
      title: null,
      parameters: {},
      constraints: [
        {
          contextName: 'appVersion',
          operator: 'SEMVER_GT',
          value: '1.0.0',
          caseInsensitive: false,
          inverted: false,
        },
      ],
      variants: [],
      sortOrder: 0,
      disabled: false,
      segments: [],
    }),
    legacy: () => ({
      id: strategyId.legacy,
      name: 'default',
      featureName: 'legacy',
      title: null,
      parameters: {},
      constraints: [
        {
          contextName: 'tenant',
          operator: 'STR_STARTS_WITH',
          values: ['acme'],
          caseInsensitive: true,
          inverted: false,
        },
      ],
      variants: [],
      sortOrder: 0,
      disabled: false,
      segments: [segment.betaTesters],
    }),
    betaSearch: () => ({
      id: strategyId.betaSearch,
      name: 'flexibleRollout',
      featureName: 'beta-search',
      title: null,
      parameters: { rollout: '10', stickiness: 'random', groupId: 'search' },
      constraints: [],
      variants: [{ name: 'on', weight: 1000, weightType: 'fix', stickiness: 'default' }],
      sortOrder: 0,
      disabled: false,
      segments: [segment.betaTesters],
    }),
  };

  /** checkout's three development strategies: sortOrder 0, then the two of sortOrder 1 by id. */
  const checkoutStrategies = () => [
    S.checkoutKill(),
    ...[S.checkoutRollout(), S.checkoutUser()].sort((a, b) => (a.id < b.id ? -1 : 1)),
  ];

  const CF = {
    appVersion: {
      name: 'appVersion',
      description: null,
      stickiness: false,
      sortOrder: 10,
      legalValues: [],
    },
    plan: {
      name: 'plan',
      description: null,
      stickiness: false,
      sortOrder: 10,
      legalValues: [{ value: 'pro' }, { value: 'free' }],
    },
    region: {
      name: 'region',
      description: 'Where the user is',
      stickiness: false,
      sortOrder: 10,
      legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }],
    },
    sessionId: {
      name: 'sessionId',
      description: 'An identifier of the current session',
      stickiness: true,
      sortOrder: 3,
      legalValues: [],
    },
    tenant: { name: 'tenant', description: null, stickiness: true, sortOrder: 7, legalValues: [] },
    userId: {
      name: 'userId',
      description: 'An identifier of the current user',
      stickiness: true,
      sortOrder: 1,
      legalValues: [],
    },
  };
  /** What checkout's development configuration names, in byte order. */
  const checkoutContextFields = [CF.plan, CF.region, CF.sessionId, CF.tenant, CF.userId];

  const SEG = {
    vip: () => ({ id: segment.vip, name: 'VIP' }),
    betaTesters: () => ({ id: segment.betaTesters, name: 'beta-testers' }),
    staff: () => ({ id: segment.staff, name: 'staff' }),
  };

  const featureTag = (featureName: string, tagType: string, tagValue: string) => ({
    featureName,
    tagType,
    tagValue,
    createdByUserId: null,
  });
  const TAGS = {
    betaSearch: [
      featureTag('beta-search', 'simple', 'beta'),
      featureTag('beta-search', 'simple', 'payments'),
    ],
    checkout: [
      featureTag('checkout', 'simple', 'beta'),
      featureTag('checkout', 'team', 'payments'),
    ],
    checkoutUi: [
      featureTag('checkout-ui', 'team', 'payments'),
      featureTag('checkout-ui', 'team', 'Ärger'),
    ],
    legacy: [featureTag('legacy', 'simple', 'beta')],
    betaOld: [featureTag('beta-old', 'simple', 'old')],
  };

  const TT = {
    simple: {
      name: 'simple',
      description: 'Used to simplify filtering of features',
      icon: null,
    },
    team: { name: 'team', description: 'Owning team', icon: 'people' },
  };

  const checkoutUiDependencies = {
    feature: 'checkout-ui',
    dependencies: [
      { feature: 'Zebra', enabled: false, variants: [] },
      { feature: 'checkout', enabled: true, variants: ['blue'] },
    ],
  };

  const exportDefaultProject = (): ExportDocument => ({
    features: [F.zebra, F.checkout, F.checkoutUi, F.plain],
    featureEnvironments: [FE.zebra, FE.checkout, FE.checkoutUi, FE.plain],
    featureStrategies: checkoutStrategies(),
    contextFields: checkoutContextFields,
    segments: [SEG.vip(), SEG.staff()],
    featureTags: [...TAGS.checkout, ...TAGS.checkoutUi],
    tagTypes: [TT.simple, TT.team],
    dependencies: [checkoutUiDependencies],
  });

  const exportBetaProject = (): ExportDocument => ({
    features: [F.betaSearch],
    featureEnvironments: [FE.betaSearch],
    featureStrategies: [S.betaSearch()],
    // stickiness "random" and "default" are not context fields
    contextFields: [],
    segments: [SEG.betaTesters()],
    featureTags: TAGS.betaSearch,
    tagTypes: [TT.simple],
    dependencies: [],
  });

  const exportTagPayments = (): ExportDocument => ({
    features: [F.betaSearch, F.checkout, F.checkoutUi],
    featureEnvironments: [FE.betaSearch, FE.checkout, FE.checkoutUi],
    featureStrategies: [S.betaSearch(), ...checkoutStrategies()],
    contextFields: checkoutContextFields,
    segments: [SEG.vip(), SEG.betaTesters(), SEG.staff()],
    featureTags: [...TAGS.betaSearch, ...TAGS.checkout, ...TAGS.checkoutUi],
    tagTypes: [TT.simple, TT.team],
    dependencies: [checkoutUiDependencies],
  });

  describe('selection', () => {
    it('by project: its active features (archived left out), with everything they use', async () => {
      expect(await exportOf(t, { environment: 'development', project: 'default' })).toEqual(
        exportDefaultProject(),
      );
      expect(await exportOf(t, { environment: 'development', project: 'beta' })).toEqual(
        exportBetaProject(),
      );
    });

    it('by names: those features, archived ones included; unknown names and repeats select nothing more', async () => {
      const body = {
        environment: 'development',
        features: ['legacy', 'nope', 'checkout', 'legacy'],
      };
      expect(await exportOf(t, body)).toEqual({
        features: [F.checkout, F.legacy],
        featureEnvironments: [FE.checkout, FE.legacy],
        featureStrategies: [...checkoutStrategies(), S.legacy()],
        contextFields: checkoutContextFields,
        segments: [SEG.vip(), SEG.betaTesters(), SEG.staff()],
        featureTags: [...TAGS.checkout, ...TAGS.legacy],
        tagTypes: [TT.simple, TT.team],
        dependencies: [],
      });
    });

    it('by names: only unknown names give an empty export (200)', async () => {
      expect(await exportOf(t, { environment: 'development', features: ['nope'] })).toEqual(
        emptyExport(),
      );
    });

    it('by tag: features with that value under any tag type, across projects', async () => {
      expect(await exportOf(t, { environment: 'development', tag: 'payments' })).toEqual(
        exportTagPayments(),
      );
    });

    it('by tag: archived features are included', async () => {
      expect(await exportOf(t, { environment: 'development', tag: 'old' })).toEqual({
        features: [F.betaOld],
        featureEnvironments: [FE.betaOld],
        featureStrategies: [],
        contextFields: [],
        segments: [],
        featureTags: TAGS.betaOld,
        tagTypes: [TT.simple],
        dependencies: [],
      });
      expect(
        (await exportOf(t, { environment: 'development', tag: 'beta' })).features.map(
          (f) => (f as { name: string }).name,
        ),
      ).toEqual(['beta-search', 'checkout', 'legacy']);
    });

    it('by tag: an unknown tag selects nothing (200)', async () => {
      expect(await exportOf(t, { environment: 'development', tag: 'no-such-tag' })).toEqual(
        emptyExport(),
      );
    });

    it('features: [] alone: every active feature of every project', async () => {
      expect(await exportOf(t, { environment: 'development', features: [] })).toEqual({
        features: [F.zebra, F.betaSearch, F.checkout, F.checkoutUi, F.plain],
        featureEnvironments: [FE.zebra, FE.betaSearch, FE.checkout, FE.checkoutUi, FE.plain],
        featureStrategies: [S.betaSearch(), ...checkoutStrategies()],
        contextFields: checkoutContextFields,
        segments: [SEG.vip(), SEG.betaTesters(), SEG.staff()],
        featureTags: [...TAGS.betaSearch, ...TAGS.checkout, ...TAGS.checkoutUi],
        tagTypes: [TT.simple, TT.team],
        dependencies: [checkoutUiDependencies],
      });
    });
  });

  describe('precedence: tag → non-empty features → project → features: []', () => {
    it('a tag wins over names and project; the project is then not even looked up', async () => {
      expect(
        await exportOf(t, {
          environment: 'development',
          tag: 'payments',
          features: ['plain'],
          project: 'no-such-project',
        }),
      ).toEqual(exportTagPayments());
    });

    it('an unknown tag still wins: nothing is selected', async () => {
      expect(
        await exportOf(t, {
          environment: 'development',
          tag: 'no-such-tag',
          features: ['checkout'],
          project: 'beta',
        }),
      ).toEqual(emptyExport());
    });

    it('non-empty features win over project (an unknown project is ignored)', async () => {
      expect(
        await exportOf(t, {
          environment: 'development',
          features: ['plain'],
          project: 'no-such-project',
        }),
      ).toEqual({
        ...emptyExport(),
        features: [F.plain],
        featureEnvironments: [FE.plain],
      });
      expect(
        await exportOf(t, {
          environment: 'development',
          features: ['beta-search'],
          project: 'default',
        }),
      ).toEqual(exportBetaProject());
    });

    it('features: [] with a project selects that project', async () => {
      expect(
        await exportOf(t, { environment: 'development', features: [], project: 'beta' }),
      ).toEqual(exportBetaProject());
    });
  });

  describe('environments', () => {
    it('exports the configuration of the named environment only', async () => {
      expect(await exportOf(t, { environment: 'production', features: ['checkout'] })).toEqual({
        features: [F.checkout],
        featureEnvironments: [featureEnvironment('checkout', false, [], 'production')],
        featureStrategies: [S.checkoutProd()],
        contextFields: [CF.appVersion],
        segments: [],
        featureTags: TAGS.checkout,
        tagTypes: [TT.simple, TT.team],
        dependencies: [],
      });
    });

    it('features without a row in the environment are exported without configuration', async () => {
      expect(
        await exportOf(t, { environment: 'staging', features: ['checkout-ui', 'checkout'] }),
      ).toEqual({
        ...emptyExport(),
        features: [F.checkout, F.checkoutUi],
        featureTags: [...TAGS.checkout, ...TAGS.checkoutUi],
        tagTypes: [TT.simple, TT.team],
        dependencies: [checkoutUiDependencies],
      });
    });
  });

  describe('the document', () => {
    it('has the fields of rules.md §6, in its order', async () => {
      const res = await expectStatus(
        t.admin.post(EXPORT, { environment: 'development', tag: 'payments' }),
        200,
      );
      const body = res.body as Record<string, Array<Record<string, unknown>>>;
      expect(Object.keys(body)).toEqual([
        'features',
        'featureEnvironments',
        'featureStrategies',
        'contextFields',
        'segments',
        'featureTags',
        'tagTypes',
        'dependencies',
      ]);
      const keys = (list: string) => Object.keys(body[list][0]);
      expect(keys('features')).toEqual([
        'name',
        'description',
        'type',
        'project',
        'stale',
        'impressionData',
        'archived',
      ]);
      expect(keys('featureEnvironments')).toEqual([
        'name',
        'featureName',
        'environment',
        'enabled',
        'variants',
      ]);
      expect(keys('featureStrategies')).toEqual([
        'id',
        'name',
        'featureName',
        'title',
        'parameters',
        'constraints',
        'variants',
        'sortOrder',
        'disabled',
        'segments',
      ]);
      expect(keys('contextFields')).toEqual([
        'name',
        'description',
        'stickiness',
        'sortOrder',
        'legalValues',
      ]);
      expect(keys('segments')).toEqual(['id', 'name']);
      expect(keys('featureTags')).toEqual([
        'featureName',
        'tagType',
        'tagValue',
        'createdByUserId',
      ]);
      expect(keys('tagTypes')).toEqual(['name', 'description', 'icon']);
      expect(keys('dependencies')).toEqual(['feature', 'dependencies']);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-disposition']).toBeUndefined();
    });

    it('is byte-identical when the same data is exported twice', async () => {
      const body = { environment: 'development', features: [] };
      const first = await expectStatus(t.admin.post(EXPORT, body), 200);
      const second = await expectStatus(t.admin.post(EXPORT, body), 200);
      expect(second.text).toBe(first.text);
      expect(first.text.length).toBeGreaterThan(1000);
    });

    it('downloadFile: true adds Content-Disposition with the UTC time; the body is the same', async () => {
      const body = { environment: 'development', project: 'default' };
      const plain = await expectStatus(t.admin.post(EXPORT, { ...body, downloadFile: false }), 200);
      expect(plain.headers['content-disposition']).toBeUndefined();

      const before = Math.floor(Date.now() / 1000) * 1000;
      const download = await expectStatus(
        t.admin.post(EXPORT, { ...body, downloadFile: true }),
        200,
      );
      const after = Date.now();
      const match =
        /^attachment; filename="export-development-(\d{4})-(\d\d)-(\d\d)_(\d\d)-(\d\d)-(\d\d)\.json"$/.exec(
          download.headers['content-disposition'],
        );
      expect(match).not.toBeNull();
      const [, year, month, day, hour, minute, second] = (match as RegExpExecArray).map(Number);
      const stamp = Date.UTC(year, month - 1, day, hour, minute, second);
      expect(stamp).toBeGreaterThanOrEqual(before);
      expect(stamp).toBeLessThanOrEqual(after);
      expect(download.headers['content-type']).toMatch(/^application\/json/);
      expect(download.text).toBe(plain.text);
      expect(download.body).toEqual(exportDefaultProject());
    });
  });
});
