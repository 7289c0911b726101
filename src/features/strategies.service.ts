import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import type { Constraint } from '../common/constraints/constraint';
import { ErrorDetail, NotFoundError, ValidationError } from '../common/errors';
import { ConstraintValidator } from '../context-fields/constraint-validator.service';
import { SegmentsService } from '../segments/segments.service';
import { StrategyTypesService } from '../strategy-types/strategy-types.service';
import type { CreateStrategyDto, StrategyDto, UpdateStrategyDto } from './dto/strategy.dto';
import { FeatureLookup, FeatureRef } from './feature-lookup';
import { FeatureEnvironmentsStore } from './feature-environments.store';
import { FeatureReadModel } from './feature-read.model';
import { StrategiesStore } from './strategies.store';
import { normaliseParameters } from './strategy-parameters';
import { FeatureStrategy } from './feature-strategy.entity';
import { FeatureStrategySegment } from './feature-strategy-segment.entity';
import type { StrategyVariant } from './variant';
import {
  ContextReference,
  normaliseStrategyVariants,
  referencedNames,
  unknownContextFields,
} from './variant-rules';
import { EventsService } from '../events/events.service';

/** A strategy as it will be stored, after every rule has been checked. */
interface CheckedStrategy {
  name: string;
  title: string | null;
  disabled: boolean;
  sortOrder: number | undefined;
  parameters: Record<string, string>;
  constraints: Constraint[];
  variants: StrategyVariant[];
  segments: number[];
}

/** The activation strategies of a feature in one environment. */
@Injectable()
export class StrategiesService {
  constructor(
    private readonly events: EventsService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lookup: FeatureLookup,
    private readonly read: FeatureReadModel,
    private readonly store: StrategiesStore,
    private readonly strategyTypes: StrategyTypesService,
    private readonly segments: SegmentsService,
    private readonly constraints: ConstraintValidator,
    private readonly featureEnvironments: FeatureEnvironmentsStore,
  ) {}

  async list(projectId: string, name: string, environment: string): Promise<StrategyDto[]> {
    const feature = await this.lookup.inProject(projectId, name);
    await this.lookup.environmentOf(feature, environment);
    return this.read.strategies(name, environment);
  }

  async get(
    projectId: string,
    name: string,
    environment: string,
    id: string,
  ): Promise<StrategyDto> {
    const feature = await this.lookup.inProject(projectId, name);
    await this.lookup.environmentOf(feature, environment);
    return this.findOrFail(name, environment, id);
  }

  /** Adds a strategy; without a sortOrder it goes after the existing ones. */
  async create(
    projectId: string,
    name: string,
    environment: string,
    dto: CreateStrategyDto,
  ): Promise<StrategyDto> {
    const feature = await this.writable(projectId, name, environment);
    const checked = await this.check(feature, dto);
    const id = randomUUID();
    await this.dataSource.transaction(async (manager) => {
      await this.hold(manager, name, environment, checked);
      const sortOrder =
        checked.sortOrder ?? (await this.store.nextSortOrder(manager, name, environment));
      await manager.insert(FeatureStrategy, {
        id,
        featureName: name,
        environment,
        name: checked.name,
        title: checked.title,
        parameters: checked.parameters,
        constraints: checked.constraints,
        variants: checked.variants,
        sortOrder,
        disabled: checked.disabled,
        createdAt: new Date(),
      });
      await this.linkSegments(manager, id, checked.segments);
      await this.events.record(manager, {
        type: 'feature-strategy-add',
        project: projectId,
        environment,
        featureName: name,
        data: { id, ...checked, sortOrder },
      });
    });
    return this.findOrFail(name, environment, id);
  }

  /**
   * Replaces a strategy and its segment links in one transaction. Fields left out take their
   * defaults, except sortOrder, which keeps the strategy's place when not given.
   */
  async update(
    projectId: string,
    name: string,
    environment: string,
    id: string,
    dto: UpdateStrategyDto,
  ): Promise<StrategyDto> {
    const feature = await this.writable(projectId, name, environment);
    const before = await this.findOrFail(name, environment, id);
    if (dto.id !== undefined && dto.id !== id) {
      throw ValidationError.of('/body/id', `id must be the strategy id of the path (${id})`);
    }
    const checked = await this.check(feature, dto);
    await this.dataSource.transaction(async (manager) => {
      await this.hold(manager, name, environment, checked);
      await manager.update(
        FeatureStrategy,
        { id },
        {
          name: checked.name,
          title: checked.title,
          parameters: checked.parameters,
          constraints: checked.constraints,
          variants: checked.variants,
          disabled: checked.disabled,
          ...(checked.sortOrder !== undefined ? { sortOrder: checked.sortOrder } : {}),
        },
      );
      await manager.delete(FeatureStrategySegment, { strategyId: id });
      await this.linkSegments(manager, id, checked.segments);
      await this.events.record(manager, {
        type: 'feature-strategy-update',
        project: projectId,
        environment,
        featureName: name,
        data: { id, ...checked },
        preData: before,
      });
    });
    return this.findOrFail(name, environment, id);
  }

