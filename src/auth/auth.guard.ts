import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { AuthenticationRequired, ContentTypeError, PermissionError } from '../common/errors';
import { requestContext } from '../common/request-context';
import { readCookie } from '../users/cookies';
import { SESSION_COOKIE, SessionsService } from '../users/sessions.service';
import { ApiTokensService } from './api-tokens.service';
import {
  IS_PUBLIC,
  PermissionRequirement,
  REQUIRED_PERMISSION,
  requirementProblem,
} from './auth.decorators';
import { hasPermission, Principal } from './permissions';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function isJson(contentType: string | undefined): boolean {
  return /^application\/(json|json-patch\+json)\s*(;|$)/i.test(contentType ?? '');
}

type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

/**
 * The global guard: every route needs an admin-API token unless marked @Public(), and a route's
 * @RequirePermission() is checked against the token's role, scoped to the route's environment.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: ApiTokensService,
    private readonly sessions: SessionsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;

    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const principal = await this.authenticate(request);
    if (principal.type === 'client' || principal.type === 'frontend') {
      throw new PermissionError(
        [],
        `A ${principal.type} token is meant for SDKs and may not use the admin API`,
      );
    }

    const requirement = this.reflector.getAllAndOverride<PermissionRequirement | undefined>(
      REQUIRED_PERMISSION,
      targets,
    );
    if (requirement) {
      // Metadata set by other means than @RequirePermission() gets the same check, failing closed.
      if (requirementProblem(requirement)) throw new PermissionError([requirement.permission]);
      if (!this.permits(principal, requirement, this.environmentOf(request, requirement))) {
        throw new PermissionError([requirement.permission]);
      }
    }
    request.principal = principal;
    const store = requestContext.getStore();
    if (store) store.principal = principal;
    return true;
  }

  /** A token in the Authorization header, else a sign-in session cookie. */
  private async authenticate(request: AuthenticatedRequest): Promise<Principal> {
    const token = this.extractToken(request.headers.authorization);
    if (token) {
      const principal = await this.tokens.authenticate(token);
      if (!principal) {
        throw new AuthenticationRequired('The API token is unknown, expired or revoked');
      }
      return principal;
    }
    const sessionId = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (!sessionId) throw new AuthenticationRequired();
    const principal = await this.sessions.authenticate(sessionId);
    if (!principal) throw new AuthenticationRequired('The session has ended; sign in again');
    // A cross-site form can carry the cookie but cannot send JSON: a change made with a cookie
    // must declare a JSON body (an empty one counts), which only same-origin scripts can do.
    if (!SAFE_METHODS.has(request.method) && !isJson(request.headers['content-type'])) {
      throw new ContentTypeError(
        'A request that changes something with a session cookie must send Content-Type: application/json',
      );
    }
    return principal;
  }

  /**
   * An environment-scoped requirement whose environment is missing from the request (no string
   * where the route said it would be) is met only by a grant for every environment.
   */
  private permits(
    principal: Principal,
    requirement: PermissionRequirement,
    environment: string | undefined,
  ): boolean {
    if (requirement.environmentFrom && environment === undefined) {
      return principal.grants.some(
        (grant) =>
          grant.permission === 'ADMIN' ||
          (grant.permission === requirement.permission && grant.environment === null),
      );
    }
    return hasPermission(principal, requirement.permission, environment);
  }

  private extractToken(header: string | undefined): string | undefined {
    if (!header) return undefined;
    // The scheme is case-insensitive (RFC 9110 §11.1): Bearer, bearer and BEARER are one.
    const token = /^bearer\s/i.test(header) ? header.slice('bearer'.length) : header;
    return token.trim() || undefined;
  }

  private environmentOf(
    request: AuthenticatedRequest,
    requirement: PermissionRequirement,
  ): string | undefined {
    const from = requirement.environmentFrom;
    if (!from) return undefined;
    const source =
      'param' in from
        ? (request.params as Record<string, unknown>)?.[from.param]
        : (request.body as Record<string, unknown> | undefined)?.[from.body];
    return typeof source === 'string' ? source : undefined;
  }
}
