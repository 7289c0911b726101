import helmet from '@fastify/helmet';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { AppModule, AppModuleOptions } from './app.module';
import { httpEdgeOptions, installHttpEdge } from './common/http-edge';
import { createLogger, PinoNestLogger } from './common/logger';
import { requestContext } from './common/request-context';
import type { AppConfig } from './config/app-config';
import { setupDocs } from './docs-setup';

export const DEFAULT_BODY_LIMIT = 100 * 1024;
export const BATCH_BODY_LIMIT = 10 * 1024 * 1024;
const BATCH_PREFIX = '/api/admin/features-batch/';
/**
 * The import and its validation take a whole export: 10,000 features of the benchmark's shape
 * are about 13 MiB (docs/decisions-import.md, "The body limit").
 */
export const IMPORT_BODY_LIMIT = 32 * 1024 * 1024;
const IMPORT_ROUTES = new Set([`${BATCH_PREFIX}validate`, `${BATCH_PREFIX}import`]);

/** The routes each app registered, for the test that walks them all without a token. */
const registeredRoutes = new WeakMap<object, Array<{ method: string; url: string }>>();

export function routesOf(app: NestFastifyApplication): Array<{ method: string; url: string }> {
  return registeredRoutes.get(app.getHttpAdapter().getInstance()) ?? [];
}

export interface CreateAppOptions extends AppModuleOptions {
  logger?: Logger;
}

function requestId(header: unknown): string {
  // A caller's request id is kept when it is short and harmless, so that logs can be correlated.
  return typeof header === 'string' && /^[\w.:-]{1,64}$/.test(header) ? header : randomUUID();
}

/**
 * Builds the application with every HTTP-level setting applied. main.ts and the e2e tests both
 * use it, so the tests run exactly what production runs.
 */
export async function createApp(
  config: AppConfig,
  options: CreateAppOptions = {},
): Promise<NestFastifyApplication> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const adapter = new FastifyAdapter({
    ...httpEdgeOptions(logger),
    loggerInstance: logger,
    // The request log is our own onResponse hook (one line per request, with its duration).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: DEFAULT_BODY_LIMIT,
    genReqId: (req: { headers: Record<string, unknown> }) => requestId(req.headers['x-request-id']),
    forceCloseConnections: 'idle',
  });
  const fastify = adapter.getInstance();
  // Only JSON bodies are accepted: without a text/plain parser, Fastify answers 415 for them.
  fastify.removeContentTypeParser(['text/plain']);
  installHttpEdge(fastify);
  const routes: Array<{ method: string; url: string }> = [];
  registeredRoutes.set(fastify, routes);
  fastify.addHook('onRoute', (route) => {
    if (IMPORT_ROUTES.has(route.url)) route.bodyLimit = IMPORT_BODY_LIMIT;
    else if (route.url.startsWith(BATCH_PREFIX)) route.bodyLimit = BATCH_BODY_LIMIT;
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    // One context per request, filled in by the guard: the event log reads who is calling.
    requestContext.run({}, done);
  });
  // A client that hangs up before the answer still gets its line (the work may have been done).
  fastify.addHook('onRequestAbort', (request, done) => {
    request.log.info(
      { method: request.method, url: request.url, aborted: true },
      'request aborted by the client',
    );
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request completed',
    );
    done();
  });

  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, options),
    adapter,
    {
      logger: new PinoNestLogger(logger),
      bodyParser: false,
      abortOnError: false,
    },
  );
  await app.register(helmet);
  if (config.corsOrigins.length > 0) {
    app.enableCors({ origin: config.corsOrigins, credentials: false });
  }
  app.enableShutdownHooks();

  setupDocs(app);
  return app;
}
