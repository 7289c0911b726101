import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Permission, Principal } from './permissions';

export const IS_PUBLIC = 'flagkeeper:public';
export const REQUIRED_PERMISSION = 'flagkeeper:permission';

/** Marks a route that answers without a token (health, OpenAPI). Everything else is denied by default. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export interface PermissionRequirement {
  permission: Permission;
  /** Where the environment of an environment-scoped permission comes from. */
  environmentFrom?: { param: string } | { body: string };
}

/** The permission a route needs, optionally scoped to the environment named in the path or body. */
export const RequirePermission = (
  permission: Permission,
  environmentFrom?: PermissionRequirement['environmentFrom'],
) =>
  SetMetadata(REQUIRED_PERMISSION, { permission, environmentFrom } satisfies PermissionRequirement);

/** The authenticated caller, as resolved by the guard. */
export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal =>
    context.switchToHttp().getRequest<{ principal: Principal }>().principal,
);
