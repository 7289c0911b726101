/** Every permission of rules.md §3. */
export const PERMISSIONS = [
  'ADMIN',
  'CREATE_ENVIRONMENT',
  'UPDATE_ENVIRONMENT',
  'DELETE_ENVIRONMENT',
  'CREATE_PROJECT',
  'UPDATE_PROJECT',
  'DELETE_PROJECT',
  'CREATE_FEATURE',
  'UPDATE_FEATURE',
  'DELETE_FEATURE',
  'CREATE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_STRATEGY',
  'DELETE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_ENVIRONMENT',
  'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
  'CREATE_TAG_TYPE',
  'UPDATE_TAG_TYPE',
  'DELETE_TAG_TYPE',
  'CREATE_CONTEXT_FIELD',
  'UPDATE_CONTEXT_FIELD',
  'DELETE_CONTEXT_FIELD',
  'CREATE_SEGMENT',
  'UPDATE_SEGMENT',
  'DELETE_SEGMENT',
  'READ_FEEDBACK',
  'CREATE_API_TOKEN',
  'DELETE_API_TOKEN',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/** Permissions that a role may grant for one environment only. */
export const ENVIRONMENT_PERMISSIONS: ReadonlySet<Permission> = new Set<Permission>([
  'CREATE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_STRATEGY',
  'DELETE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_ENVIRONMENT',
  'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
]);

export const TOKEN_TYPES = ['admin', 'service', 'client', 'frontend'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

export interface PermissionGrant {
  permission: Permission;
  /** null: every environment. */
  environment: string | null;
}

/** Who is calling: resolved from the API token by the guard, attached to the request. */
export interface Principal {
  tokenId: number;
  tokenName: string;
  /** `user`: a person signed in with a session cookie. */
  type: TokenType | 'user';
  grants: PermissionGrant[];
  /** Absolute expiry of the token, if any, checked on every request. */
  expiresAt: Date | null;
  /** Set when a person signed in: their session stands in for a token. */
  user?: { id: number; name: string };
}

export function hasPermission(
  principal: Principal,
  permission: Permission,
  environment?: string,
): boolean {
  return principal.grants.some(
    (grant) =>
      grant.permission === 'ADMIN' ||
      (grant.permission === permission &&
        (grant.environment === null ||
          environment === undefined ||
          grant.environment === environment)),
  );
}
