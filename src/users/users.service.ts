import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RolesService } from '../auth/roles.service';
import { isUniqueViolation } from '../common/database-errors';
import { NameExistsError, NotFoundError, ValidationError } from '../common/errors';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { EventsService } from '../events/events.service';
import { CreateUserDto, UpdateUserDto, UserDto, UserListDto } from './dto/user.dto';
import { hashPassword } from './passwords';
import { UserRow, UsersStore } from './users.store';

/** The Admin root role of every fresh database (seed migration). */
const ADMIN_ROLE_ID = 1;

export function toUserDto(row: UserRow): UserDto {
  return {
    id: row.id,
    name: row.name,
    username: row.username,
    email: row.email,
    imageUrl: row.imageUrl,
    rootRole: row.rootRoleId,
    createdAt: row.createdAt.toISOString(),
    seenAt: row.seenAt ? row.seenAt.toISOString() : null,
    isAPI: false,
  };
}

/** What an event says of a user: who, never the password. */
function eventData(user: UserDto): Record<string, unknown> {
  return { id: user.id, name: user.name, username: user.username, email: user.email };
}

@Injectable()
export class UsersService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Users');
  /** The generated first password, until main.ts prints it after the server listens. */
  private generatedPassword: string | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly store: UsersStore,
    private readonly roles: RolesService,
    private readonly events: EventsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.ensureInitialAdmin();
  }

  /** The password generated for the first admin user, once; then null. */
  takeGeneratedPassword(): string | null {
    const password = this.generatedPassword;
    this.generatedPassword = null;
    return password;
  }

  async list(): Promise<UserListDto> {
    return { users: (await this.store.list()).map(toUserDto) };
  }

  async get(id: number): Promise<UserDto> {
    return toUserDto(await this.findOrFail(id));
  }

  async create(dto: CreateUserDto): Promise<UserDto> {
    if (dto.username === undefined && dto.email === undefined) {
      throw ValidationError.of('/body/username', 'A user needs a username or an email to sign in');
    }
    await this.roles.findOrFail(dto.rootRole, '/body/rootRole');
    const passwordHash = dto.password === undefined ? null : await hashPassword(dto.password);
    const id = await this.unique(dto, () =>
      this.dataSource.transaction(async (tx) => {
        const created = await this.store.insert(
          tx,
          {
            name: dto.name ?? null,
            username: dto.username ?? null,
            email: dto.email ?? null,
            imageUrl: dto.imageUrl ?? null,
            rootRoleId: dto.rootRole,
          },
          passwordHash,
        );
        const user = toUserDto((await this.store.byId(created, tx)) as UserRow);
        await this.events.record(tx, { type: 'user-created', data: eventData(user) });
        return created;
      }),
    );
    return this.get(id);
  }

  async update(id: number, dto: UpdateUserDto): Promise<UserDto> {
    const before = toUserDto(await this.findOrFail(id));
    if (dto.rootRole !== undefined) await this.roles.findOrFail(dto.rootRole, '/body/rootRole');
    const passwordHash = dto.password === undefined ? undefined : await hashPassword(dto.password);
    await this.unique(dto, () =>
      this.dataSource.transaction(async (tx) => {
        await this.store.update(tx, id, {
          name: dto.name,
          username: dto.username,
          email: dto.email,
          imageUrl: dto.imageUrl,
          rootRoleId: dto.rootRole,
        });
        if (passwordHash !== undefined) await this.store.setPassword(tx, id, passwordHash);
        const after = toUserDto((await this.store.byId(id, tx)) as UserRow);
        await this.events.record(tx, {
          type: 'user-updated',
          data: eventData(after),
          preData: eventData(before),
        });
      }),
    );
    return this.get(id);
  }

  async changePassword(id: number, password: string): Promise<void> {
    const user = toUserDto(await this.findOrFail(id));
    const passwordHash = await hashPassword(password);
    await this.dataSource.transaction(async (tx) => {
      await this.store.setPassword(tx, id, passwordHash);
      await this.events.record(tx, { type: 'user-password-changed', data: eventData(user) });
    });
  }

  /** Deletes the user and, through the foreign key, every session of theirs at once. */
  async remove(id: number): Promise<void> {
    const user = toUserDto(await this.findOrFail(id));
    await this.dataSource.transaction(async (tx) => {
      await this.store.remove(tx, id);
      await this.events.record(tx, { type: 'user-deleted', preData: eventData(user) });
    });
  }

  private async findOrFail(id: number): Promise<UserRow> {
    const user = await this.store.byId(id);
    if (!user) throw NotFoundError.named('user', id, 'id');
    return user;
  }

  private async unique<T>(dto: UpdateUserDto, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new NameExistsError('A user with this username or email already exists');
      }
      throw error;
    }
  }

  /**
   * A fresh database gets one admin user, `admin`, so that a person can sign in. Its password is
   * INIT_ADMIN_PASSWORD, or generated and printed once by main.ts after the server listens
   * (never to the log).
   */
  private async ensureInitialAdmin(): Promise<void> {
    if ((await this.store.count()) > 0) return;
    const generated = this.config.initAdminPassword === null;
    const password = this.config.initAdminPassword ?? randomBytes(18).toString('base64url');
    const passwordHash = await hashPassword(password);
    try {
      await this.dataSource.transaction(async (tx) => {
        const id = await this.store.insert(
          tx,
          {
            name: 'Admin',
            username: 'admin',
            email: null,
            imageUrl: null,
            rootRoleId: ADMIN_ROLE_ID,
          },
          passwordHash,
        );
        // Outside any request: recorded as the system's.
        await this.events.record(tx, {
          type: 'user-created',
          data: { id, name: 'Admin', username: 'admin', email: null },
        });
      });
    } catch (error) {
      // Another replica created it first.
      if (isUniqueViolation(error)) return;
      throw error;
    }
    if (generated) this.generatedPassword = password;
    this.logger.log('Created the initial admin user (a generated password prints once at start)');
  }
}
