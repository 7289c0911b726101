import type { ErrorDetail } from '../errors';

export const CONSTRAINT_OPERATORS = [
  'NOT_IN',
  'IN',
  'STR_ENDS_WITH',
  'STR_STARTS_WITH',
  'STR_CONTAINS',
  'NUM_EQ',
  'NUM_GT',
  'NUM_GTE',
  'NUM_LT',
  'NUM_LTE',
  'DATE_AFTER',
  'DATE_BEFORE',
  'SEMVER_EQ',
  'SEMVER_GT',
  'SEMVER_LT',
] as const;
export type ConstraintOperator = (typeof CONSTRAINT_OPERATORS)[number];

/** A constraint as stored and returned: `values` for list operators, `value` for the others. */
export interface Constraint {
  contextName: string;
  operator: ConstraintOperator;
  values?: string[];
  value?: string;
  caseInsensitive: boolean;
  inverted: boolean;
}

export interface ConstraintInput {
  contextName: string;
  operator: ConstraintOperator;
  values?: string[];
  value?: string;
  caseInsensitive?: boolean;
  inverted?: boolean;
}

/** What the rules need to know of a context field. */
export interface ContextFieldRules {
  legalValues: string[];
}

const LIST_OPERATORS: ReadonlySet<ConstraintOperator> = new Set([
  'IN',
  'NOT_IN',
  'STR_ENDS_WITH',
  'STR_STARTS_WITH',
  'STR_CONTAINS',
]);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
// Semantic Versioning 2.0.0, without the optional leading "v".
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export function isListOperator(operator: ConstraintOperator): boolean {
  return LIST_OPERATORS.has(operator);
}

function checkSingleValue(operator: ConstraintOperator, value: string): string | undefined {
  if (operator.startsWith('NUM_')) {
    return value.trim() !== '' && Number.isFinite(Number(value))
      ? undefined
      : `${operator} needs a number`;
  }
  if (operator.startsWith('DATE_')) {
    return ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))
      ? undefined
      : `${operator} needs an ISO 8601 date`;
  }
  if (operator.startsWith('SEMVER_')) {
    return SEMVER.test(value) ? undefined : `${operator} needs a semantic version such as 1.2.3`;
  }
  return undefined;
}

/**
 * Checks constraints against the rules of rules.md §7 and returns them normalised, or the
 * details of every violation (paths start with `prefix`, e.g. /body/constraints).
 */
export function checkConstraints(
  inputs: ConstraintInput[],
  contextFields: ReadonlyMap<string, ContextFieldRules>,
  prefix: string,
): { constraints: Constraint[]; details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  const constraints: Constraint[] = [];
  inputs.forEach((input, index) => {
    const at = `${prefix}/${index}`;
    const field = contextFields.get(input.contextName);
    if (!field)
      details.push({
        path: `${at}/contextName`,
        message: `Unknown context field ${input.contextName}`,
      });
    const base = {
      contextName: input.contextName,
      operator: input.operator,
      caseInsensitive: input.caseInsensitive ?? false,
      inverted: input.inverted ?? false,
    };
    let given: string[];
    if (isListOperator(input.operator)) {
      if (input.value !== undefined) {
        details.push({ path: `${at}/value`, message: `${input.operator} takes values, not value` });
      }
      if (!input.values || input.values.length === 0) {
        details.push({
          path: `${at}/values`,
          message: `${input.operator} needs at least one value in values`,
        });
      }
      given = input.values ?? [];
      constraints.push({
        contextName: base.contextName,
        operator: base.operator,
        values: given,
        caseInsensitive: base.caseInsensitive,
        inverted: base.inverted,
      });
    } else {
      if (input.values !== undefined) {
        details.push({
          path: `${at}/values`,
          message: `${input.operator} takes value, not values`,
        });
      }
      if (input.value === undefined) {
        details.push({ path: `${at}/value`, message: `${input.operator} needs a value` });
        given = [];
      } else {
        const problem = checkSingleValue(input.operator, input.value);
        if (problem) details.push({ path: `${at}/value`, message: problem });
        given = [input.value];
      }
      constraints.push({
        contextName: base.contextName,
        operator: base.operator,
        value: input.value,
        caseInsensitive: base.caseInsensitive,
        inverted: base.inverted,
      });
    }
    if (field && field.legalValues.length > 0) {
      const legal = new Set(field.legalValues);
      given.forEach((value, valueIndex) => {
        if (!legal.has(value)) {
          const path = isListOperator(input.operator)
            ? `${at}/values/${valueIndex}`
            : `${at}/value`;
          details.push({ path, message: `${value} is not a legal value of ${input.contextName}` });
        }
      });
    }
  });
  return { constraints, details };
}
