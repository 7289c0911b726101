import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Repository } from 'typeorm';
import type { Constraint } from '../common/constraints/constraint';
import { isUniqueViolation } from '../common/database-errors';
import { ConflictError, NameExistsError, NotFoundError, ValidationError } from '../common/errors';
import { ConstraintValidator } from '../context-fields/constraint-validator.service';
import { EventsService } from '../events/events.service';
import { StrategiesStore } from '../features/strategies.store';
import { ProjectsService } from '../projects/projects.service';
import { CreateSegmentDto, UpdateSegmentDto } from './dto/create-segment.dto';
import { SegmentDto, SegmentListDto, SegmentStrategiesDto } from './dto/segment.dto';
import { Segment } from './segment.entity';
import { SegmentsStore } from './segments.store';
import { assertSameAsPath, rejectDuplicateName } from '../common/naming';

@Injectable()
export class SegmentsService {
  constructor(
    @InjectRepository(Segment) private readonly segments: Repository<Segment>,
    private readonly strategies: StrategiesStore,
    private readonly constraintValidator: ConstraintValidator,
    private readonly projects: ProjectsService,
    private readonly store: SegmentsStore,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: EventsService,
  ) {}

  /** The ids among these that name no segment (one query). */
  async missingIds(ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.segments.find({ where: { id: In(ids) }, select: { id: true } });
    const found = new Set(rows.map((row) => row.id));
    return ids.filter((id) => !found.has(id));
  }

  /**
   * Inside the transaction of a strategy write: share-locks these segments so that none is
   * deleted before the links are committed, and returns the ids among them that are gone.
   */
  async holdSegments(ids: number[], tx: EntityManager): Promise<number[]> {
    const found = await this.store.lockShared(ids, tx);
    return ids.filter((id) => !found.has(id));
  }

  /** By name (byte order), then id, with usage counts (one statement). */
  async list(): Promise<SegmentListDto> {
    return { segments: await this.store.records() };
  }

  async get(id: number): Promise<SegmentDto> {
    const [record] = await this.store.records([id]);
    if (!record) throw NotFoundError.named('segment', id, 'id');
    return record;
  }

  /**
   * The segments of a strategy, so that an admin UI editing the strategy keeps them. An unknown
   * strategy is 404, as any id in a path (Unleash answers an empty list).
   */
  async ofStrategy(strategyId: string): Promise<SegmentListDto> {
    const ids = await this.strategies.segmentIdsOfStrategy(strategyId);
    if (ids === null) throw NotFoundError.named('strategy', strategyId, 'id');
    return { segments: await this.store.records(ids) };
  }

  /** The strategies that use the segment (404 for an unknown segment). */
  async strategiesUsing(id: number): Promise<SegmentStrategiesDto> {
    await this.findOrFail(id);
    return { strategies: await this.strategies.usingSegment(id), changeRequestStrategies: [] };
  }

  /** Checks the body (400: project, constraints) before the name (409). */
  /**
   * What create checks of a new segment's name beyond its DTO: that it is free. The create form's
   * validate route calls this; create itself relies on the unique index with the same 409.
   */
  async validateName(name: string): Promise<void> {
    if (await this.segments.exists({ where: { name } }))
      throw NameExistsError.named('segment', name);
  }

  async create(dto: CreateSegmentDto): Promise<SegmentDto> {
    const projectId = dto.project ?? null;
    if (projectId !== null) await this.assertProject(projectId);
    const constraints = await this.constraintValidator.validate(
      dto.constraints,
      '/body/constraints',
    );
    const row = this.segments.create({
      name: dto.name,
      description: dto.description ?? null,
      projectId,
      constraints,
      createdAt: new Date(),
    });
    await rejectDuplicateName('segment', dto.name, () =>
      this.dataSource.transaction(async (manager) => {
        await this.constraintValidator.holdFields(constraints, '/body/constraints', manager);
        await manager.insert(Segment, row);
        // After the INSERT, which gives the segment its id.
        await this.events.record(manager, {
          type: 'segment-created',
          project: projectId,
          data: this.map(row),
        });
      }),
    );
    return { ...this.map(row), usedInFeatures: 0, usedInProjects: 0 };
  }

  async update(id: number, dto: UpdateSegmentDto): Promise<SegmentDto> {
    assertSameAsPath('id', dto.id, id);
    const segment = await this.findOrFail(id);
    const changes: Partial<Segment> = {};
    if (dto.project !== undefined && dto.project !== segment.projectId) {
      if (dto.project !== null) {
        await this.assertProject(dto.project);
        await this.assertOnlyUsedIn(id, dto.project);
      }
      changes.projectId = dto.project;
    }
    if (dto.constraints !== undefined) {
      changes.constraints = await this.constraintValidator.validate(
        dto.constraints,
        '/body/constraints',
      );
    }
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.description !== undefined) changes.description = dto.description;
    if (Object.keys(changes).length > 0) {
      try {
        await this.dataSource.transaction(async (manager) => {
          if (changes.constraints) {
            await this.constraintValidator.holdFields(
              changes.constraints,
              '/body/constraints',
              manager,
            );
          }
          await manager.update(Segment, { id }, changes);
          await this.events.record(manager, {
            type: 'segment-updated',
            project: changes.projectId !== undefined ? changes.projectId : segment.projectId,
            data: this.map({ ...segment, ...changes }),
            preData: this.map(segment),
          });
        });
      } catch (error) {
        if (isUniqueViolation(error) && dto.name) throw NameExistsError.named('segment', dto.name);
        throw error;
      }
    }
    return this.get(id);
  }

  /**
   * Refuses (409) while a strategy uses the segment. The segment is locked first, so a strategy
   * linking it at the same moment is either seen here or finds it gone (holdSegments).
   */
  async remove(id: number): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.store.lockForUpdate(id, manager))) {
        throw NotFoundError.named('segment', id, 'id');
      }
      const segment = await manager.findOneOrFail(Segment, { where: { id } });
      if (await this.strategies.usesSegment(id, manager)) {
        throw new ConflictError(
          `The segment ${segment.name} is used by strategies; remove it from them first`,
        );
      }
      await manager.delete(Segment, { id });
      await this.events.record(manager, {
        type: 'segment-deleted',
        project: segment.projectId,
        preData: this.map(segment),
      });
    });
  }

  private async findOrFail(id: number): Promise<Segment> {
    const segment = await this.segments.findOne({ where: { id } });
    if (!segment) throw NotFoundError.named('segment', id, 'id');
    return segment;
  }

  private async assertProject(projectId: string): Promise<void> {
    if ((await this.projects.missingIds([projectId])).length > 0) {
      throw ValidationError.of('/body/project', `Could not find project with id ${projectId}`);
    }
  }

  /** A segment limited to a project may only serve strategies of that project's features. */
  private async assertOnlyUsedIn(id: number, projectId: string): Promise<void> {
    const elsewhere = await this.strategies.projectUsingSegmentOutside(id, projectId);
    if (elsewhere !== null) {
      throw ValidationError.of(
        '/body/project',
        `The segment is used by strategies in project ${elsewhere}; it cannot be limited to project ${projectId}`,
      );
    }
  }

  private map(row: Segment): Omit<SegmentDto, 'usedInFeatures' | 'usedInProjects'> {
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      project: row.projectId,
      constraints: row.constraints.map((c: Constraint) => ({ ...c })),
      createdAt: row.createdAt.toISOString(),
    };
  }
}
