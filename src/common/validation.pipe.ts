import {
  ArgumentMetadata,
  Injectable,
  ValidationError as ClassValidatorError,
  ValidationPipe,
} from '@nestjs/common';
import { ErrorDetail, ValidationError } from './errors';

class RawValidationFailure extends Error {
  constructor(readonly errors: ClassValidatorError[]) {
    super('validation failed');
  }
}

/** One message for one field, however many of its constraints failed. */
function messageFor(error: ClassValidatorError): string | undefined {
  const constraints = error.constraints ?? {};
  if ('whitelistValidation' in constraints) return `${error.property} is not an allowed property`;
  const messages = Object.values(constraints);
  if (messages.length === 0) return undefined;
  if (error.value === undefined && !('isDefined' in constraints))
    return `${error.property} is required`;
  return messages.join('; ');
}

/** Flattens nested class-validator errors into one detail per invalid field, with JSON-pointer paths. */
export function toDetails(errors: ClassValidatorError[], prefix: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const path = `${prefix}/${error.property}`;
    const message = messageFor(error);
    if (message) details.push({ path, message });
    if (error.children?.length) details.push(...toDetails(error.children, path));
  }
  return details;
}

/** Query and path values with an unpaired surrogate; bodies are checked by the JSON parser. */
function malformedText(value: unknown, prefix: string): ErrorDetail[] {
  const wellFormed = (text: string) =>
    (text as unknown as { isWellFormed(): boolean }).isWellFormed();
  const bad = (v: unknown) =>
    (typeof v === 'string' && !wellFormed(v)) ||
    (Array.isArray(v) && v.some((item) => typeof item === 'string' && !wellFormed(item)));
  const message = (name: string) =>
    `${name} must be valid Unicode text (it holds an unpaired surrogate)`;
  if (typeof value !== 'object' || value === null) {
    const name = prefix.slice(prefix.lastIndexOf('/') + 1);
    return bad(value) ? [{ path: prefix, message: message(name) }] : [];
  }
  return Object.entries(value)
    .filter(([, v]) => bad(v))
    .map(([key]) => ({ path: `${prefix}/${key}`, message: message(key) }));
}

/**
 * The global ValidationPipe (whitelist, forbidNonWhitelisted, transform), answering with the
 * project's ValidationError whose details say where each problem is: /body/name, /query/limit.
 */
@Injectable()
export class RequestValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      // The value is kept only to tell a missing field from a wrong one; it never reaches a response.
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => new RawValidationFailure(errors),
    });
  }

  /**
   * Nest turns a numeric path or query value into a number with unary plus, which reads `0x1c2`,
   * `1e0`, `+1` and `1.0` as numbers. Only plain decimals are converted; anything else stays
   * text, for ParseIdPipe (or the DTO) to refuse.
   */
  protected override transformPrimitive(value: unknown, metadata: ArgumentMetadata): unknown {
    if (
      metadata.metatype === Number &&
      typeof value === 'string' &&
      !/^(0|[1-9]\d*)$/.test(value)
    ) {
      return value;
    }
    return super.transformPrimitive(value, metadata);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const isDto = metadata.metatype !== undefined && this.toValidate(metadata);
    if (
      metadata.type === 'body' &&
      isDto &&
      value !== undefined &&
      (typeof value !== 'object' || value === null || Array.isArray(value))
    ) {
      throw ValidationError.of('/body', 'The body must be a JSON object');
    }
    const where = metadata.type === 'custom' ? 'body' : metadata.type;
    if (metadata.type === 'query' || metadata.type === 'param') {
      const prefix = metadata.data ? `/${where}/${metadata.data}` : `/${where}`;
      const malformed = malformedText(value, prefix);
      if (malformed.length > 0) {
        throw new ValidationError(`Request validation failed: ${malformed[0].path}`, malformed);
      }
      // A name in the path (ids have their own pipe) never begins or ends with whitespace (the
      // name rule allows none): 400 rather than a 404 for a name that cannot exist. (It was the
      // first fix of issue 13's D11, when MariaDB's PAD SPACE collation found `dev` for `dev `;
      // the no-pad collations now keep them apart in the database too.) Tag values are free
      // text, so `value` keeps its spaces.
      if (
        metadata.type === 'param' &&
        metadata.metatype === String &&
        metadata.data !== 'value' &&
        typeof value === 'string' &&
        /^\s|\s$/.test(value)
      ) {
        throw ValidationError.of(prefix, `${metadata.data} must not begin or end with whitespace`);
      }
    }
    // class-transformer skips properties named like members of Object.prototype (toString,
    // constructor, …), so forbidNonWhitelisted never sees them; they are unknown all the same.
    const prototypeNamed =
      isDto && typeof value === 'object' && value !== null
        ? Object.keys(value).filter((key) => key in Object.prototype)
        : [];
    let details: ErrorDetail[] = [];
    let result: unknown;
    try {
      result = await super.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof RawValidationFailure)) throw error;
      details = toDetails(error.errors, `/${where}`);
    }
    for (const key of prototypeNamed) {
      const path = `/${where}/${key}`;
      if (!details.some((d) => d.path === path)) {
        details.unshift({ path, message: `${key} is not an allowed property` });
      }
    }
    if (details.length > 0) {
      throw ValidationError.listing(details);
    }
    return result;
  }
}
