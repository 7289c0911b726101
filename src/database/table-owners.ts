/**
 * Who owns each table. The owner is a module folder under src/; every SQL statement that names a
 * table lives in that folder's store files (`*.store.ts`), and other modules reach the table only
 * through those stores or the owner's services. The architecture test (src/architecture.spec.ts)
 * enforces this map, so a new table is added here with its first migration.
 */
export const TABLE_OWNERS: Readonly<Record<string, string>> = {
  projects: 'projects',
  project_environments: 'projects',
  environments: 'environments',
  context_fields: 'context-fields',
  segments: 'segments',
  tag_types: 'tags',
  tags: 'tags',
  strategy_types: 'strategy-types',
  features: 'features',
  feature_environments: 'features',
  feature_strategies: 'features',
  feature_strategy_segments: 'features',
  feature_tags: 'features',
  feature_dependencies: 'features',
  feature_lifecycles: 'features',
  feature_list_items: 'features',
  feature_list_generation: 'features',
  export_kept_runs: 'features',
  roles: 'auth',
  role_permissions: 'auth',
  api_tokens: 'auth',
  auth_version: 'auth',
  feedback: 'feedback',
  users: 'users',
  user_sessions: 'users',
  login_attempts: 'users',
  favorite_features: 'users',
  events: 'events',
  // A temporary table of one export's feature names, created and dropped inside its transaction.
  export_selection: 'export',
  // A temporary map from old to new strategy id during one environment clone (MySQL only).
  clone_strategy_ids: 'features',
  // The lock row that serialises migrations on Galera (migration-lock.store.ts); not a migration.
  migrations_lock: 'database',
};
