import { canonicalScan, PathSink } from './canonical-json';

/** The property the export relies on: a "yes" means stringify(parse(text)) gives text back. */
function roundTrips(text: string): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === text;
  } catch {
    return false;
  }
}

describe('canonicalScan', () => {
  const stored = [
    '[]',
    '{}',
    JSON.stringify([
      {
        name: 'blue',
        weight: 500,
        weightType: 'variable',
        stickiness: 'tenant',
        payload: { type: 'json', value: '{"a": [1, 2]}\n\t"quoted" \\ back' },
        overrides: [{ contextName: 'region', values: ['eu', 'Ärger', '😀', '\u2028'] }],
      },
    ]),
    JSON.stringify({ rollout: '50', stickiness: 'default', groupId: 'g' }),
    JSON.stringify([
      { contextName: 'x', operator: 'IN', values: [], inverted: false, n: -12, z: 0 },
    ]),
    JSON.stringify([null, true, false, 123456789012345, -1, [[]], [{}]]),
  ];

  it.each(stored)('accepts what JSON.stringify writes: %s', (text) => {
    expect(canonicalScan(text, text[0] as '[' | '{')).toBe(true);
    expect(roundTrips(text)).toBe(true);
  });

  const notCanonical = [
    '[ ]',
    '{"a": "b"}',
    '[1,2 ]',
    '["\\u0041"]', // stringify writes "A"
    '["a\\/b"]', // stringify does not escape the slash
    '[1.0]',
    '[1e2]',
    '[-0]',
    '[0.5]', // canonical, but fractions are left to the fallback
    '[1234567890123456]', // beyond 15 digits
    '{"b":"1","1":"x"}', // JSON.parse puts the index key first
    '{"a":1,"a":2}', // JSON.parse keeps the last
    '["\ud800"]', // a lone surrogate, which stringify escapes
    '{"a":1}x',
    '[1,]',
    '["open]',
    '[tru]',
    '',
  ];

  it.each(notCanonical)('answers no when unsure or wrong: %s', (text) => {
    expect(canonicalScan(text, '[')).toBe(false);
    expect(canonicalScan(text, '{')).toBe(false);
  });

  it('answers no for the wrong kind of document', () => {
    expect(canonicalScan('{}', '[')).toBe(false);
    expect(canonicalScan('[]', '{')).toBe(false);
  });

  it('never answers yes for text that does not round-trip (mutations of stored text)', () => {
    // Every one-character deletion and every insertion of a JSON-significant character into
    // real stored text: whatever the scan accepts must round-trip exactly.
    const inserts = [' ', '"', '\\', ',', ':', '[', ']', '{', '}', '0', '1', '.', 'e', '-', 'u'];
    let accepted = 0;
    for (const text of stored) {
      for (let i = 0; i <= text.length; i += 1) {
        const variants = [text.slice(0, i) + text.slice(i + 1)];
        for (const c of inserts) variants.push(text.slice(0, i) + c + text.slice(i));
        for (const candidate of variants) {
          for (const opener of ['[', '{'] as const) {
            if (canonicalScan(candidate, opener)) {
              accepted += 1;
              expect(roundTrips(candidate)).toBe(true);
            }
          }
        }
      }
    }
    expect(accepted).toBeGreaterThan(0);
  });

  it('hands the strings at the given paths to the sinks, only when the whole text passes', () => {
    const found: string[] = [];
    const sinks: PathSink[] = [
      { path: [null, 'stickiness'], take: (v) => found.push(`s:${v}`) },
      { path: [null, 'overrides', null, 'contextName'], take: (v) => found.push(`c:${v}`) },
    ];
    const text = JSON.stringify([
      {
        stickiness: 'tenant',
        payload: { type: 'json', value: '{"stickiness":"no"}' },
        overrides: [{ contextName: 'region\u00e9"', values: ['x'] }],
        nested: { stickiness: 'not at this path' },
      },
      { stickiness: 'default', overrides: [] },
    ]);
    expect(canonicalScan(text, '[', sinks)).toBe(true);
    expect(found).toEqual(['s:tenant', 'c:regioné"', 's:default']);

    found.length = 0;
    expect(canonicalScan('[{"stickiness":"a","stickiness":"b"}]', '[', sinks)).toBe(false);
    expect(found).toEqual([]);
    // A value of another type where a name is expected: the fallback decides what it means.
    expect(canonicalScan('[{"stickiness":null}]', '[', sinks)).toBe(false);
    expect(found).toEqual([]);
  });

  it('hands integers to an integer sink, and fails on any other value there', () => {
    const ids: string[] = [];
    const sinks: PathSink[] = [
      { path: ['segments', null], kind: 'integer', take: (v) => ids.push(v) },
    ];
    expect(canonicalScan('{"name":"a","segments":[3,12,-4]}', '{', sinks)).toBe(true);
    expect(ids).toEqual(['3', '12', '-4']);

    ids.length = 0;
    for (const text of [
      '{"segments":["3"]}',
      '{"segments":[1.5]}',
      '{"segments":[null]}',
      '{"segments":[[1]]}',
    ]) {
      expect(canonicalScan(text, '{', sinks)).toBe(false);
    }
    expect(ids).toEqual([]);
  });
});
