import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import {
  isBadValue,
  isDatabaseUnavailable,
  isForeignKeyViolation,
  isTransientConflict,
  isUniqueViolation,
} from './database-errors';
import {
  AppError,
  AuthenticationRequired,
  ConflictError,
  ContentTypeError,
  HeaderFieldsTooLargeError,
  MethodNotAllowedError,
  NameExistsError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionError,
  RequestError,
  RequestTimeoutError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UriTooLongError,
  ValidationError,
} from './errors';

export interface ErrorRecord {
  id: string;
  name: string;
  message: string;
  [field: string]: unknown;
}

/** The URL without its query, which may be long or carry values nobody asked to see echoed. */
function pathOf(url: string): string {
  return url.split('?')[0];
}

/**
 * A framework error (Nest's HttpException, Fastify's FST_* errors, Node's parser errors) named by
 * its status. A status without a name of its own keeps its number: it is never passed off as a
 * 400 ValidationError. Server-side statuses other than 503 are unexpected and answered as such.
 */
export function fromStatus(
  status: number,
  message: string,
  request: { method: string; url: string },
): AppError | undefined {
  switch (status) {
    case 400:
      return ValidationError.of('/body', message);
    case 401:
      return new AuthenticationRequired();
    case 403:
      return new PermissionError([]);
    case 404:
      return new NotFoundError(`Could not find route ${request.method} ${pathOf(request.url)}`);
    case 405:
      return new MethodNotAllowedError(
        `The method ${request.method} is not allowed on ${pathOf(request.url)}`,
      );
    case 408:
      return new RequestTimeoutError('The request was not received in time');
    case 413:
      return new PayloadTooLargeError('The request body is larger than this route accepts');
    case 414:
      return new UriTooLongError('The URL, or a part of its path, is longer than accepted');
    case 415:
      return new ContentTypeError('The request body must be JSON');
    case 429:
      return new TooManyRequestsError('Too many requests; try again later');
    case 431:
      return new HeaderFieldsTooLargeError('The request line or headers are larger than accepted');
    case 503:
      return new ServiceUnavailableError();
  }
  return status >= 400 && status < 500 ? new RequestError(status, message) : undefined;
}

/** Errors raised by Fastify itself before a route runs (routing, body parsing, content type). */
function fromFastifyError(
  error: { code?: string; statusCode?: number; message: string },
  request: { method: string; url: string },
): AppError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new PayloadTooLargeError('The request body is larger than this route accepts');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ContentTypeError(
        'The request body must be JSON, sent with Content-Type: application/json',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return ValidationError.of(
        '/body',
        'The body is empty but Content-Type says application/json',
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return ValidationError.of('/body', 'The body is not valid JSON');
    case 'FST_ERR_BAD_URL':
      return ValidationError.of('/url', 'The URL is not validly percent-encoded UTF-8');
  }
  if (error.statusCode === 400 && error instanceof SyntaxError) {
    return ValidationError.of('/body', 'The body is not valid JSON');
  }
  if (error.code?.startsWith('FST_') && typeof error.statusCode === 'number') {
    return fromStatus(error.statusCode, error.message, request);
  }
  return undefined;
}

/** Known errors: ours, the framework's, and the database failures that have a client-facing meaning. */
function classify(
  exception: unknown,
  request: { method: string; url: string },
): AppError | undefined {
  if (exception instanceof AppError) return exception;
  if (exception instanceof HttpException) {
    return fromStatus(exception.getStatus(), exception.message, request);
  }
  if (typeof exception === 'object' && exception !== null && 'code' in exception) {
    const fastifyError = fromFastifyError(
      exception as { code?: string; statusCode?: number; message: string },
      request,
    );
    if (fastifyError) return fastifyError;
  }
  if (isDatabaseUnavailable(exception)) return new ServiceUnavailableError();
  // Normally retried in the data layer (database/transient-retry.ts); one that escapes it is
  // still the database being busy, not a fault of the request.
  if (isTransientConflict(exception)) {
    return new ServiceUnavailableError(
      'The database is busy with conflicting changes; try again shortly',
    );
  }
  // Safety nets for races that a service's own checks cannot exclude (two requests creating
  // the same name at once); services turn the expected cases into precise errors themselves.
  if (isUniqueViolation(exception))
    return new NameExistsError('A resource with that name already exists');
  if (isBadValue(exception)) {
    return ValidationError.of(
      '/body',
      'A value is missing, too long or out of range for its field',
    );
  }
  if (isForeignKeyViolation(exception)) {
    return new ConflictError(
      'The change conflicts with data that refers to it or that it refers to',
    );
  }
  return undefined;
}

export interface ErrorOutcome {
  status: number;
  record: ErrorRecord;
  /** What the server log line for this error carries, when it gets one (5xx only). */
  log?: { level: 'warn' | 'error'; fields: Record<string, unknown> };
}

/**
 * The answer to an exception: its status and error record, and for a server-side failure the
 * fields of its log line. Used by the filter and by the handlers of errors raised before routing.
 */
export function describeError(
  exception: unknown,
  request: { id?: string; method: string; url: string },
): ErrorOutcome {
  const id = randomUUID();
  const known = classify(exception, request);
  if (known) {
    const record: ErrorRecord = {
      id,
      name: known.name,
      message: known.message,
      ...known.extraFields(),
    };
    if (known.details) record.details = known.details;
    if (known.status < 500) return { status: known.status, record };
    const cause = exception instanceof Error ? exception.message : undefined;
    return {
      status: known.status,
      record,
      log: {
        level: 'warn',
        fields: { errorId: id, reqId: request.id, errorName: known.name, errorMessage: cause },
      },
    };
  }
  const error = exception instanceof Error ? exception : new Error(String(exception));
  return {
    status: 500,
    record: {
      id,
      name: 'InternalError',
      message: 'An unexpected error occurred; it has been logged with this id',
    },
    // The stack and the driver's text go to this one log line, never into the response.
    log: {
      level: 'error',
      fields: {
        errorId: id,
        reqId: request.id,
        errorName: error.name,
        errorMessage: error.message,
        stack: error.stack,
      },
    },
  };
}

/**
 * The one place where an exception becomes an HTTP response: every error answers with the error
 * record of rules.md §2. Unknown errors are logged with the record's id and their stack, and
 * answered with a generic 500 that echoes nothing of the driver or the stack.
 */
@Catch()
export class ErrorRecordFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { status, record, log } = describeError(exception, request);
    if (log?.level === 'error') this.logger.error(log.fields);
    else if (log) this.logger.warn(log.fields);
    void reply
      .status(status)
      .header('content-type', 'application/json; charset=utf-8')
      .send(record);
  }
}
