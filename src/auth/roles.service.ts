import { EnvironmentsStore } from '../environments/environments.store';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import { ConflictError, NameExistsError, NotFoundError, ValidationError } from '../common/errors';
import { isUniqueViolation } from '../common/database-errors';
import { CreateRoleDto, UpdateRoleDto } from './dto/create-role.dto';
import { RoleDto } from './dto/role.dto';
import { ENVIRONMENT_PERMISSIONS, Permission, PermissionGrant } from './permissions';
import { EventsService } from '../events/events.service';
import { AuthStore } from './auth.store';
import { AuthVersion } from './auth-version.service';
import { Role } from './role.entity';
import { RolePermission } from './role-permission.entity';

@Injectable()
export class RolesService {
  constructor(
    @InjectRepository(Role) private readonly roles: Repository<Role>,
    @InjectRepository(RolePermission) private readonly permissions: Repository<RolePermission>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly store: AuthStore,
    private readonly environments: EnvironmentsStore,
    private readonly version: AuthVersion,
    private readonly events: EventsService,
  ) {}

  async grantsOf(roleId: number): Promise<PermissionGrant[]> {
    const rows = await this.permissions.find({
      where: { roleId },
      select: { permission: true, environment: true },
    });
    return rows.map((row) => ({ permission: row.permission, environment: row.environment }));
  }

  async findOrFail(id: number, bodyPath?: string): Promise<Role> {
    const role = await this.roles.findOne({ where: { id } });
    if (!role) {
      if (bodyPath) throw ValidationError.of(bodyPath, `Could not find role with id ${id}`);
      throw NotFoundError.named('role', id, 'id');
    }
    return role;
  }

  async list(): Promise<{ roles: RoleDto[] }> {
    const roles = await this.roles.find({ order: { id: 'ASC' } });
    const rows = roles.length
      ? await this.permissions.find({
          where: { roleId: In(roles.map((r) => r.id)) },
          order: { id: 'ASC' },
        })
      : [];
    return {
      roles: roles.map((role) =>
        this.map(
          role,
          rows.filter((row) => row.roleId === role.id),
        ),
      ),
    };
  }

  async get(id: number): Promise<RoleDto> {
    const role = await this.findOrFail(id);
    const rows = await this.permissions.find({ where: { roleId: id }, order: { id: 'ASC' } });
    return this.map(role, rows);
  }

  async create(dto: CreateRoleDto): Promise<RoleDto> {
    const grants = await this.checkGrants(dto.permissions);
    try {
      return await this.dataSource.transaction(async (manager) => {
        const role = manager.create(Role, {
          name: dto.name,
          description: dto.description ?? null,
          type: 'custom',
          createdAt: new Date(),
        });
        await manager.insert(Role, role);
        const rows = grants.map((grant) =>
          manager.create(RolePermission, { roleId: role.id, ...grant }),
        );
        if (rows.length) await manager.insert(RolePermission, rows);
        const created = this.map(role, rows);
        await this.events.record(manager, { type: 'role-created', data: created });
        return created;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw NameExistsError.named('role', dto.name);
      throw error;
    }
  }

  async update(id: number, dto: UpdateRoleDto): Promise<RoleDto> {
    const role = await this.findOrFail(id);
    this.refuseRoot(role);
    const before = await this.get(id);
    const grants = dto.permissions ? await this.checkGrants(dto.permissions) : undefined;
    try {
      await this.dataSource.transaction(async (manager) => {
        const changes: Partial<Role> = {};
        if (dto.name !== undefined) changes.name = dto.name;
        if (dto.description !== undefined) changes.description = dto.description;
        if (Object.keys(changes).length) await manager.update(Role, { id }, changes);
        if (grants) {
          await manager.delete(RolePermission, { roleId: id });
          if (grants.length) {
            await manager.insert(
              RolePermission,
              grants.map((grant) => ({ roleId: id, ...grant })),
            );
          }
          // Tokens bound to the role now hold other rights: every replica's cache is stale.
          await this.store.bumpVersion(manager);
        }
        await this.events.record(manager, {
          type: 'role-updated',
          data: { id, ...changes, ...(grants ? { permissions: grants } : {}) },
          preData: before,
        });
      });
    } catch (error) {
      if (isUniqueViolation(error) && dto.name) throw NameExistsError.named('role', dto.name);
      throw error;
    }
    if (grants) this.version.changed();
    return this.get(id);
  }

  async remove(id: number): Promise<void> {
    const role = await this.findOrFail(id);
    this.refuseRoot(role);
    if (await this.store.roleHasTokens(id))
      throw new ConflictError(`The role ${role.name} is used by API tokens; delete them first`);
    const before = await this.get(id);
    await this.events.write({ type: 'role-deleted', preData: before }, async (tx) => {
      await tx.delete(Role, { id });
      await this.store.bumpVersion(tx);
    });
    this.version.changed();
  }

  private refuseRoot(role: Role): void {
    if (role.type === 'root') {
      throw ValidationError.of(
        '/param/id',
        `The built-in role ${role.name} cannot be changed or deleted`,
      );
    }
  }

  /** Checks the environments named by the grants and drops duplicate rows. */
  private async checkGrants(
    input: Array<{ name: Permission; environment?: string | null }>,
  ): Promise<PermissionGrant[]> {
    const seen = new Set<string>();
    const grants: PermissionGrant[] = [];
    input.forEach((item, index) => {
      const environment = item.environment ?? null;
      if (environment !== null && !ENVIRONMENT_PERMISSIONS.has(item.name)) {
        throw ValidationError.of(
          `/body/permissions/${index}/environment`,
          `${item.name} is not an environment permission and cannot be limited to one environment`,
        );
      }
      const key = `${item.name}\u0000${environment ?? ''}`;
      if (!seen.has(key)) {
        seen.add(key);
        grants.push({ permission: item.name, environment });
      }
    });
    const environments = [
      ...new Set(grants.map((g) => g.environment).filter((e): e is string => e !== null)),
    ];
    if (environments.length) {
      const found = await this.environments.existing(environments);
      const missing = environments.filter((env) => !found.has(env));
      if (missing.length) {
        const index = input.findIndex((item) => item.environment === missing[0]);
        throw ValidationError.of(
          `/body/permissions/${index}/environment`,
          `Could not find environment with name ${missing[0]}`,
        );
      }
    }
    return grants;
  }

  private map(
    role: Role,
    rows: Array<Pick<RolePermission, 'permission' | 'environment'>>,
  ): RoleDto {
    return {
      id: role.id,
      name: role.name,
      description: role.description,
      type: role.type,
      permissions: rows.map((row) => ({ name: row.permission, environment: row.environment })),
    };
  }
}
