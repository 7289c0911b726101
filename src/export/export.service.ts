import { EventsService } from '../events/events.service';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { compareBytes } from '../common/byte-order';
import { NotFoundError } from '../common/errors';
import { ContextFieldsStore } from '../context-fields/context-fields.store';
import { Dialect, dialectOf, jsonStrings } from '../database/sql-dialect';
import { parseJson, toBoolean, toNullableNumber, toNumber } from '../database/sql-values';
import { EnvironmentsStore } from '../environments/environments.store';
import { DependenciesStore } from '../features/dependencies.store';
import type { DependencyDto } from '../features/dto/feature.dto';
import { FeatureEnvironmentsStore } from '../features/feature-environments.store';
import { DependencyRow, FeatureRow, TagRow, toDependencyDto } from '../features/feature-mappers';
import { FeatureTagsStore } from '../features/feature-tags.store';
import { ExportSelection, FeaturesStore } from '../features/features.store';
import {
  segmentIdList,
  StrategiesStore,
  StrategyWithSegmentsRow,
} from '../features/strategies.store';
import { BUILT_IN_STICKINESS } from '../features/variant-rules';
import type { StrategyVariant, Variant } from '../features/variant';
import { ProjectsStore } from '../projects/projects.store';
import { SegmentsStore } from '../segments/segments.store';
import { TagTypesStore } from '../tags/tag-types.store';
import type { ExportQueryDto } from './dto/export-query.dto';
import type { TagTypeDto } from '../tags/dto/tag-type.dto';
import type { Constraint } from '../common/constraints/constraint';
import type {
  ExportContextFieldDto,
  ExportDependencyDto,
  ExportFeatureDto,
  ExportFeatureTagDto,
  ExportSegmentDto,
} from './dto/export-result.dto';
import { canonicalScan, JsonPath, PathSink } from './canonical-json';
import { SELECTION_TABLE, selectionOf, selectionTableDdl } from './export-selection';

export interface ExportFile {
  /**
   * The document's JSON text in pieces of about CHUNK_CHARS, built as they are asked for: the same
   * bytes as JSON.stringify of the ExportResultDto (rules.md §6), without holding its string.
   */
  body: Iterable<string>;
  /** `export-<environment>-<yyyy-MM-dd_HH-mm-ss>.json`, in UTC, for `downloadFile: true`. */
  filename: string;
}

export function exportFileName(environment: string, at: Date): string {
  const stamp = at.toISOString().slice(0, 19).replace('T', '_').replace(/:/g, '-');
  return `export-${environment}-${stamp}.json`;
}

/** Large enough that a write is not a syscall per item, small enough to stay out of old space. */
const CHUNK_CHARS = 64 * 1024;

/** A feature environment whose `variants` is canonical JSON text, ready to splice. */
interface EnvironmentItem {
  featureName: string;
  enabled: boolean;
  variants: string;
}

/** A strategy whose JSON columns are canonical JSON text, ready to splice. */
interface StrategyItem {
  id: string;
  name: string;
  featureName: string;
  title: string | null;
  parameters: string;
  constraints: string;
  variants: string;
  sortOrder: number;
  disabled: boolean;
  segments: number[];
}

/** What the read transaction collects: every list sorted, the JSON columns as text. */
interface ExportRows {
  environment: string;
  features: ExportFeatureDto[];
  featureEnvironments: EnvironmentItem[];
  featureStrategies: StrategyItem[];
  contextFields: ExportContextFieldDto[];
  segments: ExportSegmentDto[];
  featureTags: ExportFeatureTagDto[];
  tagTypes: TagTypeDto[];
  dependencies: ExportDependencyDto[];
}

