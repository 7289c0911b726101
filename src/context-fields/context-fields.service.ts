import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import {
  ConflictError,
  ErrorDetail,
  NameExistsError,
  NotFoundError,
  ValidationError,
} from '../common/errors';
import { EventsService } from '../events/events.service';
import { StrategiesStore } from '../features/strategies.store';
import { SegmentsStore } from '../segments/segments.store';
import { ContextField, LegalValue } from './context-field.entity';
import { ContextFieldsStore } from './context-fields.store';
import { ContextFieldDto, ContextFieldStrategiesDto } from './dto/context-field.dto';
import {
  CreateContextFieldDto,
  LegalValueDto,
  UpdateContextFieldDto,
} from './dto/create-context-field.dto';
import { assertSameAsPath, rejectDuplicateName } from '../common/naming';

/** Where a new field goes when no sortOrder is given: after the built-in ones (0–5), as in Unleash. */
const DEFAULT_SORT_ORDER = 10;

/** How errors name this kind of thing; create and validate give the same 409. */
const KIND = 'context field';

/**
 * The text that a constraint on this field leaves in a stored constraints column. Constraints are
 * always written with JSON.stringify (no whitespace), and a name cannot contain characters JSON
 * escapes, so this fragment matches exactly the constraints whose contextName is the field: a
 * value that merely contains the name has its quotes escaped (\") and cannot match.
 */
export function constraintNeedle(name: string): string {
  return JSON.stringify({ contextName: name }).slice(1, -1);
}

@Injectable()
export class ContextFieldsService {
  constructor(
    @InjectRepository(ContextField) private readonly fields: Repository<ContextField>,
    private readonly strategiesStore: StrategiesStore,
    private readonly segments: SegmentsStore,
    private readonly store: ContextFieldsStore,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: EventsService,
  ) {}

  /** A bare array, as Unleash answers it, by sortOrder then name, with usage counts. */
  list(): Promise<ContextFieldDto[]> {
    return this.store.records();
  }

  async get(name: string): Promise<ContextFieldDto> {
    const [record] = await this.store.records(name);
    if (!record) throw NotFoundError.named('context field', name);
    return record;
  }

  /** The strategies whose constraints name the field (404 for an unknown field). */
  async strategies(name: string): Promise<ContextFieldStrategiesDto> {
    await this.findOrFail(name);
    return { strategies: await this.strategiesStore.usingContextField(name) };
  }

  /**
   * What create checks of a new field's name beyond its DTO: that it is free. The create form's
   * validate route calls this; create itself relies on the unique index with the same 409.
   */
  async validateName(name: string): Promise<void> {
    if (await this.fields.exists({ where: { name } })) throw NameExistsError.named(KIND, name);
  }

  async create(dto: CreateContextFieldDto): Promise<ContextFieldDto> {
    const row: ContextField = {
      name: dto.name,
      description: dto.description ?? null,
      stickiness: dto.stickiness ?? false,
      sortOrder: dto.sortOrder ?? DEFAULT_SORT_ORDER,
      legalValues: this.legalValues(dto.legalValues ?? []),
      createdAt: new Date(),
    };
    await rejectDuplicateName(KIND, dto.name, () =>
      this.events.write({ type: 'context-field-created', data: this.map(row) }, (tx) =>
        tx.insert(ContextField, row),
      ),
    );
    return { ...this.map(row), usedInFeatures: 0, usedInProjects: 0 };
  }

  async update(name: string, dto: UpdateContextFieldDto): Promise<ContextFieldDto> {
    assertSameAsPath('name', dto.name, name);
    const legalValues = dto.legalValues ? this.legalValues(dto.legalValues) : undefined;
    const field = await this.findOrFail(name);
    const changes: Partial<ContextField> = {};
    if (dto.description !== undefined) changes.description = dto.description;
    if (dto.stickiness !== undefined) changes.stickiness = dto.stickiness;
    if (dto.sortOrder !== undefined) changes.sortOrder = dto.sortOrder;
    if (legalValues !== undefined) changes.legalValues = legalValues;
    if (Object.keys(changes).length > 0) {
      await this.events.write(
        {
          type: 'context-field-updated',
          data: this.map({ ...field, ...changes }),
          preData: this.map(field),
        },
        (tx) => tx.update(ContextField, { name }, changes),
      );
    }
    return this.get(name);
  }

  /**
   * Refuses (409) while a strategy or segment constraint names the field. The field is locked
   * first, so a constraint being written at the same moment is either committed before the check
   * sees it or refused for naming a deleted field (ConstraintValidator.holdFields).
   */
  async remove(name: string): Promise<void> {
    const field = await this.findOrFail(name);
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.store.lockForUpdate(name, manager))) {
        throw NotFoundError.named('context field', name);
      }
      const needle = constraintNeedle(name);
      if (await this.strategiesStore.anyConstraintContaining(needle, manager)) {
        throw new ConflictError(
          `The context field ${name} is used by strategy constraints; remove them first`,
        );
      }
      const segment = await this.segments.firstWithConstraintContaining(needle, manager);
      if (segment !== null) {
        throw new ConflictError(
          `The context field ${name} is used by the constraints of segment ${segment}`,
        );
      }
      await manager.delete(ContextField, { name });
      await this.events.record(manager, {
        type: 'context-field-deleted',
        preData: this.map(field),
      });
    });
  }

  private async findOrFail(name: string): Promise<ContextField> {
    const field = await this.fields.findOne({ where: { name } });
    if (!field) throw NotFoundError.named('context field', name);
    return field;
  }

  /** Legal values as stored: in the given order, unique, description only when given. */
  private legalValues(input: LegalValueDto[]): LegalValue[] {
    const seen = new Map<string, number>();
    const details: ErrorDetail[] = [];
    input.forEach((legal, index) => {
      const first = seen.get(legal.value);
      if (first !== undefined) {
        details.push({
          path: `/body/legalValues/${index}/value`,
          message: `${legal.value} is already legal value ${first}; legal values must be unique`,
        });
      } else {
        seen.set(legal.value, index);
      }
    });
    if (details.length > 0) {
      throw ValidationError.listing(details, 'Invalid legal values');
    }
    return input.map((legal) =>
      legal.description === undefined
        ? { value: legal.value }
        : { value: legal.value, description: legal.description },
    );
  }

  private map(row: ContextField): Omit<ContextFieldDto, 'usedInFeatures' | 'usedInProjects'> {
    return {
      name: row.name,
      description: row.description,
      stickiness: row.stickiness,
      sortOrder: row.sortOrder,
      createdAt: row.createdAt ? row.createdAt.toISOString() : null,
      legalValues: row.legalValues.map((legal) =>
        legal.description === undefined
          ? { value: legal.value }
          : { value: legal.value, description: legal.description },
      ),
    };
  }
}
