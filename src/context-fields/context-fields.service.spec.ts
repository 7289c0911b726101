import { constraintNeedle } from './context-fields.service';

describe('constraintNeedle', () => {
  const stored = (constraints: object[]) => JSON.stringify(constraints);

  it('is found in the stored constraints that name the field', () => {
    const text = stored([
      {
        contextName: 'a_b',
        operator: 'IN',
        values: ['x'],
        caseInsensitive: false,
        inverted: false,
      },
    ]);
    expect(text.includes(constraintNeedle('a_b'))).toBe(true);
  });

  it('is not found for other names, other cases, or a value that quotes the name', () => {
    const text = stored([
      { contextName: 'userIdentity', operator: 'IN', values: ['"contextName":"userId"'] },
      { contextName: 'USERID', operator: 'NUM_EQ', value: '1' },
    ]);
    expect(text.includes(constraintNeedle('userId'))).toBe(false);
  });
});
