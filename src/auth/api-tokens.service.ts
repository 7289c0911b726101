import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import { EnvironmentsStore } from '../environments/environments.store';
import { ProjectsService } from '../projects/projects.service';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { NotFoundError, PermissionError, ValidationError } from '../common/errors';
import { isUniqueViolation } from '../common/database-errors';
import { EventsService } from '../events/events.service';
import { ApiToken } from './api-token.entity';
import { CreateApiTokenDto } from './dto/create-api-token.dto';
import { ApiTokenCreatedDto, ApiTokenDto } from './dto/api-token.dto';
import { hasPermission, PermissionGrant, Principal } from './permissions';
import { AuthStore } from './auth.store';
import { AuthVersion } from './auth-version.service';
import { RolesService } from './roles.service';
import { hashToken, newTokenString } from './token-secrets';

/** The listed identifier of a token: this prefix and its id (never a secret). */
const TOKEN_REF_PREFIX = 'token-';

/** The id in `12` or `token-12`; 400 for anything else. */
function tokenIdOf(ref: string): number {
  const digits = ref.startsWith(TOKEN_REF_PREFIX) ? ref.slice(TOKEN_REF_PREFIX.length) : ref;
  const id = /^[1-9]\d{0,14}$/.test(digits) ? Number(digits) : NaN;
  if (!Number.isSafeInteger(id)) {
    throw ValidationError.of(
      '/param/id',
      'id must be a token id or the identifier a token list shows (token-<id>)',
    );
  }
  return id;
}

/**
 * The longest a resolved token is kept. Changes do not wait for it: the auth version drops the
 * whole cache within AUTH_VERSION_CHECK_MS (see AuthVersion); this only bounds what a change
 * made outside the API (a row edited by hand) can leave behind.
 */
export const TOKEN_CACHE_TTL_MS = 60_000;

interface CacheEntry {
  principal: Principal;
  until: number;
}

/** A token as its events show it: metadata only, never the secret or its hash. */
function tokenEventData(row: ApiToken) {
  return {
    id: row.id,
    tokenName: row.tokenName,
    type: row.type,
    environment: row.environment,
    projects: row.projects,
    roleId: row.roleId,
    expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
  };
}

@Injectable()
export class ApiTokensService implements OnApplicationBootstrap {
  private readonly logger = new Logger('ApiTokens');
  /**
   * Per-process cache of resolved tokens, keyed by hash, valid for one auth version: a change to
   * tokens or roles empties it at once on the process that made it, and on other replicas within
   * AUTH_VERSION_CHECK_MS.
   */
  private readonly cache = new Map<string, CacheEntry>();
  private readonly loading = new Map<string, Promise<Principal | null>>();
  private generatedSecret: string | null = null;
  private cacheVersion: number | null = null;

  constructor(
    @InjectRepository(ApiToken) private readonly tokens: Repository<ApiToken>,
    private readonly environments: EnvironmentsStore,
    private readonly projects: ProjectsService,
    private readonly roles: RolesService,
    private readonly version: AuthVersion,
    private readonly store: AuthStore,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: EventsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.ensureInitialAdminTokens();
  }

  /** The admin token generated at this start, if any; handed over once, then forgotten. */
  takeGeneratedSecret(): string | null {
    const secret = this.generatedSecret;
    this.generatedSecret = null;
    return secret;
  }

  /** Resolves a raw token string to its principal, or null when it is unknown or expired. */
  async authenticate(token: string): Promise<Principal | null> {
    const hash = hashToken(token);
    const version = await this.version.current();
    if (version !== this.cacheVersion) {
      // Loads in flight drop their answers too (see loadOnce).
      this.cache.clear();
      this.loading.clear();
      this.cacheVersion = version;
    }
    const now = Date.now();
    const cached = this.cache.get(hash);
    let principal: Principal | null;
    if (cached && cached.until > now) {
      principal = cached.principal;
    } else {
      principal = await this.loadOnce(hash);
    }
    if (principal?.expiresAt && principal.expiresAt.getTime() <= now) return null;
    return principal;
  }

  async list(): Promise<{ tokens: ApiTokenDto[] }> {
    const rows = await this.tokens.find({ order: { id: 'ASC' } });
    return { tokens: rows.map((row) => this.map(row)) };
  }

