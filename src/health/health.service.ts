import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ServiceUnavailableError } from '../common/errors';

/**
 * How long /health waits for the database. Below the request bounds of bounded-waits.ts, so that
 * /health answers within 2 s even when the pool is busy with a stalled database.
 */
export const HEALTH_TIMEOUT_MS = 1500;

@Injectable()
export class HealthService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** GOOD when the database answers; otherwise 503, so that a load balancer takes the replica out. */
  async check(): Promise<{ health: 'GOOD' }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), HEALTH_TIMEOUT_MS);
    });
    // A probe that loses the race still ends by itself, through the query and acquire timeouts.
    const probe = this.dataSource.query('SELECT 1').then(
      () => true,
      () => false,
    );
    try {
      if (!(await Promise.race([probe, timeout]))) throw new ServiceUnavailableError();
    } finally {
      clearTimeout(timer);
    }
    return { health: 'GOOD' };
  }
}
