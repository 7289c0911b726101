/** Helpers shared by the import e2e specs. */

export const VALIDATE = '/api/admin/features-batch/validate';
export const IMPORT = '/api/admin/features-batch/import';

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
export function generatedDocument(count: number, segment: { id: number; name: string }): ImportDocument {
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
