import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ENVIRONMENT_PERMISSIONS, Permission, Principal } from './permissions';

export const IS_PUBLIC = 'flagkeeper:public';
export const REQUIRED_PERMISSION = 'flagkeeper:permission';

/** Marks a route that answers without a token (health, OpenAPI). Everything else is denied by default. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export interface PermissionRequirement {
  permission: Permission;
  /** Where the environment of an environment-scoped permission comes from. */
  environmentFrom?: { param: string } | { body: string };
}

/**
 * A requirement that cannot be checked as written: an environment-scoped permission without the
 * place its environment comes from would be granted by a grant for any one environment.
 */
export function requirementProblem(requirement: PermissionRequirement): string | undefined {
  if (ENVIRONMENT_PERMISSIONS.has(requirement.permission) && !requirement.environmentFrom) {
    return `${requirement.permission} is granted per environment: say where the route's environment comes from ({ param } or { body })`;
  }
  return undefined;
}

/**
 * The permission a route needs, scoped to the environment named in the path or body for the
 * environment-scoped permissions. A route that leaves that out fails when its class is loaded,
 * that is, at startup.
 */
export const RequirePermission = (
  permission: Permission,
  environmentFrom?: PermissionRequirement['environmentFrom'],
) => {
  const requirement: PermissionRequirement = { permission, environmentFrom };
  const problem = requirementProblem(requirement);
  if (problem) throw new Error(`@RequirePermission: ${problem}`);
  return SetMetadata(REQUIRED_PERMISSION, requirement);
};

/** The authenticated caller, as resolved by the guard. */
export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal =>
    context.switchToHttp().getRequest<{ principal: Principal }>().principal,
);
