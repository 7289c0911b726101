import {
  registerDecorator,
  ValidationArguments,
  ValidationOptions,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';

/**
 * Counts the characters of a string as Unicode code points (what MySQL's utf8mb4 VARCHAR(n)
 * counts), or returns -1 when the string holds an unpaired surrogate: such a string cannot be
 * encoded as UTF-8, so storing it would silently replace it with U+FFFD.
 *
 * class-validator's Length() is not used for this: validator.js counts a character followed by a
 * variation selector (U+FE0F) as one, so 100 "❤️" would pass as 100 characters while MySQL holds
 * them as 200 and rejects the row.
 */
export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (unit > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return -1;
      i += 1;
    }
    count += 1;
  }
  return count;
}

@ValidatorConstraint({ name: 'isText' })
class IsTextConstraint implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    const [min, max] = args.constraints as [number, number];
    if (typeof value !== 'string') return false;
    const length = codePointLength(value);
    return length >= min && length <= max;
  }

  defaultMessage(args: ValidationArguments): string {
    const [min, max] = args.constraints as [number, number];
    if (typeof args.value !== 'string') return `${args.property} must be a string`;
    if (codePointLength(args.value) < 0)
      return `${args.property} must be valid Unicode text (it holds an unpaired surrogate)`;
    return min > 0
      ? `${args.property} must be ${min} to ${max} characters long`
      : `${args.property} must be at most ${max} characters long`;
  }
}

/**
 * A string of min to max characters, counted as Unicode code points (rules.md §5: "string lengths
 * count characters"), that can be stored as UTF-8 unchanged.
 */
export function IsText(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      target: target.constructor,
      propertyName: String(propertyName),
      constraints: [min, max],
      options,
      validator: IsTextConstraint,
    });
}