function emptyRows(environment: string): ExportRows {
  return {
    environment,
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
 * (no entity hydration) and every list is sorted in JS in UTF-8 byte order so that both databases
 * give the same bytes.
 *
 * The stored JSON columns (variants, parameters, constraints) are not parsed: they are spliced into
 * the document as stored when canonicalScan finds them in JSON.stringify's form (the form the app
 * writes), and parsed and serialised again only when not. The same scan collects the context
 * fields they name. The errors rules.md §6 names (unknown environment or project) are found in the
 * transaction, before the first byte; the document is then built piece by piece as the response
 * is written.
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
    const rows =
      this.dialect !== 'sqlite'
        ? await this.dataSource.transaction('REPEATABLE READ', read)
        : await this.dataSource.transaction(read);
    // Metadata only, never the payload. Its own INSERT after the read: the read transaction stays
    // a read (one snapshot, no write lock held while it reads), and as the event is written
    // before the answer leaves, no export is delivered without its event.
    await this.events.recordAlone({
      type: 'features-exported',
      project: selection.rule === 'project' ? selection.projectId : null,
      environment: query.environment,
      data: { selection, features: rows.features.length },
    });
    return { body: documentText(rows), filename: exportFileName(query.environment, at) };
  }

  private async read(
    tx: EntityManager,
    environment: string,
    selection: ExportSelection,
  ): Promise<ExportRows> {
    if (!(await this.environments.exists(environment, tx))) {
      throw NotFoundError.named('environment', environment);
    }
    if (selection.rule === 'project' && !(await this.projects.exists(selection.projectId, tx))) {
      throw NotFoundError.named('project', selection.projectId, 'id');
    }
    const rows = emptyRows(environment);
    rows.features = (await this.features.readForExport(tx, selection)).map(toExportFeature);
    if (rows.features.length === 0) return rows;
    rows.features.sort((a, b) => compareBytes(a.name, b.name));

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
        JSON.stringify(rows.features.map((feature) => feature.name)),
      ]);
      await this.readSelected(tx, environment, rows);
    } catch (error) {
      // The original error is the one to report; the drop is a courtesy to the connection.
      await tx.query(ddl.drop).catch(() => undefined);
      throw error;
    }
    await tx.query(ddl.drop);
    return rows;
  }

  /** The selected features' other data: one statement per table, each joining the selection. */
  private async readSelected(
    tx: EntityManager,
    environment: string,
    rows: ExportRows,
  ): Promise<void> {
    const contextNames = new Set<string>();
    const names = contextNameSinks(contextNames);
    rows.featureEnvironments = (
      await this.featureEnvironments.readForExport(tx, SELECTION_TABLE, environment)
    ).map((row) => toEnvironmentItem(row, names, contextNames));
    rows.featureEnvironments.sort((a, b) => compareBytes(a.featureName, b.featureName));

    const segmentIds = new Set<number>();
    rows.featureStrategies = (
      await this.strategies.readForExport(tx, SELECTION_TABLE, environment)
    ).map((row) => toStrategyItem(row, names, contextNames));
    for (const strategy of rows.featureStrategies) {
      for (const id of strategy.segments) segmentIds.add(id);
    }
    rows.featureStrategies.sort(
      (a, b) =>
        compareBytes(a.featureName, b.featureName) ||
        a.sortOrder - b.sortOrder ||
        compareBytes(a.id, b.id),
    );
    rows.segments = (await this.segments.readForExport(tx, [...segmentIds])).sort(
      (a: ExportSegmentDto, b: ExportSegmentDto) => compareBytes(a.name, b.name) || a.id - b.id,
    );

    rows.featureTags = (await this.tags.readForExport(tx, SELECTION_TABLE)).map(toExportTag);
    rows.featureTags.sort(
      (a, b) =>
        compareBytes(a.featureName, b.featureName) ||
        compareBytes(a.tagType, b.tagType) ||
        compareBytes(a.tagValue, b.tagValue),
    );

    // Tag types and context fields are few (definitions, not per-feature data).
    const tagTypeNames = [...new Set(rows.featureTags.map((tag) => tag.tagType))];
    rows.tagTypes = (await this.tagTypes.readForExport(tx, tagTypeNames)).sort((a, b) =>
      compareBytes(a.name, b.name),
    );
    rows.contextFields = (await this.contextFields.readForExport(tx, [...contextNames])).sort(
      (a, b) => compareBytes(a.name, b.name),
    );

    rows.dependencies = toExportDependencies(
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

/** Where the JSON columns name context fields, as canonicalScan paths (null: any element). */
interface ContextNameSinks {
  environmentVariants: PathSink[];
  parameters: PathSink[];
  constraints: PathSink[];
  strategyVariants: PathSink[];
}

function contextNameSinks(names: Set<string>): ContextNameSinks {
  const stickiness = (path: JsonPath): PathSink => ({
    path,
    take: (value) => addStickiness(names, value),
  });
  const contextName = (path: JsonPath): PathSink => ({ path, take: (value) => names.add(value) });
  return {
    environmentVariants: [
      stickiness([null, 'stickiness']),
      contextName([null, 'overrides', null, 'contextName']),
    ],
    parameters: [stickiness(['stickiness'])],
    constraints: [contextName([null, 'contextName'])],
    strategyVariants: [stickiness([null, 'stickiness'])],
  };
}

/**
 * A stored JSON column as text to splice: as stored when canonical, else parsed (handing the value
 * to `collect`, which then finds the context names that the sinks would have) and serialised.
 */
function spliceable(
  stored: unknown,
  opener: '[' | '{',
  sinks: readonly PathSink[],
  collect: (parsed: unknown) => void,
): string {
  const empty = opener === '[' ? '[]' : '{}';
  if (stored === null || stored === undefined || stored === '') return empty;
  if (typeof stored === 'string' && canonicalScan(stored, opener, sinks)) return stored;
  const parsed = parseJson<unknown>(stored, opener === '[' ? [] : {});
  collect(parsed);
  return JSON.stringify(parsed);
}

/** The context fields a feature environment's variants name. */
function toEnvironmentItem(
  row: { feature_name: string; enabled: unknown; variants: unknown },
  sinks: ContextNameSinks,
  contextNames: Set<string>,
): EnvironmentItem {
  const variants = spliceable(row.variants, '[', sinks.environmentVariants, (parsed) => {
    for (const variant of parsed as Variant[]) {
      addStickiness(contextNames, variant.stickiness);
      for (const override of variant.overrides ?? []) contextNames.add(override.contextName);
    }
  });
  return { featureName: row.feature_name, enabled: toBoolean(row.enabled), variants };
}

/** A strategy, collecting the context fields it names: stickiness, constraints, variants. */
function toStrategyItem(
  row: StrategyWithSegmentsRow,
  sinks: ContextNameSinks,
  contextNames: Set<string>,
): StrategyItem {
  return {
    id: row.id,
    name: row.strategy_name,
    featureName: row.feature_name,
    title: row.title ?? null,
    parameters: spliceable(row.parameters, '{', sinks.parameters, (parsed) =>
      addStickiness(contextNames, (parsed as Record<string, unknown>).stickiness),
    ),
    constraints: spliceable(row.constraints, '[', sinks.constraints, (parsed) => {
      for (const constraint of parsed as Constraint[]) contextNames.add(constraint.contextName);
    }),
    variants: spliceable(row.variants, '[', sinks.strategyVariants, (parsed) => {
      for (const variant of parsed as StrategyVariant[])
        addStickiness(contextNames, variant.stickiness);
    }),
    sortOrder: toNumber(row.sort_order),
    disabled: toBoolean(row.disabled),
    segments: segmentIdList(row.segment_ids),
  };
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

const text = JSON.stringify;

/** A feature environment as JSON.stringify writes ExportFeatureEnvironmentDto (its key order). */
function environmentJson(item: EnvironmentItem, environment: string): string {
  const name = text(item.featureName);
  return `{"name":${name},"featureName":${name},"environment":${environment},"enabled":${item.enabled},"variants":${item.variants}}`;
}

/** A strategy as JSON.stringify writes StrategyDto (toStrategyDto's key order). */
function strategyJson(item: StrategyItem): string {
  return (
    `{"id":${text(item.id)},"name":${text(item.name)},"featureName":${text(item.featureName)}` +
    `,"title":${text(item.title)},"parameters":${item.parameters},"constraints":${item.constraints}` +
    `,"variants":${item.variants},"sortOrder":${text(item.sortOrder)},"disabled":${item.disabled}` +
    `,"segments":${text(item.segments)}}`
  );
}

/**
 * The document, in rules.md §6's order of lists, as pieces of about CHUNK_CHARS. Lazy: a piece
 * is built when the response stream asks for it, so the whole string never exists.
 */
function* documentText(rows: ExportRows): Generator<string> {
  const environment = text(rows.environment);
  const lists: Array<[string, Iterable<string>]> = [
    ['features', map(rows.features, text)],
    ['featureEnvironments', map(rows.featureEnvironments, (e) => environmentJson(e, environment))],
    ['featureStrategies', map(rows.featureStrategies, strategyJson)],
    ['contextFields', map(rows.contextFields, text)],
    ['segments', map(rows.segments, text)],
    ['featureTags', map(rows.featureTags, text)],
    ['tagTypes', map(rows.tagTypes, text)],
    ['dependencies', map(rows.dependencies, text)],
  ];
  let piece = '{';
  for (let index = 0; index < lists.length; index += 1) {
    const [key, items] = lists[index];
    piece += `${index === 0 ? '' : ','}"${key}":[`;
    let first = true;
    for (const item of items) {
      piece += first ? item : `,${item}`;
      first = false;
      if (piece.length >= CHUNK_CHARS) {
        yield piece;
        piece = '';
      }
    }
    piece += ']';
  }
  yield `${piece}}`;
}

function* map<T>(items: readonly T[], json: (item: T) => string): Generator<string> {
  for (const item of items) yield json(item);
}
