import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { compareBytes } from '../common/byte-order';
import { BytePieces, PiecePool } from '../common/byte-pieces';
import type { Constraint } from '../common/constraints/constraint';
import { NotFoundError } from '../common/errors';
import { ContextFieldsStore } from '../context-fields/context-fields.store';
import { ReadSnapshot, ReadSnapshots } from '../database/read-snapshot';
import { Dialect, dialectOf, jsonStrings } from '../database/sql-dialect';
import { EnvironmentsStore } from '../environments/environments.store';
import { EventsService } from '../events/events.service';
import { DependenciesStore } from '../features/dependencies.store';
import { FeatureEnvironmentsStore } from '../features/feature-environments.store';
import { toDependencyDto } from '../features/feature-mappers';
import { FeatureTagsStore } from '../features/feature-tags.store';
import {
  ExportFeatureItem,
  ExportScope,
  ExportSelection,
  FeaturesStore,
} from '../features/features.store';
import { ExportRunsStore, KeptList, KeptRun, KeptRunHead } from '../features/export-runs.store';
import { StrategiesStore } from '../features/strategies.store';
import type { StrategyVariant, Variant } from '../features/variant';
import { BUILT_IN_STICKINESS } from '../features/variant-rules';
import { ProjectsStore } from '../projects/projects.store';
import { SegmentsStore } from '../segments/segments.store';
import { TagTypesStore } from '../tags/tag-types.store';
import { canonicalScan, JsonPath, PathSink } from './canonical-json';
import { Names, Run, RunKeeper, RunSplitter } from './kept-runs';
import type { ExportQueryDto } from './dto/export-query.dto';
import type { ExportDependencyDto, ExportSegmentDto } from './dto/export-result.dto';
import { SELECTION_TABLE, selectionOf, selectionTableDdl } from './export-selection';

export interface ExportFile {
  /**
   * The document's UTF-8 bytes in pieces (BytePieces), built as they are asked for: the
   * same bytes as JSON.stringify of the ExportResultDto (rules.md §6), without holding its string.
   */
  body: AsyncIterable<Buffer>;
  /** `export-<environment>-<yyyy-MM-dd_HH-mm-ss>.json`, in UTC, for `downloadFile: true`. */
  filename: string;
  /**
   * Ends the read snapshot if the body never started: once started, the body ends it itself
   * when it ends, fails or is returned, but a generator that never started runs no `finally`.
   */
  close(): Promise<void>;
  /** Where the sender gives the body's pieces back once written (PiecePool). */
  pieces: PiecePool;
}

/**
 * The pieces the exports' bodies are written into, used again: an export holds a few while the
 * socket writes them (the response's backpressure), so a few exports at once fit in this many.
 */
export const EXPORT_PIECES = new PiecePool(16);

export function exportFileName(environment: string, at: Date): string {
  const stamp = at.toISOString().slice(0, 19).replace('T', '_').replace(/:/g, '-');
  return `export-${environment}-${stamp}.json`;
}

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
 * Gathers the document's bytes into pieces (BytePieces): `list` opens a list, `item` adds one
 * element's JSON, and `take` hands over the pieces filled so far.
 */
class DocumentWriter {
  private readonly out = new BytePieces(EXPORT_PIECES);
  private lists = 0;
  private items = 0;

  constructor() {
    this.out.text('{');
  }

  list(key: ListKey): void {
    this.out.text(`${this.lists === 0 ? '' : '],'}"${key}":[`);
    this.lists += 1;
    this.items = 0;
  }

  item(json: string): void {
    if (this.items > 0) this.out.text(',');
    this.out.text(json);
    this.items += 1;
  }

  /** The pieces filled so far (none, mostly). */
  take(): Buffer[] {
    return this.out.take();
  }

  /** The rest of the document. */
  end(): Buffer[] {
    this.out.text(']}');
    return this.out.end();
  }
}

