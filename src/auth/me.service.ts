import { Injectable } from '@nestjs/common';
import type { MeDto, MePermissionDto, MeUserDto } from './dto/me.dto';
import { ENVIRONMENT_PERMISSIONS, PermissionGrant, Principal } from './permissions';

/**
 * `GET /api/admin/user`: the caller as Unleash's admin UI expects it: a signed-in person, or an
 * API token.
 */
@Injectable()
export class MeService {
  describe(principal: Principal): MeDto {
    const permissions = toUiPermissions(principal.grants);
    const names = [...new Set(permissions.map((p) => p.permission))];
    const user: MeUserDto | null = principal.user
      ? {
          id: principal.user.id,
          name: principal.user.name,
          username: principal.user.name,
          accountType: 'User',
          isAPI: false,
          permissions: names,
        }
      : null;
    return {
      user: user ?? {
        // The UI treats a falsy id as "not signed in"; token ids start at 1.
        id: principal.tokenId,
        name: principal.tokenName,
        username: principal.tokenName,
        accountType: 'Service Account',
        isAPI: true,
        tokenType: principal.type === 'admin' ? 'admin' : 'service',
        permissions: names,
      },
      permissions,
      feedback: [],
      // The UI opens its welcome dialog until this key is true; an API caller has nothing to learn.
      splash: { personalDashboardKeyConcepts: true },
    };
  }
}

/**
 * Grants in the shape the UI checks: a permission without project and environment holds
 * everywhere, so only a grant limited to one environment carries `project: "*"` and that
 * environment (Flagkeeper has no per-project grants).
 */
export function toUiPermissions(grants: PermissionGrant[]): MePermissionDto[] {
  const seen = new Set<string>();
  const result: MePermissionDto[] = [];
  for (const grant of grants) {
    const scoped = grant.environment !== null && ENVIRONMENT_PERMISSIONS.has(grant.permission);
    const item: MePermissionDto = scoped
      ? { permission: grant.permission, project: '*', environment: grant.environment as string }
      : { permission: grant.permission };
    const key = `${item.permission}\u0000${item.environment ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(item);
  }
  return result;
}
