import { MigrationInterface, QueryRunner } from 'typeorm';

// A migration is a snapshot: these lists are written out here rather than imported from the
// application, so that a later change to the code cannot rewrite what an old database received.

const CONTEXT_FIELDS: Array<[string, string, boolean, number]> = [
  ['environment', 'The environment the application runs in', false, 0],
  ['userId', 'An identifier of the current user', true, 1],
  ['appName', 'The name of the application', false, 2],
  ['sessionId', 'An identifier of the current session', true, 3],
  ['remoteAddress', 'The IP address of the client', false, 4],
  ['currentTime', 'The current date and time', false, 5],
];

const param = (name: string, type: string, description: string, required: boolean) => ({
  name,
  type,
  description,
  required,
});

const STRATEGY_TYPES: Array<[string, string, string, object[]]> = [
  ['default', 'Standard', 'On or off for everyone.', []],
  [
    'flexibleRollout',
    'Gradual rollout',
    'Roll out to a percentage of users, sticky on a context field.',
    [
      param('rollout', 'percentage', 'Percentage of users to enable, 0 to 100', false),
      param('stickiness', 'string', 'Context field used to keep a user in or out', false),
      param('groupId', 'string', 'Group identifier used for the hash', false),
    ],
  ],
  [
    'userWithId',
    'User IDs',
    'On for the listed user ids.',
    [param('userIds', 'list', 'Comma-separated user ids', true)],
  ],
  [
    'remoteAddress',
    'IPs',
    'On for the listed IP addresses.',
    [param('IPs', 'list', 'Comma-separated IP addresses', true)],
  ],
  [
    'applicationHostname',
    'Hosts',
    'On for the listed host names.',
    [param('hostNames', 'list', 'Comma-separated host names', true)],
  ],
];

const ENV_PERMISSIONS = [
  'CREATE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_STRATEGY',
  'DELETE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_ENVIRONMENT',
  'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
];

const EDITOR_PERMISSIONS = [
  'CREATE_ENVIRONMENT',
  'UPDATE_ENVIRONMENT',
  'DELETE_ENVIRONMENT',
  'CREATE_PROJECT',
  'UPDATE_PROJECT',
  'DELETE_PROJECT',
  'CREATE_FEATURE',
  'UPDATE_FEATURE',
  'DELETE_FEATURE',
  ...ENV_PERMISSIONS,
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
];

/** The contents of a fresh database (rules.md §1). */
export class SeedDefaults1763700000001 implements MigrationInterface {
  name = 'SeedDefaults1763700000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string, params: unknown[] = []) => queryRunner.query(sql, params);

    await q(`INSERT INTO projects (id, name, description) VALUES (?, ?, ?)`, [
      'default',
      'Default',
      'Default project',
    ]);
    for (const [name, sortOrder] of [
      ['development', 100],
      ['production', 200],
    ] as const) {
      await q(
        `INSERT INTO environments (name, type, enabled, protected, sort_order) VALUES (?, ?, 1, 0, ?)`,
        [name, name, sortOrder],
      );
      await q(`INSERT INTO project_environments (project_id, environment_name) VALUES (?, ?)`, [
        'default',
        name,
      ]);
    }
    await q(`INSERT INTO tag_types (name, description, icon) VALUES (?, ?, NULL)`, [
      'simple',
      'Used to simplify filtering of features',
    ]);
    for (const [name, description, stickiness, sortOrder] of CONTEXT_FIELDS) {
      await q(
        `INSERT INTO context_fields (name, description, stickiness, sort_order, legal_values) VALUES (?, ?, ?, ?, '[]')`,
        [name, description, stickiness ? 1 : 0, sortOrder],
      );
    }
    for (const [name, title, description, parameters] of STRATEGY_TYPES) {
      await q(
        `INSERT INTO strategy_types (name, title, description, parameters, built_in) VALUES (?, ?, ?, ?, 1)`,
        [name, title, description, JSON.stringify(parameters)],
      );
    }
    const roles: Array<[number, string, string, string[]]> = [
      [1, 'Admin', 'Users with the admin role have superuser access', ['ADMIN']],
      [
        2,
        'Editor',
        'Users with the editor role can change everything but roles and tokens',
        EDITOR_PERMISSIONS,
      ],
      [3, 'Viewer', 'Users with the viewer role can only read', []],
    ];
    for (const [id, name, description, permissions] of roles) {
      await q(`INSERT INTO roles (id, name, description, type) VALUES (?, ?, ?, 'root')`, [
        id,
        name,
        description,
      ]);
      for (const permission of permissions) {
        await q(
          `INSERT INTO role_permissions (role_id, permission, environment_name) VALUES (?, ?, NULL)`,
          [id, permission],
        );
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'role_permissions',
      'roles',
      'strategy_types',
      'context_fields',
      'tag_types',
      'project_environments',
      'environments',
      'projects',
    ]) {
      await queryRunner.query(`DELETE FROM ${table}`);
    }
  }
}