/** Which per-feature reads walk their table rather than look up the selected features. */
interface Scans {
  environments: boolean;
  tags: boolean;
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
 * The export of rules.md §6. One read snapshot (`ReadSnapshots.open`) and a fixed number of
 * statements whatever the number of features: each table's store reads the selected rows with one
 * statement that repeats the selection as a sub-select (`FeaturesStore.exportScope`), ordered by
 * the database in UTF-8 byte order (the columns' own order, decisions-export.md "Order"), and the
 * rows are written into the document as they arrive, in one pass: nothing proportional to the
 * number of features is held (issue 15).
 * The response pulls the document piece by piece, and the snapshot reads only as far as it pulls.
 *
 * The database writes each item of the per-feature lists as JSON text, the stored JSON columns
 * (variants, parameters, constraints) spliced in as stored, so that a row is one string rather
 * than a dozen values. An item is written into the document as it is when canonicalScan finds it
 * in JSON.stringify's form (the form the app stores, and the quoting both databases do but for
 * MariaDB's upper-case `\u` escapes), and parsed and serialised again only when not. The same scan
 * collects the context fields, segments and tag types the items name. The errors rules.md §6
 * names (unknown environment or project) are found in the snapshot before the first byte.
 *
 * **Kept runs.** The selected features fall into runs of consecutive features (RunSplitter), and
 * each run's feature environments, strategies and tags, once checked, are kept with a signature
 * of its features' list stamps and the list generation: the numbers every change bumps in its own
 * transaction (FeatureListModel.follow). The features' read, first in the snapshot, gives those
 * numbers. When every run has a kept text with its signature, the three lists are that text, a
 * row per run; else they are read from their tables and checked as before, and the stale runs are
 * kept once the snapshot has ended (decisions-export.md, "Kept runs").
 */
@Injectable()
export class ExportService implements OnModuleDestroy {
  private readonly logger = new Logger(ExportService.name);
  private readonly dialect: Dialect;
  private readonly snapshots: ReadSnapshots;

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
    private readonly keptRuns: ExportRunsStore,
    private readonly events: EventsService,
  ) {
    this.dialect = dialectOf(dataSource);
    this.snapshots = new ReadSnapshots(dataSource);
  }

  onModuleDestroy(): void {
    this.snapshots.close();
  }

  async export(query: ExportQueryDto, at: Date = new Date()): Promise<ExportFile> {
    const selection = selectionOf(query);
    const snapshot = await this.snapshots.open();
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
      pieces: EXPORT_PIECES,
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
  ): AsyncGenerator<Buffer> {
    progress.started = true;
    const out = new DocumentWriter();
    let keep: KeptRun[] = [];
    const splitter = new RunSplitter();
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
        for (const [item, name, stamp, generation] of rows) {
          out.item(quotedItemJson(item));
          splitter.add(name, stamp, generation);
        }
        features += rows.length;
        yield* out.take();
      }
      if (features === 0) {
        for (const key of LATER_LISTS) out.list(key);
      } else {
        keep = yield* this.selectedData(snapshot, environment, scope, features, splitter.runs, out);
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
    if (keep.length > 0) await this.keepRuns(environment, keep);
    yield* out.end();
  }

  /**
   * Keeps the runs an export has checked, for the next export, once its snapshot has ended. The
   * export has its answer already, so a failure here (a conflict, a feature deleted meanwhile)
   * costs only the next export's time: it is logged, not thrown.
   */
  private async keepRuns(environment: string, runs: KeptRun[]): Promise<void> {
    try {
      await this.keptRuns.keep(environment, runs);
    } catch (error) {
      this.logger.warn(
        `Could not keep the export's runs of environment ${environment}: ${(error as Error).message}`,
      );
    }
  }

  /**
   * Which of the reads of few rows per feature walk their whole table in key order (MariaDB
   * only). Looking up each selected feature costs MariaDB a sort of the result (and a temporary
   * table for the tags) before the first row, which a selection of most of the table pays for
   * with every row; walking the table pays for the rows left out. Where the two meet was measured
   * on the 5,000-flag peer data with two environments (docs/decisions-export.md): a feature
   * environment looked up costs about three rows walked, and a feature's tags about two
   * features' tags walked.
   */
  private async scans(snapshot: ReadSnapshot, selected: number): Promise<Scans> {
    if (this.dialect !== 'mariadb') return { environments: false, tags: false };
    const rows = await this.features.estimatedRows(snapshot);
    return {
      environments: selected * 3 >= rows.featureEnvironments,
      tags: selected * 2 >= rows.features,
    };
  }

  /**
   * The selected features' other data. When every run of the selection has a current kept text
   * (`runs`, signed from the features' read, none when it could not be), the feature environments,
   * strategies and tags are that text, read in three statements of a row per run; else they are
   * read from their tables, one statement each, every item checked as it is written, and the
   * stale runs' items gathered, to keep once the snapshot has ended (returned). The definitions and
   * the dependencies are read from their tables either way.
   */
  private async *selectedData(
    snapshot: ReadSnapshot,
    environment: string,
    scope: ExportScope,
    selected: number,
    runs: Run[] | null,
    out: DocumentWriter,
  ): AsyncGenerator<Buffer, KeptRun[]> {
    const found = new Definitions();
    const firsts = runs?.map((run) => run.first) ?? [];
    const heads = runs ? await this.keptRuns.heads(snapshot, environment, firsts) : [];
    const stale = runs ? staleRuns(runs, heads) : null;
    const kept = stale !== null && stale.size === 0;
    const keeper = runs && stale && !kept ? new RunKeeper(runs, stale) : null;
    const scans = kept ? NO_SCANS : await this.scans(snapshot, selected);

    out.list('featureEnvironments');
    if (kept) {
      for (const head of heads) found.kept(head.names);
      yield* this.keptList(snapshot, environment, firsts, 'environments', out);
    } else {
      const rows = this.featureEnvironments.readForExport(
        snapshot,
        scope,
        environment,
        scans.environments,
      );
      yield* this.checkedList(
        'environments',
        rows,
        (item) => found.environment(item),
        found,
        keeper,
        out,
      );
    }

    out.list('featureStrategies');
    if (kept) {
      yield* this.keptList(snapshot, environment, firsts, 'strategies', out);
    } else {
      const rows = this.strategies.readForExport(snapshot, scope, environment);
      yield* this.checkedList(
        'strategies',
        rows,
        (item) => found.strategy(item),
        found,
        keeper,
        out,
      );
    }

    // Context fields, segments and tag types are definitions, few whatever the number of
    // features: read by the names and ids collected above, sorted here.
    out.list('contextFields');
    const fields = await this.contextFields.readForExport(snapshot, [...found.contextNames]);
    for (const field of fields.sort((a, b) => compareBytes(a.name, b.name))) out.item(text(field));

    out.list('segments');
    const segments = await this.segments.readForExport(snapshot, [...found.segmentIds]);
    segments.sort(
      (a: ExportSegmentDto, b: ExportSegmentDto) => compareBytes(a.name, b.name) || a.id - b.id,
    );
    for (const segment of segments) out.item(text(segment));

    out.list('featureTags');
    if (kept) {
      yield* this.keptList(snapshot, environment, firsts, 'tags', out);
    } else {
      const rows = this.tags.readForExport(snapshot, scope, scans.tags);
      yield* this.checkedList('tags', rows, (item) => found.tag(item), found, keeper, out);
    }

    out.list('tagTypes');
    const types = await this.tagTypes.readForExport(snapshot, [...found.tagTypes]);
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
      yield* out.take();
    }
    if (child) out.item(text(child));
    return keeper?.done() ?? [];
  }

