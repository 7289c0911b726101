import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ConflictError, ErrorDetail, NotFoundError, ValidationError } from '../common/errors';
import {
  CreateStrategyTypeDto,
  StrategyParameterDto,
  UpdateStrategyTypeDto,
} from './dto/create-strategy-type.dto';
import { EventsService } from '../events/events.service';
import { StrategiesStore } from '../features/strategies.store';
import { StrategyTypeDto, StrategyTypeListDto } from './dto/strategy-type.dto';
import { StrategyParameterDefinition, StrategyType } from './strategy-type.entity';
import { assertSameAsPath, rejectDuplicateName } from '../common/naming';

@Injectable()
export class StrategyTypesService {
  constructor(
    @InjectRepository(StrategyType) private readonly types: Repository<StrategyType>,
    private readonly strategies: StrategiesStore,
    private readonly events: EventsService,
  ) {}

  /** The strategy type of that name, or null (a strategy body naming it is then a 400). */
  find(name: string): Promise<StrategyType | null> {
    return this.types.findOne({ where: { name } });
  }

  /** By name (byte order). */
  async list(): Promise<StrategyTypeListDto> {
    const rows = await this.types.find({ order: { name: 'ASC' } });
    return { version: 1, strategies: rows.map((row) => this.map(row)) };
  }

  async get(name: string): Promise<StrategyTypeDto> {
    return this.map(await this.findOrFail(name));
  }

  async create(dto: CreateStrategyTypeDto): Promise<StrategyTypeDto> {
    const row: StrategyType = {
      name: dto.name,
      title: dto.title ?? null,
      description: dto.description ?? null,
      parameters: this.parameters(dto.parameters ?? []),
      builtIn: false,
      createdAt: new Date(),
    };
    await rejectDuplicateName('strategy type', dto.name, () =>
      this.events.write({ type: 'strategy-created', data: this.map(row) }, (tx) =>
        tx.insert(StrategyType, row),
      ),
    );
    return this.map(row);
  }

  async update(name: string, dto: UpdateStrategyTypeDto): Promise<StrategyTypeDto> {
    assertSameAsPath('name', dto.name, name);
    const parameters = dto.parameters ? this.parameters(dto.parameters) : undefined;
    const type = await this.findOrFail(name);
    this.refuseBuiltIn(type, 'changed');
    const changes: Partial<StrategyType> = {};
    if (dto.title !== undefined) changes.title = dto.title;
    if (dto.description !== undefined) changes.description = dto.description;
    if (parameters !== undefined) changes.parameters = parameters;
    if (Object.keys(changes).length > 0) {
      await this.events.write(
        {
          type: 'strategy-updated',
          data: this.map({ ...type, ...changes }),
          preData: this.map(type),
        },
        (tx) => tx.update(StrategyType, { name }, changes),
      );
    }
    return this.map({ ...type, ...changes });
  }

  /** Only custom types that no strategy uses; the foreign key backs this up in a race. */
  async remove(name: string): Promise<void> {
    const type = await this.findOrFail(name);
    this.refuseBuiltIn(type, 'deleted');
    if (await this.strategies.anyOfType(name)) {
      throw new ConflictError(`The strategy type ${name} is used by strategies; remove them first`);
    }
    await this.events.write({ type: 'strategy-deleted', preData: this.map(type) }, (tx) =>
      tx.delete(StrategyType, { name }),
    );
  }

  private async findOrFail(name: string): Promise<StrategyType> {
    const type = await this.find(name);
    if (!type) throw NotFoundError.named('strategy type', name);
    return type;
  }

  private refuseBuiltIn(type: StrategyType, action: string): void {
    if (type.builtIn) {
      throw ValidationError.of(
        '/param/name',
        `The built-in strategy type ${type.name} cannot be ${action}`,
      );
    }
  }

  /** Parameter definitions as stored, with unique names. */
  private parameters(input: StrategyParameterDto[]): StrategyParameterDefinition[] {
    const seen = new Set<string>();
    const details: ErrorDetail[] = [];
    input.forEach((parameter, index) => {
      if (seen.has(parameter.name)) {
        details.push({
          path: `/body/parameters/${index}/name`,
          message: `The parameter ${parameter.name} is defined twice`,
        });
      }
      seen.add(parameter.name);
    });
    if (details.length > 0) {
      throw ValidationError.listing(details, 'Invalid parameters');
    }
    return input.map((parameter) => ({
      name: parameter.name,
      type: parameter.type,
      description: parameter.description ?? '',
      required: parameter.required ?? false,
    }));
  }

  private map(row: StrategyType): StrategyTypeDto {
    return {
      name: row.name,
      title: row.title,
      displayName: row.title,
      description: row.description,
      editable: !row.builtIn,
      deprecated: false,
      parameters: row.parameters.map((parameter) => ({
        name: parameter.name,
        type: parameter.type,
        description: parameter.description,
        required: parameter.required,
      })),
    };
  }
}
