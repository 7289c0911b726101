/** Helpers shared by the import e2e specs. */

export const VALIDATE = '/api/admin/features-batch/validate';
export const IMPORT = '/api/admin/features-batch/import';

/** Text endings with a tab, a newline, a carriage return, backslashes, `\N`, quotes and non-ASCII. */
const TITLE_ENDINGS = ['', ' \t tab', ' \\N and \\', '\nline "two"', ' \r é 🚩'];

/** A small PRNG (mulberry32): the same seed gives the same data set, so a failure can be replayed. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ImportDocument {
  features: Array<Record<string, unknown>>;
  featureEnvironments: Array<Record<string, unknown>>;
  featureStrategies: Array<Record<string, unknown>>;
  contextFields: Array<Record<string, unknown>>;
  segments: Array<{ id: number; name: string }>;
  featureTags: Array<Record<string, unknown>>;
  tagTypes: Array<Record<string, unknown>>;
  dependencies: Array<{ feature: string; dependencies: Array<Record<string, unknown>> }>;
  [other: string]: unknown;
}

/**
 * An export document of `count` features in the shape of ours, for the statement-count test:
 * each feature with two strategies (constraints, a segment, variants), environment variants with
 * an override, two tags, and every tenth depending on the one before.
 */
export function generatedDocument(
  count: number,
  segment: { id: number; name: string },
): ImportDocument {
  const names = Array.from({ length: count }, (_, i) => `gen-${String(i + 1).padStart(5, '0')}`);
  return {
    features: names.map((name) => ({
      name,
      description: `Generated ${name}`,
      type: 'release',
      project: 'elsewhere',
      stale: false,
      impressionData: false,
      archived: false,
    })),
    featureEnvironments: names.map((name) => ({
      name,
      featureName: name,
      environment: 'elsewhere',
      enabled: true,
      variants: [
        {
          name: 'on',
          weight: 500,
          weightType: 'variable',
          stickiness: 'default',
          overrides: [{ contextName: 'region', values: ['eu'] }],
        },
        { name: 'off', weight: 500, weightType: 'variable', stickiness: 'default' },
      ],
    })),
    featureStrategies: names.flatMap((name, i) => [
      {
        id: `00000000-0000-7000-8000-${String(2 * i).padStart(12, '0')}`,
        name: 'flexibleRollout',
        title: null,
        disabled: false,
        featureName: name,
        sortOrder: 0,
        segments: [segment.id],
        constraints: [{ contextName: 'region', operator: 'IN', values: ['eu', 'us'] }],
        variants: [{ name: 'a', weight: 1000, weightType: 'variable', stickiness: 'default' }],
        parameters: { rollout: '50', stickiness: 'default', groupId: name },
      },
      {
        id: `00000000-0000-7000-8000-${String(2 * i + 1).padStart(12, '0')}`,
        name: 'default',
        title: 'Everyone',
        disabled: false,
        featureName: name,
        sortOrder: 1,
        segments: [],
        constraints: [{ contextName: 'region', operator: 'NOT_IN', values: ['us'] }],
        variants: [],
        parameters: {},
      },
    ]),
    contextFields: [
      {
        name: 'region',
        description: null,
        stickiness: false,
        sortOrder: 10,
        legalValues: [{ value: 'eu' }, { value: 'us' }],
      },
    ],
    segments: [segment],
    featureTags: names.flatMap((name, i) => [
      { featureName: name, tagType: 'simple', tagValue: 'generated', createdByUserId: null },
      { featureName: name, tagType: 'team', tagValue: `group-${i % 10}`, createdByUserId: null },
    ]),
    tagTypes: [
      { name: 'simple', description: 'Simple tags', icon: null },
      { name: 'team', description: 'Owning team', icon: null },
    ],
    dependencies: names
      .map((name, i) => ({ name, i }))
      .filter(({ i }) => i > 0 && i % 10 === 9)
      .map(({ name, i }) => ({
        feature: name,
        dependencies: [{ feature: names[i - 1], enabled: true, variants: [] }],
      })),
  };
}