  async create(input: CreateApiTokenDto, caller: Principal): Promise<ApiTokenCreatedDto> {
    const dto = input.type === 'admin' ? this.withoutAdminWildcards(input) : input;
    if (dto.type === 'admin' && !hasPermission(caller, 'ADMIN'))
      throw new PermissionError(['ADMIN']);
    if (dto.expiresAt && new Date(dto.expiresAt).getTime() <= Date.now()) {
      throw ValidationError.of('/body/expiresAt', 'expiresAt must lie in the future');
    }
    const { environment, projects, roleId } = await this.checkScope(dto);
    if (roleId !== null) await this.refuseStrongerRole(roleId, caller);
    const projectPart = projects.length === 1 ? projects[0] : projects.length === 0 ? '*' : '[]';
    const secret =
      dto.type === 'admin' || dto.type === 'service'
        ? newTokenString('*', '*')
        : newTokenString(projectPart, environment ?? '*');
    const row = this.tokens.create({
      tokenName: dto.tokenName,
      type: dto.type,
      secretHash: hashToken(secret),
      environment,
      projects,
      roleId,
      expiresAt: dto.expiresAt ? new Date(dto.expiresAt) : null,
      createdAt: new Date(),
    });
    // The event carries what the token may do, never its secret or hash.
    await this.events.write({ type: 'api-token-created', data: tokenEventData(row) }, (tx) =>
      tx.insert(ApiToken, row),
    );
    return { ...this.map(row), secret };
  }

  /**
   * Removes the token named by its id or by the identifier its listing shows in `secret`
   * (`token-<id>`), which is what Unleash's admin UI sends. docs/decisions-api-tokens.md.
   */
  async remove(ref: string): Promise<void> {
    const id = tokenIdOf(ref);
    const row = await this.tokens.findOne({ where: { id } });
    if (!row) throw NotFoundError.named('API token', id, 'id');
    await this.events.write(
      { type: 'api-token-deleted', preData: tokenEventData(row) },
      async (tx) => {
        await tx.delete(ApiToken, { id });
        await this.store.bumpVersion(tx);
      },
    );
    this.cache.delete(row.secretHash);
    this.loading.delete(row.secretHash);
    this.version.changed();
  }

  /** Creates the configured admin tokens, or prints a new one when no admin token exists at all. */
  private async ensureInitialAdminTokens(): Promise<void> {
    const configured = this.config.initAdminApiTokens;
    if (configured.length > 0) {
      const hashes = configured.map(hashToken);
      const existing = await this.tokens.find({
        where: { secretHash: In(hashes) },
        select: { secretHash: true },
      });
      const known = new Set(existing.map((row) => row.secretHash));
      const missing = hashes.filter((hash) => !known.has(hash));
      await this.insertInitialAdminTokens(
        missing.map((secretHash, index) => ({ name: `init-admin-token-${index + 1}`, secretHash })),
      );
      return;
    }
    if ((await this.tokens.count({ where: { type: 'admin' } })) > 0) return;
    const secret = newTokenString('*', '*');
    await this.insertInitialAdminTokens([
      { name: 'initial-admin-token', secretHash: hashToken(secret) },
    ]);
    // Kept in memory only until main.ts prints it, once, after the server listens.
    this.generatedSecret = secret;
    this.logger.log('Created the initial admin API token (printed to stdout once, at listen)');
  }

  /** Start-up tokens are writes like any other: each gets its event, recorded as the system's. */
  private async insertInitialAdminTokens(
    tokens: Array<{ name: string; secretHash: string }>,
  ): Promise<void> {
    if (tokens.length === 0) return;
    const rows = tokens.map(({ name, secretHash }) =>
      this.tokens.create({
        tokenName: name,
        type: 'admin',
        secretHash,
        environment: null,
        projects: [],
        roleId: null,
        expiresAt: null,
        createdAt: new Date(),
      }),
    );
    try {
      await this.dataSource.transaction(async (tx) => {
        await tx.insert(ApiToken, rows);
        await this.events.record(
          tx,
          ...rows.map((row) => ({ type: 'api-token-created', data: tokenEventData(row) })),
        );
      });
    } catch (error) {
      // Replicas starting at once: another one stored the configured tokens first.
      if (isUniqueViolation(error)) return;
      throw error;
    }
  }

  /**
   * Loads a token, sharing one query among the requests that miss the cache at the same moment
   * (when an entry expires under load, every request in flight would otherwise look it up).
   */
  private loadOnce(hash: string): Promise<Principal | null> {
    const inFlight = this.loading.get(hash);
    if (inFlight) return inFlight;
    const pending: Promise<Principal | null> = this.loadPrincipal(hash)
      .then((principal) => {
        // A revocation while the query ran removed this load: its answer must not be cached.
        if (this.loading.get(hash) === pending && principal) {
          this.cache.set(hash, { principal, until: Date.now() + TOKEN_CACHE_TTL_MS });
        }
        return principal;
      })
      .finally(() => {
        if (this.loading.get(hash) === pending) this.loading.delete(hash);
      });
    this.loading.set(hash, pending);
    return pending;
  }

