import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ServiceUnavailableError } from '../common/errors';

@Injectable()
export class HealthService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** GOOD when the database answers; otherwise 503, so that a load balancer takes the replica out. */
  async check(): Promise<{ health: 'GOOD' }> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new ServiceUnavailableError();
    }
    return { health: 'GOOD' };
  }
}
