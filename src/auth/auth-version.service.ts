import { Injectable } from '@nestjs/common';
import { AuthStore } from './auth.store';

/**
 * How often a replica rereads the auth version while requests come in: the longest a change
 * made on another replica goes unnoticed, plus one primary-key read.
 */
export const AUTH_VERSION_CHECK_MS = 200;

/**
 * Tells the token cache when it is stale. Every change to tokens, roles or role permissions
 * bumps the `auth_version` row in its own transaction (AuthStore.bumpVersion); this reads that
 * row at most once per AUTH_VERSION_CHECK_MS, shared by the requests that arrive meanwhile, so
 * token checks stay off the hot path. The replica that made a change calls changed() after the
 * commit, and its very next request rereads the version.
 */
@Injectable()
export class AuthVersion {
  private known: number | null = null;
  private checkedAt = 0;
  private reading: Promise<number> | null = null;
  private generation = 0;

  constructor(private readonly store: AuthStore) {}

  /** The auth version, read again when the last read is older than AUTH_VERSION_CHECK_MS. */
  async current(): Promise<number> {
    if (this.known !== null && Date.now() - this.checkedAt < AUTH_VERSION_CHECK_MS) {
      return this.known;
    }
    if (this.reading) return this.reading;
    const generation = this.generation;
    // The read counts from when it starts: a change committed during it is caught next time.
    const startedAt = Date.now();
    const reading = this.store.version().then((version) => {
      if (generation === this.generation) {
        this.known = version;
        this.checkedAt = startedAt;
      }
      return version;
    });
    this.reading = reading;
    try {
      return await reading;
    } finally {
      if (this.reading === reading) this.reading = null;
    }
  }

  /** After this replica committed a change: the next check reads the version again. */
  changed(): void {
    this.generation++;
    this.known = null;
    this.reading = null;
  }
}
