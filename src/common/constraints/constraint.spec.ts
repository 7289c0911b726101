import { checkConstraints, ContextFieldRules } from './constraint';

const fields = new Map<string, ContextFieldRules>([
  ['userId', { legalValues: [] }],
  ['region', { legalValues: ['eu', 'us'] }],
  ['appVersion', { legalValues: [] }],
]);

describe('checkConstraints', () => {
  it('normalises valid constraints', () => {
    const result = checkConstraints(
      [
        { contextName: 'region', operator: 'IN', values: ['eu'] },
        { contextName: 'appVersion', operator: 'SEMVER_GT', value: '1.2.3-beta.1', inverted: true },
        { contextName: 'userId', operator: 'NUM_LT', value: '42.5' },
        { contextName: 'userId', operator: 'DATE_AFTER', value: '2026-01-02T03:04:05.000Z' },
      ],
      fields,
      '/body/constraints',
    );
    expect(result.details).toEqual([]);
    expect(result.constraints[0]).toEqual({
      contextName: 'region',
      operator: 'IN',
      values: ['eu'],
      caseInsensitive: false,
      inverted: false,
    });
    expect(result.constraints[1]).toEqual({
      contextName: 'appVersion',
      operator: 'SEMVER_GT',
      value: '1.2.3-beta.1',
      caseInsensitive: false,
      inverted: true,
    });
  });

  it('reports each violation with its path', () => {
    const { details } = checkConstraints(
      [
        { contextName: 'nope', operator: 'IN', values: ['a'] },
        { contextName: 'region', operator: 'NOT_IN', values: ['eu', 'mars'] },
        { contextName: 'userId', operator: 'NUM_EQ', value: 'ten' },
        { contextName: 'userId', operator: 'DATE_BEFORE', value: 'yesterday' },
        { contextName: 'appVersion', operator: 'SEMVER_EQ', value: '1.2' },
        { contextName: 'userId', operator: 'IN', value: 'x' },
        { contextName: 'userId', operator: 'NUM_GT', values: ['1'] },
      ],
      fields,
      '/body/constraints',
    );
    expect(details).toEqual([
      { path: '/body/constraints/0/contextName', message: 'Unknown context field nope' },
      { path: '/body/constraints/1/values/1', message: 'mars is not a legal value of region' },
      { path: '/body/constraints/2/value', message: 'NUM_EQ needs a number' },
      { path: '/body/constraints/3/value', message: 'DATE_BEFORE needs an ISO 8601 date' },
      {
        path: '/body/constraints/4/value',
        message: 'SEMVER_EQ needs a semantic version such as 1.2.3',
      },
      { path: '/body/constraints/5/value', message: 'IN takes values, not value' },
      { path: '/body/constraints/5/values', message: 'IN needs at least one value in values' },
      { path: '/body/constraints/6/values', message: 'NUM_GT takes value, not values' },
      { path: '/body/constraints/6/value', message: 'NUM_GT needs a value' },
    ]);
  });
});
