import {
  BadRequestException,
  HttpException,
  MethodNotAllowedException,
  NotFoundException,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { describeError } from './error-record.filter';

const request = { id: 'req-1', method: 'GET', url: '/api/admin/things?x=1' };

function fastifyError(code: string, statusCode: number): Error {
  return Object.assign(new Error(`fastify ${code}`), { code, statusCode });
}

describe('describeError', () => {
  it.each([
    [new BadRequestException('bad'), 400, 'ValidationError'],
    [new NotFoundException(), 404, 'NotFoundError'],
    [new MethodNotAllowedException(), 405, 'MethodNotAllowedError'],
    [new HttpException('slow', 408), 408, 'RequestTimeoutError'],
    [new PayloadTooLargeException(), 413, 'PayloadTooLargeError'],
    [new HttpException('long', 414), 414, 'UriTooLongError'],
    [new UnsupportedMediaTypeException(), 415, 'ContentTypeError'],
    [new HttpException('slow down', 429), 429, 'TooManyRequestsError'],
    [new HttpException('big', 431), 431, 'HeaderFieldsTooLargeError'],
    [new HttpException('gone', 410), 410, 'RequestError'],
    [new HttpException('teapot', 418), 418, 'RequestError'],
    [new HttpException('down', 503), 503, 'ServiceUnavailableError'],
    [fastifyError('FST_ERR_CTP_INVALID_TYPE', 400), 400, 'ValidationError'],
    [fastifyError('FST_ERR_MAX_PARAM_LENGTH', 414), 414, 'UriTooLongError'],
    [fastifyError('FST_ERR_SOMETHING_NEW', 422), 422, 'RequestError'],
  ])('maps %p to %i %s', (exception, status, name) => {
    const outcome = describeError(exception, request);
    expect(outcome.status).toBe(status);
    expect(outcome.record.name).toBe(name);
    expect(outcome.record.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('never answers a status it has no name for as a 400 ValidationError', () => {
    for (let status = 400; status < 600; status++) {
      const outcome = describeError(new HttpException('x', status), request);
      if (status !== 400) expect(outcome.record.name).not.toBe('ValidationError');
      if (status < 500) expect(outcome.status).toBe(status);
    }
  });

  it('names the route without its query in a 404', () => {
    expect(describeError(new NotFoundException(), request).record.message).toBe(
      'Could not find route GET /api/admin/things',
    );
  });

  it('answers an unexpected error with a generic 500 and puts the stack in the log only', () => {
    const error = new Error('SQLITE_ERROR: no such table: roles');
    const outcome = describeError(error, request);
    expect(outcome.status).toBe(500);
    expect(outcome.record).toEqual({
      id: outcome.record.id,
      name: 'InternalError',
      message: 'An unexpected error occurred; it has been logged with this id',
    });
    expect(outcome.log?.level).toBe('error');
    expect(outcome.log?.fields).toEqual(
      expect.objectContaining({
        errorId: outcome.record.id,
        reqId: 'req-1',
        errorMessage: error.message,
        stack: error.stack,
      }),
    );
    expect(String(outcome.log?.fields.stack)).toMatch(/\n\s+at /);
  });

  it('treats an unknown server-side status as unexpected', () => {
    const outcome = describeError(new HttpException('bad gateway', 502), request);
    expect(outcome.status).toBe(500);
    expect(outcome.record.name).toBe('InternalError');
    expect(outcome.log?.fields.stack).toBeDefined();
  });
});
