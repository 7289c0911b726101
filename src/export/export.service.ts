import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { compareBytes } from '../common/byte-order';
import type { Constraint } from '../common/constraints/constraint';
import { NotFoundError } from '../common/errors';
import { ContextFieldsStore } from '../context-fields/context-fields.store';
import { openReadSnapshot, ReadSnapshot } from '../database/read-snapshot';
import { Dialect, dialectOf, jsonStrings } from '../database/sql-dialect';
import { parseJson, toBoolean, toNullableNumber, toNumber } from '../database/sql-values';
import { EnvironmentsStore } from '../environments/environments.store';
import { EventsService } from '../events/events.service';
import { DependenciesStore } from '../features/dependencies.store';
import { FeatureEnvironmentsStore } from '../features/feature-environments.store';
import { TagRow, toDependencyDto } from '../features/feature-mappers';
import { FeatureTagsStore } from '../features/feature-tags.store';
import {
  ExportFeatureRow,
  ExportScope,
  ExportSelection,
  FeaturesStore,
} from '../features/features.store';
import {
  segmentIdList,
  StrategiesStore,
  StrategyWithSegmentsRow,
} from '../features/strategies.store';
import type { StrategyVariant, Variant } from '../features/variant';
import { BUILT_IN_STICKINESS } from '../features/variant-rules';
import { ProjectsStore } from '../projects/projects.store';
import { SegmentsStore } from '../segments/segments.store';
import { TagTypesStore } from '../tags/tag-types.store';
import { canonicalScan, JsonPath, PathSink } from './canonical-json';
import type { ExportQueryDto } from './dto/export-query.dto';
import type { ExportDependencyDto, ExportSegmentDto } from './dto/export-result.dto';
import { SELECTION_TABLE, selectionOf, selectionTableDdl } from './export-selection';

export interface ExportFile {
  /**
   * The document's JSON text in pieces of about CHUNK_CHARS, built as they are asked for: the same
   * bytes as JSON.stringify of the ExportResultDto (rules.md §6), without holding its string.
   */
  body: AsyncIterable<string>;
  /** `export-<environment>-<yyyy-MM-dd_HH-mm-ss>.json`, in UTC, for `downloadFile: true`. */
  filename: string;
  /**
   * Ends the read snapshot if the body never started: once started, the body ends it itself
   * when it ends, fails or is returned, but a generator that never started runs no `finally`.
   */
  close(): Promise<void>;
}

export function exportFileName(environment: string, at: Date): string {
  const stamp = at.toISOString().slice(0, 19).replace('T', '_').replace(/:/g, '-');
  return `export-${environment}-${stamp}.json`;
}

/** Large enough that a write is not a syscall per item, small enough to stay out of old space. */
const CHUNK_CHARS = 64 * 1024;

/** The document's lists, in rules.md §6's order, each written as its rows arrive. */
type ListKey =
  | 'features'
  | 'featureEnvironments'
  | 'featureStrategies'
  | 'contextFields'
  | 'segments'
  | 'featureTags'
  | 'tagTypes'
  | 'dependencies';

/**
 * Gathers the document's text into pieces of about CHUNK_CHARS: `list` opens a list, `item`
 * adds one element's JSON, and `take` hands over a full piece (or undefined).
 */
class DocumentWriter {
  private piece = '{';
  private lists = 0;
  private items = 0;

  list(key: ListKey): void {
    this.piece += `${this.lists === 0 ? '' : '],'}"${key}":[`;
    this.lists += 1;
    this.items = 0;
  }

  item(json: string): void {
    this.piece += this.items === 0 ? json : `,${json}`;
    this.items += 1;
  }

  /** The piece so far, when it is large enough to send. */
  take(): string | undefined {
    if (this.piece.length < CHUNK_CHARS) return undefined;
    const piece = this.piece;
    this.piece = '';
    return piece;
  }

  end(): string {
    const piece = `${this.piece}]}`;
    this.piece = '';
    return piece;
  }
}

/** The lists that come after `features`, written empty when nothing is selected. */
const LATER_LISTS: ListKey[] = [
  'featureEnvironments',
  'featureStrategies',
  'contextFields',
  'segments',
  'featureTags',
  'tagTypes',
  'dependencies',
];