  async remove(projectId: string, name: string, environment: string, id: string): Promise<void> {
    await this.writable(projectId, name, environment);
    const before = await this.findOrFail(name, environment, id);
    // The segment links go with it (ON DELETE CASCADE).
    await this.dataSource.transaction(async (tx) => {
      await tx.delete(FeatureStrategy, { id });
      await this.events.record(tx, {
        type: 'feature-strategy-remove',
        project: projectId,
        environment,
        featureName: name,
        preData: before,
      });
    });
  }

  private async writable(
    projectId: string,
    name: string,
    environment: string,
  ): Promise<FeatureRef> {
    const feature = await this.lookup.inProject(projectId, name);
    this.lookup.assertActive(feature);
    await this.lookup.environmentOf(feature, environment);
    return feature;
  }

  private async findOrFail(name: string, environment: string, id: string): Promise<StrategyDto> {
    const strategy = await this.read.strategy(name, environment, id);
    if (!strategy) {
      throw new NotFoundError(
        `Could not find strategy with id ${id} for feature ${name} in environment ${environment}`,
      );
    }
    return strategy;
  }

  /**
   * The locks a strategy write takes first, inside its transaction (docs/decisions-concurrency.md):
   * the feature's row in the environment, so that writes to one strategy list run one at a time
   * and each new strategy's sortOrder follows the last; then a shared hold on the context fields
   * its constraints name and on its segments, so that none of them is deleted before it is
   * committed. What vanished since check() ran is refused as check() would have refused it.
   */
  private async hold(
    manager: EntityManager,
    name: string,
    environment: string,
    checked: CheckedStrategy,
  ): Promise<void> {
    if (!(await this.featureEnvironments.lock(name, environment, manager))) {
      throw new NotFoundError(`Feature ${name} has no configuration in environment ${environment}`);
    }
    await this.constraints.holdFields(checked.constraints, '/body/constraints', manager);
    const missing = await this.segments.holdSegments(checked.segments, manager);
    if (missing.length > 0) {
      throw ValidationError.listing(
        missing.map((id) => ({
          path: '/body/segments',
          message: `Could not find segment with id ${id}`,
        })),
      );
    }
  }

  private async linkSegments(
    manager: EntityManager,
    strategyId: string,
    segmentIds: number[],
  ): Promise<void> {
    if (segmentIds.length === 0) return;
    await manager.insert(
      FeatureStrategySegment,
      segmentIds.map((segmentId) => ({ strategyId, segmentId })),
    );
  }

  /**
   * Every rule of a strategy body, with all violations reported at once: the strategy type
   * exists, parameter values are strings (percentages 0–100), constraints follow the context
   * fields, variants follow the weight rules, and the segments and context fields exist.
   */
  private async check(feature: FeatureRef, dto: CreateStrategyDto): Promise<CheckedStrategy> {
    const details: ErrorDetail[] = [];
    const references: ContextReference[] = [];

    const type = await this.strategyTypes.find(dto.name);
    if (!type) details.push({ path: '/body/name', message: `Unknown strategy type ${dto.name}` });

    const checked = normaliseParameters(
      dto.parameters,
      type ?? undefined,
      feature.name,
      '/body/parameters',
    );
    const parameters = checked.parameters;
    details.push(...checked.details);
    references.push(...checked.references);

    let constraints: Constraint[] = [];
    try {
      constraints = await this.constraints.validate(dto.constraints ?? [], '/body/constraints');
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      details.push(...(error.details ?? []));
    }

    const variantResult = normaliseStrategyVariants(dto.variants ?? [], '/body/variants');
    details.push(...variantResult.details);
    references.push(...variantResult.references);
    const known = await this.lookup.existingContextFields(referencedNames(references));
    details.push(...unknownContextFields(references, known));

    const segments = [...new Set(dto.segments ?? [])];
    const missing = new Set(await this.segments.missingIds(segments));
    (dto.segments ?? []).forEach((id, index) => {
      if (missing.has(id)) {
        details.push({
          path: `/body/segments/${index}`,
          message: `Could not find segment with id ${id}`,
        });
      }
    });

    if (details.length > 0) throw ValidationError.listing(details);
    return {
      name: dto.name,
      title: dto.title ?? null,
      disabled: dto.disabled ?? false,
      sortOrder: dto.sortOrder,
      parameters,
      constraints,
      variants: variantResult.variants,
      segments: segments.sort((a, b) => a - b),
    };
  }
}
