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
  tagTypes: [{ name: 'team', description: 'd', icon: 'i', color: '#FFFFFF' }],
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
  '😀', // two units, one character: under a two-character minimum
  'x\uFE0F', // a variation selector: two units, one character
  '\uFE0F', // a variation selector alone: one unit, no character for class-validator
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

/**
 * A deep copy made of this realm's plain objects, as the body parser makes them. Node's
 * structuredClone runs outside Jest's sandbox: its objects have another Object.prototype, which
 * the hand check refuses, so that every item would reach class-validator and the hand check
 * would go untested. (undefined values are left out, as a JSON body cannot hold them.)
 */
function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

type Json = Record<string, unknown> | unknown[];
type Path = Array<string | number>;

/** Every path to an object or an array inside `value`, itself included. */
function containers(value: unknown, path: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [];
  const entries: Array<[string | number, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  return [path, ...entries.flatMap(([key, item]) => containers(item, [...path, key]))];
}

function at(root: unknown, path: Path): Json {
  return path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], root) as Json;
}

/**
 * Every mutation of one item: each value replaced by each of REPLACEMENTS (removed for
 * undefined), an unknown key added to each object, each array grown past ArrayMaxSize(100).
 */
function mutations(item: object): Array<(copy: object) => void> {
  const result: Array<(copy: object) => void> = [];
  for (const path of containers(item)) {
    const node = at(item, path);
    if (Array.isArray(node)) {
      result.push((copy) => {
        const list = at(copy, path) as unknown[];
        list.push(...Array.from({ length: 101 - list.length }, () => list[0] ?? 'x'));
      });
    } else {
      result.push((copy) => ((at(copy, path) as Record<string, unknown>).colour = 'red'));
    }
    for (const key of Array.isArray(node) ? node.keys() : Object.keys(node)) {
      for (const replacement of REPLACEMENTS) {
        result.push((copy) => {
          const target = at(copy, path) as Record<string | number, unknown>;
          if (replacement === undefined && !Array.isArray(target)) delete target[key];
          else target[key] = replacement;
        });
      }
    }
  }
  return result;
}

describe('checkImportBody', () => {
  // One list at a time (the others empty), so that class-validator checks one item per case.
  const lists = Object.entries(full()) as Array<[string, object[]]>;
  it.each(lists.map(([list]) => [list]))(
    'gives exactly the DTOs’ details for every mutation of an item of %s',
    async (list) => {
      const [, [template]] = lists.find(([name]) => name === list) as [string, object[]];
      let refused = 0;
      let passed = 0;
      let byHand = 0;
      for (const [n, mutate] of mutations(template).entries()) {
        const item = clone(template);
        mutate(item);
        const data = { features: [], featureStrategies: [], tagTypes: [], [list]: [item] };
        const body = { project: 'default', environment: 'development', data };
        const expected = await checkObject(ImportRequestDto, clone(body), '/body');
        const actual = await checkImportBody(clone(body));
        expect({ n, details: actual.details }).toEqual({ n, details: expected.details });
        if (ITEM_CHECKS[list as keyof typeof ITEM_CHECKS](clone(item))) byHand += 1;
        if (expected.details.length > 0) refused += 1;
        else passed += 1;
      }
      // Not vacuous: both outcomes occur.
      expect(refused).toBeGreaterThan(20);
      expect(passed).toBeGreaterThan(3);
      // The hand check itself passes items (the ones the DTOs pass, at most).
      expect(byHand).toBeGreaterThan(3);
      expect(byHand).toBeLessThanOrEqual(passed);
    },
  );

  it('gives the DTOs’ details for a full document, valid and with a list that is not a list', async () => {
    for (const data of [
      full(),
      { ...full(), segments: 'all' },
      { ...full(), features: undefined },
    ]) {
      const body = { project: 'default', environment: 'development', data };
      const expected = await checkObject(ImportRequestDto, clone(body), '/body');
      expect((await checkImportBody(clone(body))).details).toEqual(expected.details);
    }
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
    data.featureStrategies = Array.from({ length: 50 }, () => clone(strategy));
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