/**
 * The export of rules.md §6. One read snapshot (`openReadSnapshot`) and a fixed number of
 * statements whatever the number of features: each table's store reads the selected rows with one
 * statement that repeats the selection as a sub-select (`FeaturesStore.exportScope`), ordered by
 * the database in UTF-8 byte order (`inByteOrder`), and the rows are written into the document as
 * they arrive, in one pass: nothing proportional to the number of features is held (issue 15).
 * The response pulls the document piece by piece, and the snapshot reads only as far as it pulls.
 *
 * The stored JSON columns (variants, parameters, constraints) are not parsed: they are spliced into
 * the document as stored when canonicalScan finds them in JSON.stringify's form (the form the app
 * writes), and parsed and serialised again only when not. The same scan collects the context
 * fields they name. The errors rules.md §6 names (unknown environment or project) are found in the
 * snapshot before the first byte.
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
    const snapshot = await openReadSnapshot(this.dataSource);
    try {
      if (!(await this.environments.exists(query.environment, snapshot))) {
        throw NotFoundError.named('environment', query.environment);
      }
      if (
        selection.rule === 'project' &&
        !(await this.projects.exists(selection.projectId, snapshot))
      ) {
        throw NotFoundError.named('project', selection.projectId, 'id');
      }
    } catch (error) {
      await snapshot.close();
      throw error;
    }
    const progress = { started: false };
    return {
      body: this.document(snapshot, query.environment, selection, progress),
      filename: exportFileName(query.environment, at),
      close: async () => {
        if (!progress.started) await snapshot.close();
      },
    };
  }

  /**
   * The document, pulled piece by piece by the response. The snapshot ends with it, also when the
   * client goes away (the generator is returned) or a read fails. The features-exported event
   * (metadata only, never the payload) is its own INSERT once the snapshot has ended, so the
   * read stays a read; it is written before the last piece, so no complete export is delivered
   * without its event.
   */
  private async *document(
    snapshot: ReadSnapshot,
    environment: string,
    selection: ExportSelection,
    progress: { started: boolean },
  ): AsyncGenerator<string> {
    progress.started = true;
    const out = new DocumentWriter();
    let features = 0;
    let failed = false;
    try {
      const ddl = selectionTableDdl(this.dialect);
      if (selection.rule === 'names') {
        // On MySQL a table left on this pooled connection by an export whose clean-up failed
        // would make CREATE fail; SQLite rolls a temp table back with the transaction.
        await snapshot.query(ddl.drop);
        await snapshot.query(ddl.create);
        await snapshot.query(`INSERT INTO ${SELECTION_TABLE} (name) ${jsonStrings(this.dialect)}`, [
          JSON.stringify(selection.names),
        ]);
      }
      const scope = this.features.exportScope(selection, SELECTION_TABLE);
      out.list('features');
      for await (const rows of this.features.readForExport(snapshot, scope)) {
        for (const row of rows) out.item(featureJson(row));
        features += rows.length;
        const piece = out.take();
        if (piece !== undefined) yield piece;
      }
      if (features === 0) {
        for (const key of LATER_LISTS) out.list(key);
      } else {
        yield* this.selectedData(snapshot, environment, scope, out);
      }
      if (selection.rule === 'names') await snapshot.query(ddl.drop);
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      // After a failed read the connection may not take a COMMIT; the first error is the one.
      await snapshot.close().catch((error) => {
        if (!failed) throw error;
      });
    }
    await this.events.recordAlone({
      type: 'features-exported',
      project: selection.rule === 'project' ? selection.projectId : null,
      environment,
      data: { selection, features },
    });
    yield out.end();
  }

  /** The selected features' other data: one statement per table, each written as it is read. */
  private async *selectedData(
    snapshot: ReadSnapshot,
    environment: string,
    scope: ExportScope,
    out: DocumentWriter,
  ): AsyncGenerator<string> {
    const contextNames = new Set<string>();
    const names = contextNameSinks(contextNames);
    const quotedEnvironment = text(environment);
    out.list('featureEnvironments');
    for await (const rows of this.featureEnvironments.readForExport(snapshot, scope, environment)) {
      for (const row of rows)
        out.item(environmentJson(row, quotedEnvironment, names, contextNames));
      const piece = out.take();
      if (piece !== undefined) yield piece;
    }

    const segmentIds = new Set<number>();
    out.list('featureStrategies');
    for await (const rows of this.strategies.readForExport(snapshot, scope, environment)) {
      for (const row of rows) out.item(strategyJson(row, names, contextNames, segmentIds));
      const piece = out.take();
      if (piece !== undefined) yield piece;
    }

    // Context fields, segments and tag types are definitions, few whatever the number of
    // features: read by the names and ids collected above, sorted here.
    out.list('contextFields');
    const fields = await this.contextFields.readForExport(snapshot, [...contextNames]);
    for (const field of fields.sort((a, b) => compareBytes(a.name, b.name))) out.item(text(field));

    out.list('segments');
    const segments = await this.segments.readForExport(snapshot, [...segmentIds]);
    segments.sort(
      (a: ExportSegmentDto, b: ExportSegmentDto) => compareBytes(a.name, b.name) || a.id - b.id,
    );
    for (const segment of segments) out.item(text(segment));

    const tagTypeNames = new Set<string>();
    out.list('featureTags');
    for await (const rows of this.tags.readForExport(snapshot, scope)) {
      for (const row of rows) {
        tagTypeNames.add(row.tag_type);
        out.item(tagJson(row));
      }
      const piece = out.take();
      if (piece !== undefined) yield piece;
    }

    out.list('tagTypes');
    const types = await this.tagTypes.readForExport(snapshot, [...tagTypeNames]);
    for (const type of types.sort((a, b) => compareBytes(a.name, b.name))) out.item(text(type));

    // One entry per child, its parents after it: the rows come by child, then parent.
    out.list('dependencies');
    let child: ExportDependencyDto | undefined;
    for await (const rows of this.dependencies.readForExport(snapshot, scope)) {
      for (const row of rows) {
        if (child?.feature !== row.child) {
          if (child) out.item(text(child));
          child = { feature: row.child, dependencies: [] };
        }
        child.dependencies.push(toDependencyDto(row));
      }
      const piece = out.take();
      if (piece !== undefined) yield piece;
    }
    if (child) out.item(text(child));
  }
}

