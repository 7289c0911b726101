import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorRecordDto } from './error-record.dto';

/** The error statuses the API answers with an error record (rules.md §2). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503;

/** What each status means across the API; a route may say more with a [status, text] pair. */
const MEANING: Record<ErrorStatus, string> = {
  400: 'Invalid request: `details` points at each bad value',
  401: 'No token, or an unknown or expired one',
  403: 'The token lacks the permission (listed in `permissions`), or is a client or frontend token',
  404: 'Something named in the path does not exist',
  409: 'The name is taken, or the resource is still in use',
  413: 'The request body is larger than this route accepts',
  415: 'The request body is not JSON',
  429: 'Too many attempts; wait before trying again',
  503: 'The database cannot be reached',
};

/**
 * Declares error responses carrying the error record schema, so that client generators type them:
 * `@ApiErrors(400, 404, [409, 'An environment with that name exists'])`. On a controller class it
 * applies to every route of the class (401 and 403 for every route behind the guard).
 */
export function ApiErrors(
  ...statuses: Array<ErrorStatus | [ErrorStatus, string]>
): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((entry) => {
      const [status, description] = Array.isArray(entry) ? entry : [entry, MEANING[entry]];
      return ApiResponse({ status, description, type: ErrorRecordDto });
    }),
  );
}

/** The errors of a route that takes a JSON body: invalid, too large, or not JSON. */
export const BODY_ERRORS: ErrorStatus[] = [400, 413, 415];