/** A random data set in the export's shape, from a seed: every field of the ExportResult varies. */
export function randomDocument(
  seed: number,
  segment: { id: number; name: string },
): ImportDocument {
  const random = prng(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const count = 3 + Math.floor(random() * 8);
  const names = Array.from({ length: count }, (_, i) => `s${seed}-f${i}`);
  const types = ['release', 'experiment', 'operational', 'kill-switch', 'permission'];
  const doc = generatedDocument(0, segment);
  doc.contextFields = [
    {
      name: 'region',
      description: 'Where',
      stickiness: false,
      sortOrder: 10,
      legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }],
    },
    { name: 'tenant', description: null, stickiness: true, sortOrder: 7, legalValues: [] },
  ];
  doc.segments = [segment];
  doc.tagTypes = [
    { name: 'simple', description: 'Simple tags', icon: null },
    { name: 'team', description: null, icon: 'people' },
  ];
  for (const [i, name] of names.entries()) {
    doc.features.push({
      name,
      description: random() < 0.3 ? null : `Feature ${i} of seed ${seed}`,
      type: pick(types),
      project: 'somewhere',
      stale: random() < 0.3,
      impressionData: random() < 0.5,
      archived: false,
    });
    const variants =
      random() < 0.5
        ? []
        : [
            {
              name: 'blue',
              weight: 500,
              weightType: 'variable',
              stickiness: pick(['default', 'tenant']),
              payload: { type: 'string', value: `p${i}` },
              overrides: [{ contextName: 'region', values: ['eu'] }],
            },
            { name: 'green', weight: 500, weightType: 'variable', stickiness: 'default' },
          ];
    doc.featureEnvironments.push({
      name,
      featureName: name,
      environment: 'x',
      enabled: random() < 0.5,
      variants,
    });
    const strategies = Math.floor(random() * 3);
    for (let s = 0; s < strategies; s++) {
      doc.featureStrategies.push({
        id: `old-${i}-${s}`,
        name: pick(['default', 'flexibleRollout']),
        // Titles with the characters that MySQL's bulk text (load-data.ts) must escape.
        title: random() < 0.5 ? null : `Strategy ${s}${pick(TITLE_ENDINGS)}`,
        disabled: random() < 0.2,
        featureName: name,
        sortOrder: s,
        segments: random() < 0.5 ? [segment.id] : [],
        constraints:
          random() < 0.5
            ? []
            : [
                {
                  contextName: 'region',
                  operator: 'IN',
                  values: [pick(['eu', 'us'])],
                  caseInsensitive: random() < 0.5,
                  inverted: random() < 0.5,
                },
              ],
        variants:
          random() < 0.5
            ? []
            : [
                {
                  name: 'v',
                  weight: 1000,
                  weightType: 'variable',
                  stickiness: 'tenant',
                  payload: { type: 'string', value: `v${i}${pick(TITLE_ENDINGS)}` },
                },
              ],
        parameters: { rollout: String(Math.floor(random() * 101)) },
      });
    }
    if (random() < 0.6) {
      doc.featureTags.push({ featureName: name, tagType: 'simple', tagValue: pick(['aa', 'bb']) });
    }
    if (random() < 0.6) {
      doc.featureTags.push({ featureName: name, tagType: 'team', tagValue: `team-${i % 3}` });
    }
  }
  // Children among the second half, parents among the first: no chains.
  const half = Math.floor(count / 2);
  for (let i = half; i < count; i++) {
    if (random() < 0.5) {
      const enabled = random() < 0.7;
      doc.dependencies.push({
        feature: names[i],
        dependencies: [
          {
            feature: names[i - half],
            enabled,
            variants: enabled && random() < 0.5 ? ['blue'] : [],
          },
        ],
      });
    }
  }
  return doc;
}

/** A document with what may differ after a round trip taken out: strategy ids, project, environment, segment ids. */
export function comparable(doc: ImportDocument): unknown {
  const segmentName = new Map(doc.segments.map((s) => [s.id, s.name]));
  return {
    ...doc,
    features: doc.features.map(({ project: _project, ...rest }) => rest),
    featureEnvironments: doc.featureEnvironments.map(({ environment: _env, ...rest }) => rest),
    featureStrategies: doc.featureStrategies.map(({ id: _id, ...rest }) => ({
      ...rest,
      segments: (rest.segments as number[]).map((id) => segmentName.get(id)),
    })),
    segments: doc.segments.map((s) => s.name),
  };
}
