import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { AuthenticationRequired, PermissionError } from '../common/errors';
import { ApiTokensService } from './api-tokens.service';
import {
  IS_PUBLIC,
  PermissionRequirement,
  REQUIRED_PERMISSION,
  requirementProblem,
} from './auth.decorators';
import { hasPermission, Principal } from './permissions';

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
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;

    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = this.extractToken(request.headers.authorization);
    if (!token) throw new AuthenticationRequired();
    const principal = await this.tokens.authenticate(token);
    if (!principal)
      throw new AuthenticationRequired('The API token is unknown, expired or revoked');
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
    return true;
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
