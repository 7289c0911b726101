/** One detail of a validation error: where in the request, and what is wrong there. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * The project's error vocabulary (rules.md §2). Services throw these; the one exception filter
 * turns them into the error record.
 */
export abstract class AppError extends Error {
  abstract readonly status: number;

  constructor(
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** Extra fields of the error record beyond id, name, message and details. */
  extraFields(): Record<string, unknown> {
    return {};
  }
}

export class ValidationError extends AppError {
  readonly status = 400;

  static of(path: string, message: string): ValidationError {
    return new ValidationError(message, [{ path, message }]);
  }

  /** Every problem at once; the message repeats them, for clients that only show the message. */
  static listing(details: ErrorDetail[], what = 'Request validation failed'): ValidationError {
    const summary = details.map((d) => `${d.path}: ${d.message}`).join('; ');
    return new ValidationError(`${what}: ${summary}`, details);
  }
}

export class ProtectedEnvironmentError extends AppError {
  readonly status = 400;
}

export class AuthenticationRequired extends AppError {
  readonly status = 401;

  constructor(message = 'You must sign in, or send a valid API token in the Authorization header') {
    super(message);
  }

  /** Where to sign in: the descriptor Unleash's clients read to show their login form. */
  override extraFields(): Record<string, unknown> {
    return { path: '/auth/simple/login', type: 'password', defaultHidden: false, options: [] };
  }
}

export class PermissionError extends AppError {
  readonly status = 403;

  constructor(
    readonly permissions: string[],
    message = permissions.length
      ? `You don't have the required permissions: ${permissions.join(', ')}`
      : 'This token may not be used on the admin API',
  ) {
    super(message);
  }

  override extraFields(): Record<string, unknown> {
    return { permissions: this.permissions };
  }
}

export class NotFoundError extends AppError {
  readonly status = 404;

  static named(kind: string, name: string | number, field = 'name'): NotFoundError {
    return new NotFoundError(`Could not find ${kind} with ${field} ${name}`);
  }
}

export class NameExistsError extends AppError {
  readonly status = 409;

  static named(kind: string, name: string): NameExistsError {
    return new NameExistsError(`A ${kind} with name ${name} already exists`);
  }
}

export class ConflictError extends AppError {
  readonly status = 409;
}

export class PayloadTooLargeError extends AppError {
  readonly status = 413;
}

export class ContentTypeError extends AppError {
  readonly status = 415;
}

export class ServiceUnavailableError extends AppError {
  readonly status = 503;

  constructor(message = 'The database cannot be reached; try again shortly') {
    super(message);
  }
}

export class MethodNotAllowedError extends AppError {
  readonly status = 405;
}

export class RequestTimeoutError extends AppError {
  readonly status = 408;
}

export class UriTooLongError extends AppError {
  readonly status = 414;
}

/** Too many attempts (sign-in); the client should wait before trying again. */
export class TooManyRequestsError extends AppError {
  readonly status = 429;
}

export class HeaderFieldsTooLargeError extends AppError {
  readonly status = 431;
}

/**
 * A client error the framework raised with a status that has no name of its own here: the status
 * is kept, so a client never mistakes it for a validation failure of its body.
 */
export class RequestError extends AppError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
