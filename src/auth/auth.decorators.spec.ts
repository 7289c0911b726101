import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PATH_METADATA } from '@nestjs/common/constants';
import { ENVIRONMENT_PERMISSIONS, PERMISSIONS } from './permissions';
import {
  PermissionRequirement,
  REQUIRED_PERMISSION,
  RequirePermission,
  requirementProblem,
} from './auth.decorators';

function controllerFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return controllerFiles(path);
    return entry.name.endsWith('.controller.ts') ? [path] : [];
  });
}

describe('@RequirePermission fails closed', () => {
  it.each([...ENVIRONMENT_PERMISSIONS])(
    'refuses %s without the place its environment comes from, at load time',
    (permission) => {
      expect(() => RequirePermission(permission)).toThrow(/granted per environment/);
      expect(() => RequirePermission(permission, { param: 'env' })).not.toThrow();
      expect(() => RequirePermission(permission, { body: 'environment' })).not.toThrow();
    },
  );

  it('accepts the permissions that are not scoped to an environment as they are', () => {
    const unscoped = PERMISSIONS.filter((p) => !ENVIRONMENT_PERMISSIONS.has(p));
    expect(unscoped.length).toBeGreaterThan(0);
    for (const permission of unscoped) {
      expect(requirementProblem({ permission })).toBeUndefined();
    }
  });
});

describe('every route of the application', () => {
  it('declares where the environment of an environment-scoped permission comes from', async () => {
    const checked: string[] = [];
    for (const file of controllerFiles(join(__dirname, '..'))) {
      // Loading the module runs the decorators: a wrong one throws here already.
      const exports = (await import(file)) as Record<string, unknown>;
      for (const controller of Object.values(exports)) {
        if (typeof controller !== 'function' || !Reflect.getMetadata(PATH_METADATA, controller))
          continue;
        const prototype = controller.prototype as Record<string, unknown>;
        for (const name of Object.getOwnPropertyNames(prototype)) {
          const handler = prototype[name];
          if (name === 'constructor' || typeof handler !== 'function') continue;
          const requirement = (Reflect.getMetadata(REQUIRED_PERMISSION, handler) ??
            Reflect.getMetadata(REQUIRED_PERMISSION, controller)) as
            PermissionRequirement | undefined;
          if (!requirement) continue;
          expect([`${controller.name}.${name}`, requirementProblem(requirement)]).toEqual([
            `${controller.name}.${name}`,
            undefined,
          ]);
          checked.push(`${controller.name}.${name}`);
        }
      }
    }
    expect(checked).toEqual(expect.arrayContaining(['StrategiesController.create']));
  });
});
