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
  NameExistsError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionError,
  ServiceUnavailableError,
  ValidationError,
} from './errors';

interface ErrorRecord {
  id: string;
  name: string;
  message: string;
  [field: string]: unknown;
}

/** Errors raised by Fastify itself before a route runs (body parsing, content type). */
function fromFastifyError(error: {
  code?: string;
  statusCode?: number;
  message: string;
}): AppError | undefined {
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
  }
  if (error.statusCode === 400 && error instanceof SyntaxError) {
    return ValidationError.of('/body', 'The body is not valid JSON');
  }
  return undefined;
}

function fromHttpException(exception: HttpException, request: FastifyRequest): AppError {
  const status = exception.getStatus();
  switch (status) {
    case 404:
      return new NotFoundError(
        `Could not find route ${request.method} ${request.url.split('?')[0]}`,
      );
    case 401:
      return new AuthenticationRequired();
    case 403:
      return new PermissionError([]);
    case 413:
      return new PayloadTooLargeError('The request body is larger than this route accepts');
    case 415:
      return new ContentTypeError('The request body must be JSON');
    default:
      return ValidationError.of('/body', exception.message);
  }
}

/**
 * The one place where an exception becomes an HTTP response: every error answers with the error
 * record of rules.md §2. Unknown errors are logged with the record's id and answered with a
 * generic 500 that echoes nothing of the driver or the stack.
 */
@Catch()
export class ErrorRecordFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const id = randomUUID();
    const known = this.classify(exception, request);

    let status: number;
    let record: ErrorRecord;
    if (known) {
      status = known.status;
      record = { id, name: known.name, message: known.message, ...known.extraFields() };
      if (known.details) record.details = known.details;
      if (status >= 500) this.logKnown(id, request, known, exception);
    } else {
      status = 500;
      record = {
        id,
        name: 'InternalError',
        message: 'An unexpected error occurred; it has been logged with this id',
      };
      const error = exception instanceof Error ? exception : new Error(String(exception));
      // No stack trace and no driver text leave the process except in this one log line's fields.
      this.logger.error({
        errorId: id,
        reqId: request.id,
        errorName: error.name,
        errorMessage: error.message,
      });
    }
    void reply
      .status(status)
      .header('content-type', 'application/json; charset=utf-8')
      .send(record);
  }

  private classify(exception: unknown, request: FastifyRequest): AppError | undefined {
    if (exception instanceof AppError) return exception;
    if (exception instanceof HttpException) return fromHttpException(exception, request);
    if (typeof exception === 'object' && exception !== null && 'code' in exception) {
      const fastifyError = fromFastifyError(
        exception as { code?: string; statusCode?: number; message: string },
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

  private logKnown(id: string, request: FastifyRequest, known: AppError, cause: unknown): void {
    const causeMessage = cause instanceof Error ? cause.message : undefined;
    this.logger.warn({
      errorId: id,
      reqId: request.id,
      errorName: known.name,
      errorMessage: causeMessage,
    });
  }
}
