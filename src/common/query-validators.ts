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

export function IsDateTimeWithZone(): PropertyDecorator {
  return ValidateBy({
    name: 'isDateTimeWithZone',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' &&
        DATE_TIME_WITH_ZONE.test(value) &&
        isISO8601(value, { strict: true }),
      defaultMessage: () =>
        '$property must be an ISO 8601 date-time with a zone, e.g. 2025-01-31T12:00:00.000Z',
    },
  });
}
