import {
  checkPayload,
  normaliseVariants,
  spreadWeights,
  unknownContextFields,
} from './variant-rules';

describe('spreadWeights', () => {
  const variable = { weight: 0, weightType: 'variable' as const };
  const fix = (weight: number) => ({ weight, weightType: 'fix' as const });

  it('spreads 1000 over variable variants, the first ones taking the remainder', () => {
    expect(spreadWeights([variable, variable, variable], '/body').weights).toEqual([334, 333, 333]);
    expect(spreadWeights(Array(7).fill(variable), '/body').weights).toEqual([
      143, 143, 143, 143, 143, 143, 142,
    ]);
  });

  it('keeps fix weights and gives the rest to the variable ones', () => {
    expect(spreadWeights([variable, fix(100), variable], '/body').weights).toEqual([450, 100, 450]);
    expect(spreadWeights([fix(1000), variable], '/body').weights).toEqual([1000, 0]);
  });

  it('totals exactly 1000 for any number of variants', () => {
    for (let n = 1; n <= 60; n++) {
      const { weights } = spreadWeights([fix(n), ...Array(n).fill(variable)], '/x');
      expect(weights.reduce((a, b) => a + b, 0)).toBe(1000);
    }
  });

  it('rejects fix weights over 1000, and only-fix lists that do not total 1000', () => {
    expect(spreadWeights([fix(600), fix(500), variable], '/body').details).toEqual([
      { path: '/body', message: 'The fix weights total 1100, more than 1000' },
    ]);
    expect(spreadWeights([fix(600)], '/v').details).toEqual([
      { path: '/v', message: 'With only fix variants the weights must total 1000; they total 600' },
    ]);
    expect(spreadWeights([fix(600), fix(400)], '/v')).toEqual({ weights: [600, 400], details: [] });
    expect(spreadWeights([], '/v')).toEqual({ weights: [], details: [] });
  });
});

describe('checkPayload', () => {
  it('requires json to parse and number to be a number', () => {
    expect(checkPayload({ type: 'json', value: '{"a":1}' }, '/p')).toEqual([]);
    expect(checkPayload({ type: 'json', value: '{' }, '/p')).toEqual([
      { path: '/p/value', message: 'A json payload must be valid JSON' },
    ]);
    expect(checkPayload({ type: 'number', value: '-1.5e3' }, '/p')).toEqual([]);
    for (const value of ['', ' ', 'abc', 'Infinity']) {
      expect(checkPayload({ type: 'number', value }, '/p')).toHaveLength(1);
    }
    expect(checkPayload({ type: 'csv', value: '' }, '/p')).toEqual([]);
    expect(checkPayload(undefined, '/p')).toEqual([]);
  });
});

describe('normaliseVariants', () => {
  it('fills in defaults and reports the context fields it names', () => {
    const result = normaliseVariants(
      [
        { name: 'a', weight: 5 },
        {
          name: 'b',
          weight: 5,
          stickiness: 'tenant',
          overrides: [{ contextName: 'userId', values: ['1'] }],
        },
      ],
      '/body',
    );
    expect(result.details).toEqual([]);
    expect(result.variants).toEqual([
      { name: 'a', weight: 500, weightType: 'variable', stickiness: 'default' },
      {
        name: 'b',
        weight: 500,
        weightType: 'variable',
        stickiness: 'tenant',
        overrides: [{ contextName: 'userId', values: ['1'] }],
      },
    ]);
    expect(unknownContextFields(result.references, new Set(['userId']))).toEqual([
      {
        path: '/body/1/stickiness',
        message:
          'Unknown context field tenant; stickiness must be default, random or a context field',
      },
    ]);
  });
});
