import { applyDecorators } from '@nestjs/common';
import { IsObject, IsString, Length, Matches, NotEquals, ValidateIf } from 'class-validator';

/** The name rule of rules.md §2: 1–100 URL-friendly characters, and not `.` or `..`. */
export const NAME_PATTERN = /^[a-zA-Z0-9~_.-]+$/;

export function IsResourceName(): PropertyDecorator {
  return applyDecorators(
    IsString({ message: '$property must be a string' }),
    Length(1, 100, { message: '$property must be 1 to 100 characters long' }),
    Matches(NAME_PATTERN, {
      message: '$property may contain only letters, digits and the characters ~ _ . -',
    }),
    NotEquals('.', { message: '$property must not be . or ..' }),
    NotEquals('..', { message: '$property must not be . or ..' }),
  );
}

/**
 * Optional, but `null` is not a value: for fields whose column cannot be empty. (`@IsOptional()`
 * lets null through unvalidated, which would reach a NOT NULL column.)
 */
export const IsOptionalNotNull = () =>
  ValidateIf((_object: object, value: unknown) => value !== undefined);

/**
 * The value (or, with `each`, every item) is an object: neither an array nor null. Goes with
 * `@ValidateNested()`, which descends into an array it meets and validates that array's items
 * instead, so that `legalValues: [[]]` passed as a list holding no objects and was stored as
 * `[{}]`, and `payload: []` passed as a payload (found by test/fuzz.e2e-spec.ts).
 */
export function IsNestedObject(options: { each?: boolean } = {}): PropertyDecorator {
  return IsObject({
    each: options.each,
    message: options.each
      ? 'each item of $property must be an object'
      : '$property must be an object',
  });
}
