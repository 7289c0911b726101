import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RolesService } from '../auth/roles.service';
import type { Principal } from '../auth/permissions';
import { AuthenticationRequired, TooManyRequestsError } from '../common/errors';
import { requestContext } from '../common/request-context';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { EventsService } from '../events/events.service';
import { UserDto } from './dto/user.dto';
import { verifyPassword } from './passwords';
import { toUserDto } from './users.service';
import { UserRow, UsersStore } from './users.store';

export const SESSION_COOKIE = 'flagkeeper-session';

/**
 * Sign-in attempts are limited per username and per client address, in a window of 15 minutes,
 * counted in the database so that the limit holds across replicas.
 */
const ATTEMPT_WINDOW_MS = 15 * 60_000;
const MAX_FAILURES_PER_USERNAME = 10;
const MAX_FAILURES_PER_ADDRESS = 100;
/** last_seen_at is written at most this often per session, not on every request. */
const TOUCH_EVERY_MS = 60_000;

/** How events and the UI name a user: name, else username, else email. */
export function displayName(user: UserRow): string {
  return user.name ?? user.username ?? user.email ?? `user ${user.id}`;
}

function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/**
 * Sign-in sessions, kept in the database (replicas stay stateless): a random 256-bit id in an
 * HttpOnly cookie, and only its SHA-256 in the table. Every request reads the session, so logging
 * out or deleting the user ends it on every replica at once.
 */
@Injectable()
export class SessionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly store: UsersStore,
    private readonly roles: RolesService,
    private readonly events: EventsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Checks the password and opens a new session; wrong user and wrong password answer alike. */
  async login(
    login: string,
    password: string,
    address: string,
  ): Promise<{ user: UserDto; sessionId: string; maxAgeSeconds: number }> {
    const now = new Date();
    const windowStart = new Date(now.getTime() - ATTEMPT_WINDOW_MS);
    const userKey = `user:${login}`;
    const addressKey = `address:${address}`;
    if (
      (await this.store.failures([userKey], windowStart)) >= MAX_FAILURES_PER_USERNAME ||
      (await this.store.failures([addressKey], windowStart)) >= MAX_FAILURES_PER_ADDRESS
    ) {
      throw new TooManyRequestsError('Too many failed sign-ins; try again in 15 minutes');
    }
    const user = await this.store.byLogin(login);
    // verifyPassword derives a key even without a user, so both failures take as long.
    const valid = await verifyPassword(password, user?.passwordHash ?? null);
    if (!user || !valid) {
      await this.store.addFailure([userKey, addressKey], now, windowStart);
      throw new AuthenticationRequired('Wrong username or password');
    }
    await this.store.clearFailures(userKey);
    // A new id at every sign-in (no session fixation).
    const sessionId = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + this.config.sessionMaxMs);
    const dto = toUserDto(user);
    const store = requestContext.getStore();
    if (store) {
      store.principal = await this.principalOf(user.id, displayName(user), user.rootRoleId);
    }
    await this.dataSource.transaction(async (tx) => {
      await this.store.insertSession(tx, hashSessionId(sessionId), user.id, now, expiresAt);
      await this.events.record(tx, {
        type: 'user-logged-in',
        data: { id: user.id, username: user.username, email: user.email },
      });
    });
    await this.store.markSeen(user.id, now);
    return { user: dto, sessionId, maxAgeSeconds: Math.floor(this.config.sessionMaxMs / 1000) };
  }

  async logout(sessionId: string): Promise<void> {
    await this.store.removeSession(hashSessionId(sessionId));
  }

  /** The principal of a live session, or null when it is unknown, idle too long or expired. */
  async authenticate(sessionId: string): Promise<Principal | null> {
    const now = new Date();
    const idHash = hashSessionId(sessionId);
    const session = await this.store.liveSession(
      idHash,
      now,
      new Date(now.getTime() - this.config.sessionIdleMs),
    );
    if (!session) return null;
    const user = await this.store.byId(session.userId);
    if (!user) return null;
    if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      await this.store.touchSession(idHash, now);
    }
    return this.principalOf(user.id, displayName(user), user.rootRoleId);
  }

  private async principalOf(id: number, name: string, rootRoleId: number): Promise<Principal> {
    return {
      tokenId: 0,
      tokenName: name,
      type: 'user',
      grants: await this.roles.grantsOf(rootRoleId),
      expiresAt: null,
      user: { id, name },
    };
  }
}