const text = JSON.stringify;

/** A feature as JSON.stringify writes ExportFeatureDto (its key order). */
function featureJson(row: ExportFeatureRow): string {
  return (
    `{"name":${text(row.name)},"description":${text(row.description ?? null)}` +
    `,"type":${text(row.type)},"project":${text(row.project_id)}` +
    `,"stale":${toBoolean(row.stale)},"impressionData":${toBoolean(row.impression_data)}` +
    `,"archived":${row.archived_at !== null && row.archived_at !== undefined}}`
  );
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

/**
 * A feature environment as JSON.stringify writes ExportFeatureEnvironmentDto (its key order),
 * collecting the context fields its variants name.
 */
function environmentJson(
  row: { feature_name: string; enabled: unknown; variants: unknown },
  environment: string,
  sinks: ContextNameSinks,
  contextNames: Set<string>,
): string {
  const variants = spliceable(row.variants, '[', sinks.environmentVariants, (parsed) => {
    for (const variant of parsed as Variant[]) {
      addStickiness(contextNames, variant.stickiness);
      for (const override of variant.overrides ?? []) contextNames.add(override.contextName);
    }
  });
  const name = text(row.feature_name);
  return `{"name":${name},"featureName":${name},"environment":${environment},"enabled":${toBoolean(row.enabled)},"variants":${variants}}`;
}

/**
 * A strategy as JSON.stringify writes StrategyDto (toStrategyDto's key order), collecting the
 * context fields it names (stickiness, constraints, variants) and its segments.
 */
function strategyJson(
  row: StrategyWithSegmentsRow,
  sinks: ContextNameSinks,
  contextNames: Set<string>,
  segmentIds: Set<number>,
): string {
  const parameters = spliceable(row.parameters, '{', sinks.parameters, (parsed) =>
    addStickiness(contextNames, (parsed as Record<string, unknown>).stickiness),
  );
  const constraints = spliceable(row.constraints, '[', sinks.constraints, (parsed) => {
    for (const constraint of parsed as Constraint[]) contextNames.add(constraint.contextName);
  });
  const variants = spliceable(row.variants, '[', sinks.strategyVariants, (parsed) => {
    for (const variant of parsed as StrategyVariant[])
      addStickiness(contextNames, variant.stickiness);
  });
  const segments = segmentIdList(row.segment_ids);
  for (const id of segments) segmentIds.add(id);
  return (
    `{"id":${text(row.id)},"name":${text(row.strategy_name)},"featureName":${text(row.feature_name)}` +
    `,"title":${text(row.title ?? null)},"parameters":${parameters},"constraints":${constraints}` +
    `,"variants":${variants},"sortOrder":${text(toNumber(row.sort_order))},"disabled":${toBoolean(row.disabled)}` +
    `,"segments":${text(segments)}}`
  );
}

/** A tag as JSON.stringify writes ExportFeatureTagDto (its key order). */
function tagJson(row: TagRow): string {
  return (
    `{"featureName":${text(row.feature_name)},"tagType":${text(row.tag_type)}` +
    `,"tagValue":${text(row.tag_value)},"createdByUserId":${text(toNullableNumber(row.created_by_user_id))}}`
  );
}
