import { EventsService } from '../events/events.service';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { compareBytes } from '../common/byte-order';
import { NotFoundError } from '../common/errors';
import { ContextFieldsStore } from '../context-fields/context-fields.store';
import { Dialect, dialectOf, jsonStrings } from '../database/sql-dialect';
import { parseJson, toBoolean, toNullableNumber } from '../database/sql-values';
import { EnvironmentsStore } from '../environments/environments.store';
import { DependenciesStore } from '../features/dependencies.store';
import type { DependencyDto } from '../features/dto/feature.dto';
import type { StrategyDto } from '../features/dto/strategy.dto';
import { FeatureEnvironmentsStore } from '../features/feature-environments.store';
import { DependencyRow, FeatureRow, TagRow, toDependencyDto } from '../features/feature-mappers';
import { FeatureTagsStore } from '../features/feature-tags.store';
import { ExportSelection, FeaturesStore } from '../features/features.store';
import { StrategiesStore } from '../features/strategies.store';
import { BUILT_IN_STICKINESS } from '../features/variant-rules';
import type { Variant } from '../features/variant';
import { ProjectsStore } from '../projects/projects.store';
import { SegmentsStore } from '../segments/segments.store';
import { TagTypesStore } from '../tags/tag-types.store';
import type { ExportQueryDto } from './dto/export-query.dto';
import type {
  ExportDependencyDto,
  ExportFeatureDto,
  ExportFeatureEnvironmentDto,
  ExportFeatureTagDto,
  ExportResultDto,
  ExportSegmentDto,
} from './dto/export-result.dto';
import { SELECTION_TABLE, selectionOf, selectionTableDdl } from './export-selection';

export interface ExportFile {
  document: ExportResultDto;
  /** `export-<environment>-<yyyy-MM-dd_HH-mm-ss>.json`, in UTC, for `downloadFile: true`. */
  filename: string;
}

export function exportFileName(environment: string, at: Date): string {
  const stamp = at.toISOString().slice(0, 19).replace('T', '_').replace(/:/g, '-');
  return `export-${environment}-${stamp}.json`;
}

function emptyDocument(): ExportResultDto {
  return {
    features: [],
    featureEnvironments: [],
    featureStrategies: [],
    contextFields: [],
    segments: [],
    featureTags: [],
    tagTypes: [],
    dependencies: [],
  };
}

/**
 * The export of rules.md §6. One read transaction (one snapshot), and a fixed number of statements
 * whatever the number of features: the features are selected with one query, their names go into
 * a temporary table as one JSON parameter, and each table's store then reads the selected rows
 * with one statement that joins it; no statement has a placeholder per feature. Rows are read raw
 * (no entity hydration), each JSON column is parsed once while its row is mapped, and every list
 * is sorted in JS in UTF-8 byte order so that both databases give the same bytes.
 */
