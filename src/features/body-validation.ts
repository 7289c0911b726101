import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ErrorDetail, ValidationError } from '../common/errors';
import { toDetails } from '../common/validation.pipe';

/** The options of the global pipe, for bodies it cannot validate itself (arrays, either-or shapes). */
const OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: true },
} as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates one object against a DTO class; details carry paths under `path`. */
export async function checkObject<T extends object>(
  cls: ClassConstructor<T>,
  value: unknown,
  path: string,
): Promise<{ value: T; details: ErrorDetail[] }> {
  if (!isPlainObject(value)) {
    return { value: undefined as unknown as T, details: [{ path, message: 'must be an object' }] };
  }
  const instance = plainToInstance(cls, value);
  const errors = await validate(instance, OPTIONS);
  return { value: instance, details: toDetails(errors, path) };
}

/**
 * A body that must be a JSON array of DTOs (the global pipe only validates objects): every item
 * is validated, with paths such as /body/0/weight, and all problems are reported at once.
 */
export async function validateArrayBody<T extends object>(
  cls: ClassConstructor<T>,
  body: unknown,
  maxItems: number,
  at = '/body',
): Promise<T[]> {
  const what = at === '/body' ? 'The body' : at;
  if (!Array.isArray(body)) {
    throw ValidationError.of(at, `${what} must be a JSON array`);
  }
  if (body.length > maxItems) {
    throw ValidationError.of(at, `${what} may hold at most ${maxItems} items`);
  }
  const results = await Promise.all(
    body.map((item, index) => checkObject(cls, item, `${at}/${index}`)),
  );
  const details = results.flatMap((result) => result.details);
  if (details.length > 0) throw ValidationError.listing(details);
  return results.map((result) => result.value);
}