  /** One list's kept text of the runs, written as it is: it was checked when it was kept. */
  private async *keptList(
    snapshot: ReadSnapshot,
    environment: string,
    firsts: string[],
    list: KeptList,
    out: DocumentWriter,
  ): AsyncGenerator<Buffer> {
    // The runs' text in batches of about 256 KiB (ReadSnapshot.texts), each batch's pieces handed
    // on before the next is read: batches of 256 runs held the whole list's text at once
    // (10,000 features: +170 MiB over 20 back-to-back exports).
    for await (const texts of this.keptRuns.read(snapshot, environment, firsts, list)) {
      for (const items of texts) out.item(items);
      yield* out.take();
    }
  }

  /**
   * One list's items from its table, each checked (`check`) as it is written, and handed to the
   * keeper with what it names when its run is stale.
   */
  private async *checkedList(
    list: KeptList,
    rows: AsyncIterable<ExportFeatureItem[]>,
    check: (item: string) => string,
    found: Definitions,
    keeper: RunKeeper | null,
    out: DocumentWriter,
  ): AsyncGenerator<Buffer> {
    keeper?.start(list);
    for await (const batch of rows) {
      for (const [item, feature] of batch) {
        found.recording = keeper?.next(feature) ?? null;
        const checked = check(item);
        out.item(checked);
        keeper?.add(checked);
      }
      yield* out.take();
    }
    found.recording = null;
  }
}