@Injectable()
export class ExportService {
  private readonly dialect: Dialect;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly environments: EnvironmentsStore,
    private readonly projects: ProjectsStore,
    private readonly features: FeaturesStore,
    private readonly featureEnvironments: FeatureEnvironmentsStore,
    private readonly strategies: StrategiesStore,
    private readonly segments: SegmentsStore,
    private readonly tags: FeatureTagsStore,
    private readonly tagTypes: TagTypesStore,
    private readonly contextFields: ContextFieldsStore,
    private readonly dependencies: DependenciesStore,
    private readonly events: EventsService,
  ) {
    this.dialect = dialectOf(dataSource);
  }

  async export(query: ExportQueryDto, at: Date = new Date()): Promise<ExportFile> {
    const selection = selectionOf(query);
    const read = (manager: EntityManager) => this.read(manager, query.environment, selection);
    // InnoDB's default, stated so that a server set to READ COMMITTED still gives one snapshot.
    // SQLite's transactions are serializable already (and TypeORM accepts no other level there).
    const document =
      this.dialect === 'mysql'
        ? await this.dataSource.transaction('REPEATABLE READ', read)
        : await this.dataSource.transaction(read);
    // Metadata only, never the payload. Its own INSERT after the read: the read transaction stays
    // a read (one snapshot, no write lock held while it reads), and as the event is written
    // before the answer leaves, no export is delivered without its event.
    await this.events.recordAlone({
      type: 'features-exported',
      project: selection.rule === 'project' ? selection.projectId : null,
      environment: query.environment,
      data: { selection, features: document.features.length },
    });
    return { document, filename: exportFileName(query.environment, at) };
  }

  private async read(
    tx: EntityManager,
    environment: string,
    selection: ExportSelection,
  ): Promise<ExportResultDto> {
    if (!(await this.environments.exists(environment, tx))) {
      throw NotFoundError.named('environment', environment);
    }
    if (selection.rule === 'project' && !(await this.projects.exists(selection.projectId, tx))) {
      throw NotFoundError.named('project', selection.projectId, 'id');
    }
    const document = emptyDocument();
    document.features = (await this.features.readForExport(tx, selection)).map(toExportFeature);
    if (document.features.length === 0) return document;
    document.features.sort((a, b) => compareBytes(a.name, b.name));

    const ddl = selectionTableDdl(this.dialect);
    // On MySQL a table left on this pooled connection by an export whose clean-up failed would
    // make CREATE fail; SQLite rolls a temp table back with the transaction that created it.
    await tx.query(ddl.drop);
    await tx.query(ddl.create);
    try {
      // From a parameter rather than INSERT ... SELECT FROM features: on InnoDB that SELECT
      // would be a locking read (shared next-key locks until COMMIT, which block creating a
      // feature in the exported project) reading the newest rows instead of the snapshot.
      await tx.query(`INSERT INTO ${SELECTION_TABLE} (name) ${jsonStrings(this.dialect)}`, [
        JSON.stringify(document.features.map((feature) => feature.name)),
      ]);
      await this.readSelected(tx, environment, document);
    } catch (error) {
      // The original error is the one to report; the drop is a courtesy to the connection.
      await tx.query(ddl.drop).catch(() => undefined);
      throw error;
    }
    await tx.query(ddl.drop);
    return document;
  }

  /** The selected features' other data: one statement per table, each joining the selection. */
  private async readSelected(
    tx: EntityManager,
    environment: string,
    document: ExportResultDto,
  ): Promise<void> {
    const contextNames = new Set<string>();
    document.featureEnvironments = (
      await this.featureEnvironments.readForExport(tx, SELECTION_TABLE, environment)
    ).map((row) => toExportFeatureEnvironment(row, environment, contextNames));
    document.featureEnvironments.sort((a, b) => compareBytes(a.featureName, b.featureName));

    const segmentIds = new Set<number>();
    document.featureStrategies = await this.strategies.readForExport(
      tx,
      SELECTION_TABLE,
      environment,
    );
    for (const strategy of document.featureStrategies) {
      for (const id of strategy.segments) segmentIds.add(id);
      addContextNames(strategy, contextNames);
    }
    document.featureStrategies.sort(
      (a, b) =>
        compareBytes(a.featureName, b.featureName) ||
        a.sortOrder - b.sortOrder ||
        compareBytes(a.id, b.id),
    );
    document.segments = (await this.segments.readForExport(tx, [...segmentIds])).sort(
      (a: ExportSegmentDto, b: ExportSegmentDto) => compareBytes(a.name, b.name) || a.id - b.id,
    );

    document.featureTags = (await this.tags.readForExport(tx, SELECTION_TABLE)).map(toExportTag);
    document.featureTags.sort(
      (a, b) =>
        compareBytes(a.featureName, b.featureName) ||
        compareBytes(a.tagType, b.tagType) ||
        compareBytes(a.tagValue, b.tagValue),
    );

    // Tag types and context fields are few (definitions, not per-feature data).
    const tagTypeNames = [...new Set(document.featureTags.map((tag) => tag.tagType))];
    document.tagTypes = (await this.tagTypes.readForExport(tx, tagTypeNames)).sort((a, b) =>
      compareBytes(a.name, b.name),
    );
    document.contextFields = (await this.contextFields.readForExport(tx, [...contextNames])).sort(
      (a, b) => compareBytes(a.name, b.name),
    );

    document.dependencies = toExportDependencies(
      await this.dependencies.readForExport(tx, SELECTION_TABLE),
    );
  }
}

function toExportFeature(row: Omit<FeatureRow, 'created_at'>): ExportFeatureDto {
  return {
    name: row.name,
    description: row.description ?? null,
    type: row.type,
    project: row.project_id,
    stale: toBoolean(row.stale),
    impressionData: toBoolean(row.impression_data),
    archived: row.archived_at !== null && row.archived_at !== undefined,
  };
}

function addStickiness(names: Set<string>, stickiness: unknown): void {
  if (typeof stickiness === 'string' && !BUILT_IN_STICKINESS.includes(stickiness))
    names.add(stickiness);
}

/** The context fields a feature environment's variants name. */
function toExportFeatureEnvironment(
  row: { feature_name: string; enabled: unknown; variants: unknown },
  environment: string,
  contextNames: Set<string>,
): ExportFeatureEnvironmentDto {
  const variants = parseJson<Variant[]>(row.variants, []);
  for (const variant of variants) {
    addStickiness(contextNames, variant.stickiness);
    for (const override of variant.overrides ?? []) contextNames.add(override.contextName);
  }
  return {
    name: row.feature_name,
    featureName: row.feature_name,
    environment,
    enabled: toBoolean(row.enabled),
    variants,
  };
}

/** The context fields a strategy names: stickiness, constraints, its variants' stickiness. */
function addContextNames(strategy: StrategyDto, contextNames: Set<string>): void {
  addStickiness(contextNames, strategy.parameters.stickiness);
  for (const constraint of strategy.constraints) contextNames.add(constraint.contextName);
  for (const variant of strategy.variants) addStickiness(contextNames, variant.stickiness);
}

function toExportTag(row: TagRow): ExportFeatureTagDto {
  return {
    featureName: row.feature_name,
    tagType: row.tag_type,
    tagValue: row.tag_value,
    createdByUserId: toNullableNumber(row.created_by_user_id),
  };
}

/** One entry per child, by child name; its parents by name. */
function toExportDependencies(rows: DependencyRow[]): ExportDependencyDto[] {
  const byChild = new Map<string, DependencyDto[]>();
  for (const row of rows) {
    const parent = toDependencyDto(row);
    const parents = byChild.get(row.child);
    if (parents) parents.push(parent);
    else byChild.set(row.child, [parent]);
  }
  return [...byChild.entries()]
    .sort(([a], [b]) => compareBytes(a, b))
    .map(([feature, dependencies]) => ({
      feature,
      dependencies: dependencies.sort((a, b) => compareBytes(a.feature, b.feature)),
    }));
}
