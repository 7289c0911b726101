import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { NotFoundError } from '../common/errors';
import { Environment } from './environment.entity';

@Injectable()
export class EnvironmentsService {
  constructor(
    @InjectRepository(Environment) private readonly environments: Repository<Environment>,
  ) {}

  /** For routes that name an environment in the path: the environment, or 404. */
  async findOrFail(name: string): Promise<Environment> {
    const environment = await this.environments.findOne({ where: { name } });
    if (!environment) throw NotFoundError.named('environment', name);
    return environment;
  }
}