  private async loadPrincipal(hash: string): Promise<Principal | null> {
    const row = await this.tokens.findOne({ where: { secretHash: hash } });
    if (!row) return null;
    let grants: PermissionGrant[] = [];
    if (row.type === 'admin') grants = [{ permission: 'ADMIN', environment: null }];
    else if (row.type === 'service' && row.roleId !== null)
      grants = await this.roles.grantsOf(row.roleId);
    return {
      tokenId: row.id,
      tokenName: row.tokenName,
      type: row.type,
      grants,
      expiresAt: row.expiresAt,
    };
  }

  /**
   * A caller may hand out only what it holds itself: without ADMIN, binding a service token to a
   * role that grants more (ADMIN, another permission, or one in more environments) would be a
   * way to raise its own rights.
   */
  private async refuseStrongerRole(roleId: number, caller: Principal): Promise<void> {
    if (hasPermission(caller, 'ADMIN')) return;
    const missing = (await this.roles.grantsOf(roleId)).filter(
      (grant) =>
        !caller.grants.some(
          (held) =>
            held.permission === grant.permission &&
            (held.environment === null || held.environment === grant.environment),
        ),
    );
    if (missing.length > 0) {
      throw new PermissionError(
        [...new Set(missing.map((grant) => grant.permission))],
        'A token may only be bound to a role whose permissions the caller holds itself',
      );
    }
  }

  private async checkScope(
    dto: CreateApiTokenDto,
  ): Promise<{ environment: string | null; projects: string[]; roleId: number | null }> {
    if (dto.type === 'admin') {
      this.forbid(
        dto,
        ['environment', 'projects', 'roleId'],
        'admin tokens have every permission and no scope',
      );
      return { environment: null, projects: [], roleId: null };
    }
    if (dto.type === 'service') {
      this.forbid(dto, ['environment', 'projects'], 'service tokens are scoped by their role');
      if (dto.roleId === undefined)
        throw ValidationError.of('/body/roleId', 'a service token needs a roleId');
      await this.roles.findOrFail(dto.roleId, '/body/roleId');
      return { environment: null, projects: [], roleId: dto.roleId };
    }
    this.forbid(
      dto,
      ['roleId'],
      'client and frontend tokens are scoped by environment and projects',
    );
    if (!dto.environment || dto.environment === '*')
      throw ValidationError.of('/body/environment', `a ${dto.type} token needs an environment`);
    const projects = (dto.projects ?? ['*']).filter((p, i, all) => all.indexOf(p) === i);
    if (!(await this.environments.exists(dto.environment))) {
      throw ValidationError.of(
        '/body/environment',
        `Could not find environment with name ${dto.environment}`,
      );
    }
    const named = projects.filter((p) => p !== '*');
    if (named.length > 0) {
      const missing = await this.projects.missingIds(named);
      if (missing.length > 0) {
        throw ValidationError.of(
          '/body/projects',
          `Could not find project with id ${missing.join(', ')}`,
        );
      }
    }
    return {
      environment: dto.environment,
      projects: named.length === projects.length ? projects : ['*'],
      roleId: null,
    };
  }

  /**
   * Unleash's admin UI sends an admin token with `environment: "*"` and `projects: ["*"]`: the
   * scope an admin token has anyway, so these say nothing and are dropped; anything else stays
   * refused by checkScope.
   */
  private withoutAdminWildcards(dto: CreateApiTokenDto): CreateApiTokenDto {
    const copy = { ...dto };
    if (copy.environment === '*') delete copy.environment;
    if (copy.projects?.length === 1 && copy.projects[0] === '*') delete copy.projects;
    return copy;
  }

  private forbid(
    dto: CreateApiTokenDto,
    fields: Array<keyof CreateApiTokenDto>,
    why: string,
  ): void {
    for (const field of fields) {
      if (dto[field] !== undefined)
        throw ValidationError.of(`/body/${field}`, `${field} is not allowed: ${why}`);
    }
  }

  private map(row: ApiToken): ApiTokenDto {
    const projects = row.projects;
    return {
      id: row.id,
      secret: `${TOKEN_REF_PREFIX}${row.id}`,
      tokenName: row.tokenName,
      type: row.type,
      environment: row.type === 'admin' ? '*' : row.environment,
      project: projects.length === 1 ? projects[0] : projects.length === 0 ? '*' : '[]',
      projects,
      roleId: row.roleId,
      expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
      createdAt: row.createdAt.toISOString(),
    };
  }
}
