import { isISO8601, ValidateBy } from 'class-validator';

/**
 * Query values arrive as strings. Only plain decimal digits become numbers: Number() alone would
 * also accept "", " 5", "1e2" and "0x10".
 */
export const toInteger = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value;

/** One rule and one message per field, so that a wrong value yields one detail, not three. */
export function IsIntegerIn(min: number, max: number, message: string): PropertyDecorator {
  return ValidateBy({
    name: 'isIntegerIn',
    constraints: [min, max],
    validator: {
      validate: (value: unknown) =>
        Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max,
      defaultMessage: () => message,
    },
  });
}

/** A date-time with an explicit zone, so that its meaning does not depend on the server's zone. */
const DATE_TIME_WITH_ZONE = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i;

export function isDateTimeWithZone(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    DATE_TIME_WITH_ZONE.test(value) &&
    isISO8601(value, { strict: true })
  );
}

export const DATE_TIME_WITH_ZONE_MESSAGE =
  'must be an ISO 8601 date-time with a zone, e.g. 2025-01-31T12:00:00.000Z';

export function IsDateTimeWithZone(): PropertyDecorator {
  return ValidateBy({
    name: 'isDateTimeWithZone',
    validator: {
      validate: isDateTimeWithZone,
      defaultMessage: () => `$property ${DATE_TIME_WITH_ZONE_MESSAGE}`,
    },
  });
}

/*
 * Unleash's search operators in query values (`IS:default`, `IS_ANY_OF:a,b`), shared by every
 * search route: each route names the operators it takes and reports failures through `fail`.
 */

/** Records a failure of one query field (to be listed in one 400) and yields no value. */
export type Fail = (field: string, message: string) => undefined;

/** `OPERATOR:v1,v2` split into its operator (one of `operators`) and its non-empty values. */
export function splitOperator<Op extends string>(
  raw: string | undefined,
  operators: readonly Op[],
  field: string,
  fail: Fail,
): { operator: Op; values: string[] } | undefined {
  if (raw === undefined) return undefined;
  const colon = raw.indexOf(':');
  const operator = raw.slice(0, colon) as Op;
  if (colon < 0 || !operators.includes(operator)) {
    return fail(
      field,
      `${field} must be OPERATOR:value with OPERATOR one of ${operators.join(', ')}`,
    );
  }
  const values = raw
    .slice(colon + 1)
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
  if (values.length === 0)
    return fail(field, `${field} needs at least one value after ${operator}:`);
  return { operator, values };
}

/** A calendar day, UTC midnight; impossible dates (2026-02-30) are refused. */
export function parseDay(raw: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) return undefined;
  const date = new Date(`${raw}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(raw) ? date : undefined;
}