/** The plans of the reads from the tables when nothing is read from them: none. */
const NO_SCANS: Scans = { environments: false, tags: false };

/** The first features of the runs that have no kept text, or one whose signature is not theirs. */
function staleRuns(runs: ReadonlyArray<Run>, heads: ReadonlyArray<KeptRunHead>): Set<string> {
  const signatures = new Map(heads.map((head) => [head.first, head.signature]));
  return new Set(
    runs.filter((run) => signatures.get(run.first) !== run.signature).map((run) => run.first),
  );
}

const text = JSON.stringify;

/**
 * What the export collects from its items while it writes them: the context fields that
 * environment variants and strategies name, the strategies' segments and the tags' types. Each
 * list has sinks, for canonicalScan to fill while it checks an item, and a collector, which finds
 * the same values in an item that had to be parsed. While a stale run's items are gathered
 * (RunKeeper), what an item names also goes to its run's record, `recording`.
 */
class Definitions {
  readonly contextNames = new Set<string>();
  readonly segmentIds = new Set<number>();
  readonly tagTypes = new Set<string>();
  recording: Names | null = null;
  /** The kept names texts already taken: kept features mostly name the same few. */
  private readonly keptNames = new Set<string>();

  private readonly stickiness = (path: JsonPath): PathSink => ({
    path,
    take: (value) => this.addStickiness(value),
  });
  private readonly contextName = (path: JsonPath): PathSink => ({
    path,
    take: (value) => this.addContextName(value),
  });

  readonly environmentSinks: PathSink[] = [
    this.stickiness(['variants', null, 'stickiness']),
    this.contextName(['variants', null, 'overrides', null, 'contextName']),
  ];
  readonly strategySinks: PathSink[] = [
    this.stickiness(['parameters', 'stickiness']),
    this.contextName(['constraints', null, 'contextName']),
    this.stickiness(['variants', null, 'stickiness']),
    { path: ['segments', null], kind: 'integer', take: (id) => this.addSegment(Number(id)) },
  ];
  readonly tagSinks: PathSink[] = [{ path: ['tagType'], take: (type) => this.addTagType(type) }];

  readonly collectEnvironment = (parsed: { variants: Variant[] }): void => {
    for (const variant of parsed.variants) {
      this.addStickiness(variant.stickiness);
      for (const override of variant.overrides ?? []) this.addContextName(override.contextName);
    }
  };

  readonly collectStrategy = (parsed: {
    parameters: Record<string, unknown>;
    constraints: Constraint[];
    variants: StrategyVariant[];
    segments: number[];
  }): void => {
    this.addStickiness(parsed.parameters.stickiness);
    for (const constraint of parsed.constraints) this.addContextName(constraint.contextName);
    for (const variant of parsed.variants) this.addStickiness(variant.stickiness);
    for (const id of parsed.segments) this.addSegment(id);
  };

  readonly collectTag = (parsed: { tagType: string }): void => {
    this.addTagType(parsed.tagType);
  };

  /** What a kept run's items name (its names text), taken once per distinct text. */
  kept(names: string): void {
    if (this.keptNames.has(names)) return;
    const [contextNames, segmentIds, tagTypes] = JSON.parse(names) as [
      string[],
      number[],
      string[],
    ];
    for (const name of contextNames) this.contextNames.add(name);
    for (const id of segmentIds) this.segmentIds.add(id);
    for (const type of tagTypes) this.tagTypes.add(type);
    if (this.keptNames.size < MAX_KEPT_NAMES) this.keptNames.add(names);
  }

