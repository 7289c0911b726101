import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ErrorRecordDto } from './common/error-record.dto';

export const DOCS_PATH = 'docs';

/**
 * The security headers of /docs. Helmet's defaults stay on every API route; Swagger UI is an HTML
 * page that people open over plain HTTP on a container's or server's address, where two of them
 * break it (docs/api-document.md):
 * - `upgrade-insecure-requests` makes the browser fetch the page's script and style sheet over
 *   HTTPS, which the service does not speak: the page stays blank (loopback is exempt, which is why
 *   it renders on localhost);
 * - HSTS tells a browser that once reached the host over HTTPS to never use HTTP for it again.
 * The rest of the policy (same-origin scripts, styles and fetches, no framing, nosniff) is kept.
 */
export const DOCS_HELMET = {
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
  strictTransportSecurity: false,
  // Ignored by browsers on a plain-HTTP origin, where it only adds a console warning.
  crossOriginOpenerPolicy: false,
};

/** The OpenAPI document of every route, as served at /docs/openapi.json. */
export function buildOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  return SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Flagkeeper admin API')
      .setDescription('Feature-flag administration: environments, features, export and feedback')
      .setVersion('1')
      // Relative: the document describes whichever host served it.
      .addServer('/')
      .addApiKey({ type: 'apiKey', name: 'Authorization', in: 'header' }, 'apiKey')
      .addSecurityRequirements('apiKey')
      .build(),
    { extraModels: [ErrorRecordDto] },
  );
}

/** Serves Swagger UI at /docs and the document at /docs/openapi.json, with the relaxed headers. */
export function setupDocs(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRoute', (route) => {
    if (route.url === `/${DOCS_PATH}` || route.url.startsWith(`/${DOCS_PATH}/`)) {
      route.config = { ...(route.config as object), helmet: DOCS_HELMET } as typeof route.config;
    }
  });
  SwaggerModule.setup(DOCS_PATH, app, buildOpenApiDocument(app), {
    jsonDocumentUrl: `${DOCS_PATH}/openapi.json`,
    yamlDocumentUrl: undefined,
  });
}
