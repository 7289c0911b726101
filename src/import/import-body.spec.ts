import { checkObject } from '../features/body-validation';
import { ImportRequestDto } from './dto/import-request.dto';
import { checkImportBody, ITEM_CHECKS } from './import-body';

/*
 * The hand check of the import's lists must never pass what the DTOs refuse, and the 400 it
 * leads to must be exactly class-validator's. Every field of a full document (every list, every
 * nested object) is replaced in turn by values around each rule's edges, and one unknown
 * property is added to every object; each mutated body gets the same details from
 * checkImportBody as from checkObject(ImportRequestDto, …).
 */

const full = () => ({
  features: [
    {
      name: 'f1',
      description: 'd',
      type: 'release',
      project: 'p',
      stale: false,
      impressionData: true,
      archived: false,
    },
  ],
  featureStrategies: [
    {
      id: 'old',
      featureName: 'f1',
      name: 'flexibleRollout',
      title: 't',
      disabled: false,
      sortOrder: 0,
      parameters: { rollout: '50', stickiness: 'default', groupId: 'f1' },
      constraints: [
        {
          contextName: 'region',
          operator: 'IN',
          values: ['eu'],
          caseInsensitive: false,
          inverted: false,
        },
        { contextName: 'appName', operator: 'NUM_GT', value: '1' },
      ],
      variants: [
        {
          name: 'v',
          weight: 1000,
          weightType: 'variable',
          stickiness: 'default',
          payload: { type: 'string', value: 'x' },
        },
      ],
      segments: [1],
    },
  ],
  tagTypes: [{ name: 'team', description: 'd', icon: 'i', color: '#fff' }],
  featureEnvironments: [
    {
      name: 'f1',
      featureName: 'f1',
      environment: 'development',
      enabled: true,
      variants: [
        {
          name: 'a',
          weight: 500,
          weightType: 'variable',
          stickiness: 'default',
          payload: { type: 'json', value: '{}' },
          overrides: [{ contextName: 'userId', values: ['1'] }],
        },
      ],
    },
  ],
  contextFields: [
    {
      name: 'region',
      description: 'd',
      stickiness: true,
      sortOrder: 1,
      legalValues: [{ value: 'eu', description: 'Europe' }],
      project: null,
    },
  ],
  segments: [{ id: 1, name: 'staff' }],
  featureTags: [{ featureName: 'f1', tagType: 'team', tagValue: 'core', createdByUserId: 1 }],
  dependencies: [
    { feature: 'f1', dependencies: [{ feature: 'p1', enabled: true, variants: ['a'] }] },
  ],
});

const REPLACEMENTS: unknown[] = [
  undefined,
  null,
  '',
  'x',
  'xx',
  '.',
  '..',
  'a b',
  'a'.repeat(50),
  'a'.repeat(51),
  'a'.repeat(100),
  'a'.repeat(101),
  '😀'.repeat(100), // 200 UTF-16 units, 100 characters for class-validator's lengths
  '😀'.repeat(101),
  'a'.repeat(256),
  'a'.repeat(1001),
  'a'.repeat(10001),
  0,
  1,
  -1,
  1.5,
  1000,
  1001,
  2147483648,
  true,
  false,
  [],
  ['x'],
  [1],
  [{}],
  {},
  { x: 1 },
  'IN',
  'fix',
  'json',
  'kill-switch',
];

type Json = Record<string, unknown> | unknown[];

/** Every mutation of `root`: each value at each path replaced, and an unknown key per object. */
function* mutations(root: Json, at: Json = root): Generator<() => void> {
  const entries: Array<[string | number, unknown]> = Array.isArray(at)
    ? at.map((value, index) => [index, value])
    : Object.entries(at);
  if (!Array.isArray(at)) {
    yield () => ((at as Record<string, unknown>).colour = 'red');
  } else {
    yield () => at.push(at.length > 0 ? at[0] : 'x');
    // Past the nested lists' ArrayMaxSize(100).
    yield () => at.push(...Array.from({ length: 101 - at.length }, () => at[0]));
  }
  for (const [key, value] of entries) {
    for (const replacement of REPLACEMENTS) {
      yield () => {
        const target = at as Record<string | number, unknown>;
        if (replacement === undefined && !Array.isArray(at)) delete target[key];
        else target[key] = replacement;
      };
    }
    if (typeof value === 'object' && value !== null) yield* mutations(root, value as Json);
  }
}

describe('checkImportBody', () => {
  it('gives exactly the DTOs’ details for every mutation of a full document', async () => {
    // Mutations are numbered on a fresh copy each time, so that each applies to an intact one.
    const total = [...mutations(full())].length;
    let refused = 0;
    let passed = 0;
    for (let n = 0; n < total; n++) {
      const data = full();
      let index = 0;
      for (const mutate of mutations(data)) {
        if (index++ === n) {
          mutate();
          break;
        }
      }
      const body = { project: 'default', environment: 'development', data };
      const expected = await checkObject(ImportRequestDto, structuredClone(body), '/body');
      const actual = await checkImportBody(structuredClone(body));
      expect({ n, details: actual.details }).toEqual({ n, details: expected.details });
      if (expected.details.length > 0) refused += 1;
      else passed += 1;
    }
    // Not vacuous: both outcomes occur many times.
    expect(refused).toBeGreaterThan(500);
    expect(passed).toBeGreaterThan(100);
  });

  it('passes every item of the full document by hand, so that no list reaches class-validator', () => {
    const data = full() as Record<string, unknown[]>;
    for (const [list, check] of Object.entries(ITEM_CHECKS)) {
      expect({ list, passed: data[list].every((entry) => check(entry)) }).toEqual({
        list,
        passed: true,
      });
    }
  });

  it('keeps the index of a bad item among many good ones in its path', async () => {
    const data = full();
    const strategy = data.featureStrategies[0];
    data.featureStrategies = Array.from({ length: 50 }, () => structuredClone(strategy));
    data.featureStrategies[37].constraints[1].operator = 'LIKE';
    (data.featureStrategies[42] as Record<string, unknown>).prototype = 1;
    const { details } = await checkImportBody({ project: 'p', environment: 'e', data });
    expect(details).toEqual([
      {
        path: '/body/data/featureStrategies/37/constraints/1/operator',
        message: expect.stringContaining('operator must be one of'),
      },
      {
        path: '/body/data/featureStrategies/42/prototype',
        message: 'prototype is not an allowed property',
      },
    ]);
  });
});
