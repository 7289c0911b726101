import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { describeError } from './error-record.filter';
import {
  HeaderFieldsTooLargeError,
  RequestTimeoutError,
  UriTooLongError,
  ValidationError,
} from './errors';
import { installJsonBodyParser } from './json-body-parser';

/** Socket and request timeouts, in milliseconds (docs/decisions-http-edge.md says why these). */
export const HTTP_TIMEOUTS = {
  /** From connecting (or the previous response) until the request's headers are complete. */
  headers: 10_000,
  /** From connecting until the whole request, body included, has been received. */
  request: 30_000,
  /** An idle keep-alive connection between two requests. */
  keepAlive: 10_000,
  /** No byte moved either way (for example a client that stopped reading a response). */
  inactivity: 60_000,
  /** How often Node checks the header and request timeouts; the default 30 s blurs them. */
  checkInterval: 1_000,
} as const;

/**
 * After a 413, at most this much of the rest of the body is read and discarded (see below): twice
 * the largest body limit (the import's 32 MiB), so that a body just over it still gets its 413.
 */
export const MAX_DISCARDED_BODY = 64 * 1024 * 1024;

function sendRecord(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const { status, record, log } = describeError(error, request);
  if (log) request.log[log.level](log.fields);
  void reply
    .code(status)
    .header('x-request-id', request.id)
    .header('content-type', 'application/json; charset=utf-8')
    .send(record);
}

/** Errors of Node's HTTP parser, raised before Fastify has a request: answered on the socket. */
function clientErrorHandler(logger: Logger) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    let cause: Error;
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      cause = new HeaderFieldsTooLargeError(
        'The request line or headers are larger than accepted (16 KiB)',
      );
    } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      cause = new RequestTimeoutError('The request was not received in time');
    } else {
      cause = ValidationError.of('/request', 'The request is not well-formed HTTP/1.1');
    }
    const { status, record } = describeError(cause, { method: '', url: '' });
    logger.info({ errorId: record.id, code: error.code, statusCode: status }, 'client error');
    if (socket.writable) {
      const body = JSON.stringify(record);
      // end(), not destroy(): the answer is flushed before the connection closes.
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
          'Content-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    setTimeout(() => socket.destroy(), HTTP_TIMEOUTS.checkInterval * 5).unref();
  };
}

/**
 * The Fastify options of the HTTP edge: timeouts, and error records for the errors raised before
 * routing (bad percent-encoding, a path parameter over 100 characters, an oversized request line
 * or header, a malformed or too slow request).
 */
export function httpEdgeOptions(logger: Logger) {
  return {
    connectionTimeout: HTTP_TIMEOUTS.inactivity,
    keepAliveTimeout: HTTP_TIMEOUTS.keepAlive,
    requestTimeout: HTTP_TIMEOUTS.request,
    http: {
      headersTimeout: HTTP_TIMEOUTS.headers,
      connectionsCheckingInterval: HTTP_TIMEOUTS.checkInterval,
    },
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      const code = (error as { code?: string }).code;
      const known =
        code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new UriTooLongError('A path segment is longer than 100 characters')
          : error;
      sendRecord(known, request, reply);
    },
    clientErrorHandler: clientErrorHandler(logger),
  };
}

/**
 * Reads and drops the rest of a refused body, resolving once the client has sent it all (or the
 * connection ended). Past MAX_DISCARDED_BODY the connection is closed after all; the request
 * timeout bounds the time spent.
 */
function discardRestOfBody(request: FastifyRequest): Promise<void> {
  return new Promise((resolve) => {
    let discarded = 0;
    const raw = request.raw;
    raw.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > MAX_DISCARDED_BODY) raw.socket.destroy();
    });
    raw.once('end', () => resolve());
    raw.once('close', () => resolve());
    raw.resume();
  });
}

/** The parts of the HTTP edge that live on the Fastify instance: JSON parsing and the 413 path. */
export function installHttpEdge(fastify: FastifyInstance): void {
  installJsonBodyParser(fastify);
  // The query parser turns bytes that are not UTF-8 into U+FFFD without a word; refused instead,
  // as a path with them is.
  fastify.addHook('onRequest', (request, reply, done) => {
    const start = request.url.indexOf('?');
    if (start >= 0) {
      try {
        decodeURIComponent(request.url.slice(start + 1).replace(/\+/g, ' '));
      } catch {
        sendRecord(
          ValidationError.of('/query', 'The query is not validly percent-encoded UTF-8'),
          request,
          reply,
        );
        return;
      }
    }
    done();
  });
  // A 413 is sent once the client has finished sending: a connection closed under a client
  // that is still writing loses the answer (the client sees EPIPE instead). Once the body is
  // drained, the connection can even be kept.
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode === 413 && !request.raw.complete) {
      reply.removeHeader('connection');
      await discardRestOfBody(request);
    }
    return payload;
  });
}