  /** A stickiness names a context field unless it is a built-in one. */
  private addStickiness(stickiness: unknown): void {
    if (typeof stickiness !== 'string' || BUILT_IN_STICKINESS.includes(stickiness)) return;
    this.addContextName(stickiness);
  }

  private addContextName(name: string): void {
    this.contextNames.add(name);
    this.recording?.contextNames.add(name);
  }

  private addSegment(id: number): void {
    this.segmentIds.add(id);
    this.recording?.segmentIds.add(id);
  }

  private addTagType(type: string): void {
    this.tagTypes.add(type);
    this.recording?.tagTypes.add(type);
  }

  /** A feature environment's item as the document's bytes; one without variants needs no scan. */
  environment(item: string): string {
    if (PLAIN_ENVIRONMENT.test(item)) return item;
    return itemJson(item, this.environmentSinks, this.collectEnvironment);
  }

  /** A strategy's item as the document's bytes. */
  strategy(item: string): string {
    return itemJson(item, this.strategySinks, this.collectStrategy);
  }

  /** A tag's item as the document's bytes; one with nothing to escape needs no scan. */
  tag(item: string): string {
    const plain = PLAIN_TAG.exec(item);
    if (plain === null) return itemJson(item, this.tagSinks, this.collectTag);
    this.addTagType(plain[1]);
    return item;
  }
}

/** How many distinct kept names texts an export remembers having taken. */
const MAX_KEPT_NAMES = 1024;

// The two lists of small items, about two thirds of an export's items, are mostly text that needs
// no escape: for them a whole-item match replaces canonicalScan (measured: docs/benchmarks.md,
// "Figures of 2026-11-28, third session"). Each pattern is the item's exact text in the DTO's key
// order (the order the stores' SQL writes, which the key-order tests check) with plain values
// only: a string with no character JSON escapes (no quote, backslash, control character, and no
// surrogate, which JSON.stringify escapes when it is alone), and no stored JSON but an empty list.
// Such text is JSON.stringify's and names nothing but the captured tag type. Anything else, a
// variant, an escape or another order, goes through itemJson as before.
/** The characters of a string JSON.stringify writes as they are, and JSON_QUOTE too. */
const PLAIN_CHARS = String.raw`[^"\\\u0000-\u001f\ud800-\udfff]*`;
const PLAIN_ENVIRONMENT = new RegExp(
  String.raw`^\{"name":"${PLAIN_CHARS}","featureName":"${PLAIN_CHARS}","environment":"${PLAIN_CHARS}",` +
    String.raw`"enabled":(?:true|false),"variants":\[\]\}$`,
);
const PLAIN_TAG = new RegExp(
  String.raw`^\{"featureName":"${PLAIN_CHARS}","tagType":"(${PLAIN_CHARS})","tagValue":"${PLAIN_CHARS}",` +
    String.raw`"createdByUserId":(?:null|[1-9][0-9]{0,14})\}$`,
);

/**
 * An item the database wrote (ExportItem), as the document's bytes: as it is when it is
 * already what JSON.stringify writes (the normal case: the app stores JSON.stringify output, and
 * the database quotes the other columns the same way), else parsed and serialised, which also
 * evens out a stored column written some other way, or a database's other spelling of an escape.
 * Either way `collect` (or the sinks, which find the same values) sees what it names.
 */
function itemJson<T>(item: string, sinks: readonly PathSink[], collect?: (parsed: T) => void) {
  if (canonicalScan(item, '{', sinks)) return item;
  const parsed = JSON.parse(item) as T;
  collect?.(parsed);
  return JSON.stringify(parsed);
}

/** What makes a quoted item need the full check: an escape, or a control character. */
// eslint-disable-next-line no-control-regex -- matching control characters is its purpose
const ESCAPE_OR_CONTROL = /[\\\u0000-\u001f]/;

/**
 * An item the database built from quoted text columns and literals only (the features): JSON_QUOTE
 * writes a string as JSON.stringify does but for the spelling of escapes (MariaDB's upper-case
 * `\u`), so an item with no escape is already the document's bytes, and only one with an escape
 * needs canonicalScan.
 */
function quotedItemJson(item: string): string {
  return ESCAPE_OR_CONTROL.test(item) ? itemJson(item, []) : item;
}
