import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { hasPermission, Permission, Principal } from '../auth/permissions';
import { compareBytes } from '../common/byte-order';
import { checkConstraints, ContextFieldRules } from '../common/constraints/constraint';
import { isForeignKeyViolation, isUniqueViolation } from '../common/database-errors';
import { ConflictError, ErrorDetail, PermissionError, ValidationError } from '../common/errors';
import { NAME_PATTERN } from '../common/validators';
import { ContextFieldsStore } from '../context-fields/context-fields.store';
import { Dialect, dialectOf, nextTurn, whileRunning } from '../database/sql-dialect';
import { sqlTimestamp } from '../database/sql-values';
import { EnvironmentsStore } from '../environments/environments.store';
import { DependenciesStore } from '../features/dependencies.store';
import { FeatureEnvironmentsStore } from '../features/feature-environments.store';
import { featureTagKey, FeatureTagsStore } from '../features/feature-tags.store';
import { FeaturesStore, ImportFeatureRow, StoredFeatureRef } from '../features/features.store';
import { LifecycleStore } from '../features/lifecycle.store';
import {
  ImportStrategyRow,
  PrewrittenStrategies,
  StrategiesStore,
} from '../features/strategies.store';
import { normaliseParameters, ParameterRules } from '../features/strategy-parameters';
import {
  BUILT_IN_STICKINESS,
  ContextReference,
  normaliseStrategyVariants,
  normaliseVariants,
  unknownContextFields,
} from '../features/variant-rules';
import { ProjectsStore } from '../projects/projects.store';
import { SegmentsStore } from '../segments/segments.store';
import { StrategyTypesStore } from '../strategy-types/strategy-types.store';
import { TagTypesStore } from '../tags/tag-types.store';
import { TagsStore } from '../tags/tags.store';
import { ImportRequestDto, KNOWN_COLLECTIONS } from './dto/import-request.dto';
import { ImportValidationDto, ImportValidationItemDto } from './dto/import-validation.dto';
import { checkImportBody } from './import-body';
import { EventsService } from '../events/events.service';

/** A 400 for an import that the validate document finds errors in: the record carries them. */
export class ImportRejectedError extends ValidationError {
  constructor(readonly errors: ImportValidationItemDto[]) {
    super(
      `The import has errors: ${errors.map((e) => `${e.message} ${e.affectedItems.join(', ')}`).join('; ')}`,
      errors.map((e) => ({ path: '/body/data', message: e.message })),
    );
    // The record's name stays ValidationError: a client tells 400s apart by `errors`, not name.
    this.name = 'ValidationError';
  }

  override extraFields(): Record<string, unknown> {
    return { errors: this.errors };
  }
}

/** A strategy of the file, as the DTOs give it. */
type FileStrategy = ImportRequestDto['data']['featureStrategies'][number];

/**
 * What the analysis decides from its reads (analyse()): everything but the stored form of the
 * file's strategies, which rows() works out from `input`.
 */
interface Analysis {
  /** The errors reported before the missing segments (names, projects, strays, types, fields). */
  leadingErrors: ImportValidationItemDto[];
  /** The errors reported after the missing segments (tag types, parents, loops and chains). */
  trailingErrors: ImportValidationItemDto[];
  /** The dependencies' invalid items, listed last. */
  dependencyDetails: ErrorDetail[];
  warnings: ImportValidationItemDto[];
  missing: Permission[];
  features: ImportFeatureRow[];
  /** The features to write: the new ones, and those whose stored fields differ from the file's. */
  rewrittenFeatures: ImportFeatureRow[];
  newFeatures: string[];
  environments: string[];
  /** The target environment's type: enabling enters `live` in production, else `pre-live`. */
  environmentType: string;
  /** Whether the imported features had strategies in the environment when it was analysed. */
  replacesStrategies: boolean;
  /** The imported features' switches and variants in the target environment, as stored. */
  featureEnvironments: Array<{ feature: string; enabled: number; variants: string }>;
  /** Those variants' problems, and the context fields they name (checked in rows()). */
  environmentDetails: ErrorDetail[];
  environmentReferences: ContextReference[];
  tags: Array<{ feature: string; type: string; value: string }>;
  /** The distinct tags of `tags`, for the catalogue (the tags table). */
  catalogue: Array<{ type: string; value: string }>;
  dependencies: Array<{ child: string; parent: string; enabled: number; variants: string }>;
  newTagTypes: Array<{ name: string; description?: string; icon?: string }>;
  newContextFields: Array<{
    name: string;
    description?: string;
    stickiness: number;
    sort_order: number;
    legal_values: string;
  }>;
  input: RowsInput;
}

/** What rows() reads: the imported features' strategies, and what the analysis read for them. */
interface RowsInput {
  strategies: FileStrategy[];
  /** Each item's index in its list of the file, for the paths of its problems. */
  positions: Map<object, number>;
  types: Map<string, ParameterRules>;
  /** The context fields' legal values, stored or from the file. */
  rules: Map<string, ContextFieldRules>;
  /** The file's segment names by the file's ids, and the local ids of those here by name. */
  segmentNames: Map<number, string>;
  segmentsHere: Map<string, number>;
}

/** The stored form of the file's strategies, and their problems. */
interface Rows {
  strategies: ImportStrategyRow[];
  missingSegments: Set<string>;
  /**
   * Problems of the strategies, then of the feature environments' variants, then of the context
   * fields both name that exist neither here nor in the file.
   */
  details: ErrorDetail[];
}

const PERMISSION_ORDER: Permission[] = [
  'CREATE_FEATURE',
  'UPDATE_FEATURE',
  'CREATE_FEATURE_STRATEGY',
  'DELETE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_ENVIRONMENT',
  'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
  'CREATE_TAG_TYPE',
  'CREATE_CONTEXT_FIELD',
];
const ENVIRONMENT_SCOPED = new Set<Permission>([
  'CREATE_FEATURE_STRATEGY',
  'DELETE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_ENVIRONMENT',
  'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
]);
/** Thrown inside the import's transaction when what its analysis read has changed since. */
class AnalysisOutdated extends Error {}

/** How often an import runs whose writes met a change made since its analysis (import()). */
const IMPORT_ATTEMPTS = 3;
/** As context-fields.service.ts: new fields without a sortOrder go after the built-in ones. */
const DEFAULT_SORT_ORDER = 10;

function isValidName(name: string): boolean {
  return name.length <= 100 && NAME_PATTERN.test(name) && name !== '.' && name !== '..';
}

function sorted(names: Iterable<string>): string[] {
  return [...new Set(names)].sort(compareBytes);
}

function item(message: string, affected: Iterable<string>): ImportValidationItemDto {
  return { message, affectedItems: sorted(affected) };
}

function distinctTags(tags: Analysis['tags']): Analysis['catalogue'] {
  const byKey = new Map<string, Analysis['catalogue'][number]>();
  for (const { type, value } of tags) {
    byKey.set(featureTagKey({ feature: '', type, value }), { type, value });
  }
  return [...byKey.values()];
}

/** The features that the file's dependency edges join, children and parents, in byte order. */
function edgeFeatures(data: ImportRequestDto['data']): string[] {
  const names: string[] = [];
  for (const { feature, dependencies } of data.dependencies ?? []) {
    names.push(feature);
    for (const parent of dependencies) names.push(parent.feature);
  }
  return sorted(names);
}

/** The context fields that the file's strategy constraints name, in byte order. */
function constraintFields(data: ImportRequestDto['data']): string[] {
  const names: string[] = [];
  for (const strategy of data.featureStrategies ?? []) {
    for (const constraint of strategy.constraints ?? []) names.push(constraint.contextName);
  }
  return sorted(names);
}

type Edge = { child: string; parent: string };

/**
 * The file's edges that break the dependency rules of rules.md §7 once added to the stored ones
 * (`stored`: at least every stored edge that leaves one of the file's parents or enters one of
 * its children): a feature depending on itself (`loops`, by name), and an edge whose parent has
 * parents or whose child has children, in the file or here (`chains`, as `child → parent`). The
 * import only adds and updates edges, so the stored ones all stay.
 */
function unchainable(file: Edge[], stored: Edge[]): { loops: string[]; chains: string[] } {
  const children = new Set<string>();
  const parents = new Set<string>();
  for (const edge of [...stored, ...file]) {
    children.add(edge.child);
    parents.add(edge.parent);
  }
  const loops: string[] = [];
  const chains: string[] = [];
  for (const { child, parent } of file) {
    if (child === parent) loops.push(child);
    else if (parents.has(child) || children.has(parent)) chains.push(`${child} → ${parent}`);
  }
  return { loops, chains };
}

/** How many items rows() handles before letting the import's statements go on (nextTurn). */
const ITEMS_PER_TURN = 1000;

/**
 * The document's errors in the order they are reported: those the analysis decided, with the
 * missing segments and the invalid items that rows() found in their places.
 */
function errorsOf(analysis: Analysis, rows: Rows): ImportValidationItemDto[] {
  const errors = [...analysis.leadingErrors];
  if (rows.missingSegments.size) {
    errors.push(
      item(
        'These segments do not exist here (segments are matched by name):',
        rows.missingSegments,
      ),
    );
  }
  errors.push(...analysis.trailingErrors);
  const invalid = [...rows.details, ...analysis.dependencyDetails];
  if (invalid.length) {
    errors.push({
      message: 'These items are invalid:',
      affectedItems: invalid.map((detail) => `${detail.path}: ${detail.message}`),
    });
  }
  return errors;
}

/** Whether the import would write a feature's fields as they are stored already. */
function sameFeatureFields(row: ImportFeatureRow, stored: ImportFeatureRow): boolean {
  return (
    row.type === stored.type &&
    (row.description ?? null) === (stored.description ?? null) &&
    row.stale === stored.stale &&
    row.impression_data === stored.impression_data
  );
}

/** Leaves out undefined and null fields, which the JSON records read as NULL. */
function withoutNulls<T extends object>(row: T): T {
  // A loop rather than entries/filter/fromEntries: it runs for every row of a large file.
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(row)) {
    const value = (row as Record<string, unknown>)[key];
    if (value !== null && value !== undefined) kept[key] = value;
  }
  return kept as T;
}

/**
 * The import of issue 14: validate answers what an import would do and writes nothing; import
 * does it in one transaction. Both read the same fixed set of statements (each store reads the
 * rows the file names through one JSON parameter), and the import then writes each table with
 * one or two set-based statements: the number of statements does not depend on the number of
 * features.
 */
@Injectable()
export class ImportService {
  private readonly dialect: Dialect;

  constructor(
    private readonly events: EventsService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly environmentsStore: EnvironmentsStore,
    private readonly projects: ProjectsStore,
    private readonly features: FeaturesStore,
    private readonly featureEnvironments: FeatureEnvironmentsStore,
    private readonly strategies: StrategiesStore,
    private readonly tags: FeatureTagsStore,
    private readonly dependencies: DependenciesStore,
    private readonly lifecycle: LifecycleStore,
    private readonly segments: SegmentsStore,
    private readonly tagTypes: TagTypesStore,
    private readonly tagCatalogue: TagsStore,
    private readonly contextFields: ContextFieldsStore,
    private readonly strategyTypes: StrategyTypesStore,
  ) {
    this.dialect = dialectOf(dataSource);
  }

  /**
   * The body checked against the DTOs, after dropping the top-level collections of `data` that
   * this service does not know (Unleash 7's `links`): every problem at once, with /body paths.
   */
  async parse(body: unknown): Promise<ImportRequestDto> {
    let input = body;
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      const { data } = body as { data?: unknown };
      if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
        const known = Object.entries(data).filter(([key]) => KNOWN_COLLECTIONS.has(key));
        input = { ...body, data: Object.fromEntries(known) };
      }
    }
    const { value, details } = await checkImportBody(input);
    if (details.length > 0) throw ValidationError.listing(details);
    return value;
  }

  async validate(dto: ImportRequestDto, principal: Principal): Promise<ImportValidationDto> {
    const analyse = (tx: EntityManager) => this.analyse(tx, dto, principal);
    const analysis =
      this.dialect !== 'sqlite'
        ? await this.dataSource.transaction('REPEATABLE READ', analyse)
        : await this.dataSource.transaction(analyse);
    return {
      errors: errorsOf(analysis, await this.rows(analysis)),
      warnings: analysis.warnings,
      permissions: analysis.missing.length
        ? [item('The import needs these permissions, which the token lacks:', analysis.missing)]
        : [],
    };
  }

  /**
   * All or nothing: 403 for missing permissions, 400 for errors, else every write, one transaction.
   * The analysis reads a snapshot, and between that read and the import's writes a feature may be
   * created under one of the file's names (by another import, or by the feature routes in any
   * project), archived or moved, or a segment the file names deleted. The writes notice: a unique
   * or a foreign key fails, or the check after writing the features finds one archived or
   * elsewhere. The transaction is then rolled back, and the import runs again on a fresh
   * snapshot, which sees the change: a feature created in the target project is overwritten, an
   * archived one skipped, one in another project or a missing segment reported (400). Only after
   * IMPORT_ATTEMPTS such runs in a row does the caller get a 409.
   */
  async import(dto: ImportRequestDto, principal: Principal): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.importOnce(dto, principal);
        return;
      } catch (error) {
        const stale =
          error instanceof AnalysisOutdated ||
          isUniqueViolation(error) ||
          isForeignKeyViolation(error);
        if (!stale || attempt >= IMPORT_ATTEMPTS) {
          throw error instanceof AnalysisOutdated
            ? new ConflictError('The features changed while the import ran; try again')
            : error;
        }
      }
    }
  }

  private async importOnce(dto: ImportRequestDto, principal: Principal): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      // Before any read, as the routes claim before they decide: the features the file's edges
      // join, and the context fields its constraints name. What decides whether the edges may
      // be added and whether the fields exist is then read after the claims.
      await this.features.claimForImport(tx, edgeFeatures(dto.data));
      await this.contextFields.claimForImport(tx, constraintFields(dto.data));
      const analysis = await this.analyse(tx, dto, principal);
      if (analysis.missing.length > 0) throw new PermissionError(analysis.missing);
      const decided =
        analysis.leadingErrors.length +
        analysis.trailingErrors.length +
        analysis.environmentDetails.length +
        analysis.dependencyDetails.length;
      if (decided > 0) {
        throw new ImportRejectedError(errorsOf(analysis, await this.rows(analysis)));
      }
      // The features and their environments need nothing of the strategies: the server writes
      // them while rows() puts the strategies in their stored form, and (into an environment
      // where the features had none, so that every row will be inserted) while their text for the
      // load is written out whole. An error found there rolls back what was written.
      const at = sqlTimestamp(new Date());
      const [, { rows, errors, prewritten }] = await whileRunning(
        this.writeFeatures(tx, dto, analysis, at),
        async () => {
          const found = await this.rows(analysis);
          const problems = errorsOf(analysis, found);
          const ahead =
            analysis.replacesStrategies || problems.length > 0
              ? undefined
              : this.strategies.prewriteForImport(dto.environment, found.strategies, at);
          return { rows: found, errors: problems, prewritten: ahead };
        },
      );
      if (errors.length > 0) throw new ImportRejectedError(errors);
      await this.writeStrategies(tx, dto, analysis, rows, at, prewritten);
    });
  }

  /** The tag types, tags, context fields and features; the features' rows in the environments. */
  private async writeFeatures(
    tx: EntityManager,
    dto: ImportRequestDto,
    analysis: Analysis,
    at: string,
  ): Promise<void> {
    await this.tagTypes.insertMissing(tx, analysis.newTagTypes, at);
    // Every imported tag value is listed by GET /api/admin/tags, as when the feature-tag routes
    // add one; written before the features, in the order those routes lock tags then features.
    await this.tagCatalogue.addForImport(tx, analysis.catalogue, at);
    await this.contextFields.insertMissing(tx, analysis.newContextFields, at);
    // A feature whose fields the file repeats is not written again (a re-import, or an import
    // into another environment of the same project); the locking check below holds its row
    // until the end all the same. One archived or moved since the analysis read it (the upsert
    // and the check wait for that change to commit) must not be overwritten: the analysis is
    // run again.
    await this.features.upsertForImport(tx, dto.project, analysis.rewrittenFeatures, at);
    const names = analysis.features.map((feature) => feature.name);
    if ((await this.features.countArchivedOrElsewhere(tx, dto.project, names)) > 0) {
      throw new AnalysisOutdated();
    }
    await this.lifecycle.startForImport(tx, analysis.newFeatures, at);
    await this.featureEnvironments.addFeaturesForImport(
      tx,
      analysis.newFeatures,
      analysis.environments,
    );
    await this.featureEnvironments.upsertForImport(
      tx,
      dto.environment,
      analysis.featureEnvironments,
    );
    await this.lifecycle.enterForImport(
      tx,
      analysis.featureEnvironments.filter((row) => row.enabled === 1).map((row) => row.feature),
      analysis.environmentType === 'production' ? 'live' : 'pre-live',
      at,
    );
  }

  /** The target environment's strategies, then the tags, dependencies and the event. */
  private async writeStrategies(
    tx: EntityManager,
    dto: ImportRequestDto,
    analysis: Analysis,
    rows: Rows,
    at: string,
    prewritten: PrewrittenStrategies | undefined,
  ): Promise<void> {
    const names = analysis.features.map((feature) => feature.name);
    await this.strategies.replaceForImport(
      tx,
      dto.environment,
      names,
      rows.strategies,
      at,
      prewritten,
    );
    await this.tags.replaceForImport(tx, names, analysis.tags, at);
    await this.dependencies.upsertForImport(tx, analysis.dependencies);
    await this.events.record(tx, {
      type: 'features-imported',
      project: dto.project,
      environment: dto.environment,
      data: { features: names.length },
    });
  }

  private async analyse(
    tx: EntityManager,
    dto: ImportRequestDto,
    principal: Principal,
  ): Promise<Analysis> {
    const { project, environment, data } = dto;
    if (!(await this.projects.exists(project, tx))) {
      throw ValidationError.of('/body/project', `Could not find project with id ${project}`);
    }
    const environmentType = await this.environmentsStore.typeOf(environment, tx);
    if (environmentType === null) {
      throw ValidationError.of(
        '/body/environment',
        `Could not find environment with name ${environment}`,
      );
    }
    const environments = await this.projects.environmentsOf(project, tx);
    if (!environments.includes(environment)) {
      throw ValidationError.of(
        '/body/environment',
        `The environment ${environment} is not enabled in project ${project}`,
      );
    }

    // The errors of the document before the missing segments' (which rows() finds), and after.
    const errors: ImportValidationItemDto[] = [];
    const trailingErrors: ImportValidationItemDto[] = [];
    const warnings: ImportValidationItemDto[] = [];
    const dependencyDetails: ErrorDetail[] = [];
    const needs = new Set<Permission>(['UPDATE_FEATURE']);

    // Features: names, repeats, where they live now.
    const fileNames = data.features.map((feature) => feature.name);
    const badNames = fileNames.filter((name) => !isValidName(name));
    if (badNames.length) {
      errors.push(
        item(
          'These feature names break the name rule (1 to 100 letters, digits and ~ _ . -):',
          badNames,
        ),
      );
    }
    const seen = new Set<string>();
    const repeated = fileNames.filter((name) => seen.has(name) || !seen.add(name));
    if (repeated.length) errors.push(item('These features appear more than once:', repeated));

    const parentNames = (data.dependencies ?? []).flatMap((d) =>
      d.dependencies.map((p) => p.feature),
    );
    const refs = await this.features.refsByNames(tx, [...new Set([...fileNames, ...parentNames])]);
    const here = new Map<string, StoredFeatureRef>(refs.map((ref) => [ref.name, ref]));
    const skipped = new Set(
      data.features
        .filter((feature) => feature.archived === true || here.get(feature.name)?.archived)
        .map((feature) => feature.name),
    );
    if (skipped.size) {
      warnings.push(item('These features are archived and will not be imported:', skipped));
    }
    const kept = data.features.filter((feature) => !skipped.has(feature.name));
    const keptNames = new Set(kept.map((feature) => feature.name));
    const elsewhere = kept.filter(
      (f) => here.has(f.name) && here.get(f.name)?.projectId !== project,
    );
    if (elsewhere.length) {
      errors.push(
        item(
          `These features exist in another project than ${project}, and cannot be imported:`,
          elsewhere.map((feature) => feature.name),
        ),
      );
    }
    const existing = kept.filter((feature) => here.has(feature.name)).map((f) => f.name);
    if (existing.length) {
      warnings.push(item('These features exist and will be overwritten:', existing));
    }
    const newFeatures = kept.filter((feature) => !here.has(feature.name)).map((f) => f.name);
    if (newFeatures.length) needs.add('CREATE_FEATURE');

    // Items must belong to a feature of the file; those of skipped features are dropped.
    const strays = new Set<string>();
    // Each item's index in its list, for the paths of its problems.
    const positions = new Map<object, number>();
    for (const list of [data.featureStrategies, data.featureEnvironments, data.dependencies]) {
      (list ?? []).forEach((entry: object, index) => positions.set(entry, index));
    }
    const ofKept = <T>(items: T[] | undefined, name: (item: T) => string): T[] =>
      (items ?? []).filter((entry) => {
        const feature = name(entry);
        if (!keptNames.has(feature) && !skipped.has(feature)) strays.add(feature);
        return keptNames.has(feature);
      });
    const strategies = ofKept(data.featureStrategies, (s) => s.featureName);
    const featureEnvironments = ofKept(data.featureEnvironments, (e) => e.featureName);
    const featureTags = ofKept(data.featureTags, (t) => t.featureName);
    const dependencies = ofKept(data.dependencies, (d) => d.feature);
    if (strays.size) {
      errors.push(item('Items of the file name features that its features list lacks:', strays));
    }

    // Strategy types.
    const typeNames = sorted(strategies.map((strategy) => strategy.name));
    const types = new Map(
      (await this.strategyTypes.byNames(tx, typeNames)).map((type) => [type.name, type]),
    );
    const unknownTypes = typeNames.filter((name) => !types.has(name));
    if (unknownTypes.length) {
      errors.push(item('These strategy types do not exist here; create them first:', unknownTypes));
    }
    const custom = typeNames.filter((name) => types.get(name)?.builtIn === false);
    if (custom.length) {
      warnings.push(
        item(
          'These custom strategy types are used; their parameters must match the file’s:',
          custom,
        ),
      );
    }
    if (strategies.length) needs.add('CREATE_FEATURE_STRATEGY');
    const replacesStrategies =
      (await this.strategies.countForFeatures(tx, environment, existing)) > 0;
    if (replacesStrategies) needs.add('DELETE_FEATURE_STRATEGY');

    // Segments, matched by name.
    const segmentNames = new Map((data.segments ?? []).map((s) => [s.id, s.name]));
    const segmentsHere = new Map(
      (await this.segments.byNames(tx, sorted(segmentNames.values())))
        .filter((segment) => segment.projectId === null || segment.projectId === project)
        .map((segment) => [segment.name, segment.id]),
    );

    // Context fields: those of the file, and those its items name.
    const fileFields = new Map((data.contextFields ?? []).map((field) => [field.name, field]));
    // Collected into one set in loops: these run over every strategy and variant of the file.
    const named = new Set<string>(fileFields.keys());
    for (const s of strategies) {
      for (const c of s.constraints ?? []) named.add(c.contextName);
    }
    for (const e of featureEnvironments) {
      for (const v of e.variants ?? []) {
        named.add(v.stickiness ?? 'default');
        for (const o of v.overrides ?? []) named.add(o.contextName);
      }
    }
    for (const s of strategies) {
      named.add(String(s.parameters?.stickiness ?? 'default'));
      for (const v of s.variants ?? []) named.add(v.stickiness);
    }
    const fieldNames = sorted([...named].filter((name) => !BUILT_IN_STICKINESS.includes(name)));
    const fieldsHere = new Map(
      (await this.contextFields.readForExport(tx, fieldNames)).map((field) => [field.name, field]),
    );
    const conflicting: string[] = [];
    const newContextFields: Analysis['newContextFields'] = [];
    for (const field of fileFields.values()) {
      const stored = fieldsHere.get(field.name);
      if (stored) {
        const legal = new Set(stored.legalValues.map((legal) => legal.value));
        if ((field.legalValues ?? []).some((value) => !legal.has(value.value))) {
          conflicting.push(field.name);
        }
      } else {
        newContextFields.push(
          withoutNulls({
            name: field.name,
            description: field.description ?? undefined,
            stickiness: field.stickiness ? 1 : 0,
            sort_order: field.sortOrder ?? DEFAULT_SORT_ORDER,
            legal_values: JSON.stringify(
              (field.legalValues ?? []).map((l) =>
                l.description === undefined
                  ? { value: l.value }
                  : { value: l.value, description: l.description },
              ),
            ),
          }),
        );
      }
    }
    if (conflicting.length) {
      errors.push(
        item(
          'These context fields exist here without some of the file’s legal values:',
          conflicting,
        ),
      );
    }
    const newFieldNames = newContextFields.map((field) => field.name);
    if (newFieldNames.length) {
      warnings.push(item('These context fields will be created:', newFieldNames));
      needs.add('CREATE_CONTEXT_FIELD');
    }
    const rules = new Map<string, ContextFieldRules>();
    for (const field of fieldsHere.values()) {
      rules.set(field.name, { legalValues: field.legalValues.map((legal) => legal.value) });
    }
    for (const field of fileFields.values()) {
      if (!rules.has(field.name)) {
        rules.set(field.name, { legalValues: (field.legalValues ?? []).map((l) => l.value) });
      }
    }

    // Feature-environment switches and variants; a feature listed twice takes its last entry.
    const environmentRows = new Map<string, Analysis['featureEnvironments'][number]>();
    const environmentDetails: ErrorDetail[] = [];
    const environmentReferences: ContextReference[] = [];
    for (const row of featureEnvironments) {
      const at = `/data/featureEnvironments/${positions.get(row)}/variants`;
      const variants = normaliseVariants(row.variants ?? [], at);
      environmentDetails.push(...variants.details);
      environmentReferences.push(...variants.references);
      environmentRows.set(row.featureName, {
        feature: row.featureName,
        enabled: row.enabled ? 1 : 0,
        variants: JSON.stringify(variants.variants),
      });
    }
    if (environmentRows.size) {
      needs.add('UPDATE_FEATURE_ENVIRONMENT');
      needs.add('UPDATE_FEATURE_ENVIRONMENT_VARIANTS');
    }

    // Tags and their types.
    const fileTagTypes = new Map(data.tagTypes.map((type) => [type.name, type]));
    const usedTypes = sorted([...fileTagTypes.keys(), ...featureTags.map((tag) => tag.tagType)]);
    const typesHere = new Set(
      (await this.tagTypes.readForExport(tx, usedTypes)).map((t) => t.name),
    );
    const newTagTypes = [...fileTagTypes.values()]
      .filter((type) => !typesHere.has(type.name))
      .map((type) =>
        withoutNulls({
          name: type.name,
          description: type.description ?? undefined,
          icon: type.icon ?? undefined,
        }),
      );
    if (newTagTypes.length) {
      warnings.push(
        item(
          'These tag types will be created:',
          newTagTypes.map((type) => type.name),
        ),
      );
      needs.add('CREATE_TAG_TYPE');
    }
    const untyped = usedTypes.filter((name) => !typesHere.has(name) && !fileTagTypes.has(name));
    if (untyped.length) {
      trailingErrors.push(
        item('These tag types are used by tags but are neither in the file nor here:', untyped),
      );
    }
    const tagKeys = new Set<string>();
    const tags: Analysis['tags'] = [];
    for (const tag of featureTags) {
      const row = { feature: tag.featureName, type: tag.tagType, value: tag.tagValue };
      const key = featureTagKey(row);
      if (tagKeys.has(key)) continue;
      tagKeys.add(key);
      tags.push(row);
    }

    // Dependencies: the parent is in the file, or here in the same project.
    const missingParents = new Set<string>();
    const dependencyRows: Analysis['dependencies'] = [];
    dependencies.forEach((dependency) => {
      const at = `/data/dependencies/${positions.get(dependency)}`;
      dependency.dependencies.forEach((parent, index) => {
        const ref = here.get(parent.feature);
        const inFile = keptNames.has(parent.feature);
        if (!inFile && (!ref || ref.archived || ref.projectId !== project)) {
          missingParents.add(parent.feature);
        }
        const enabled = parent.enabled ?? true;
        if (!enabled && (parent.variants ?? []).length > 0) {
          dependencyDetails.push({
            path: `${at}/dependencies/${index}/variants`,
            message: 'variants can only be required of a parent that must be enabled',
          });
        }
        dependencyRows.push({
          child: dependency.feature,
          parent: parent.feature,
          enabled: enabled ? 1 : 0,
          variants: JSON.stringify(parent.variants ?? []),
        });
      });
    });
    if (missingParents.size) {
      trailingErrors.push(
        item(
          `These parent features are neither in the file nor active in project ${project}:`,
          missingParents,
        ),
      );
    }
    if (dependencyRows.length) {
      const stored = await this.dependencies.touchingAny(
        tx,
        sorted(dependencyRows.map((edge) => edge.parent)),
        sorted(dependencyRows.map((edge) => edge.child)),
      );
      const { loops, chains } = unchainable(dependencyRows, stored);
      if (loops.length) {
        trailingErrors.push(item('These features would depend on themselves:', loops));
      }
      if (chains.length) {
        trailingErrors.push(
          item(
            'These dependencies would chain features (a parent cannot have parents, and a feature that has children cannot become a child):',
            chains,
          ),
        );
      }
    }
    const missing = PERMISSION_ORDER.filter(
      (permission) =>
        needs.has(permission) &&
        !hasPermission(
          principal,
          permission,
          ENVIRONMENT_SCOPED.has(permission) ? environment : undefined,
        ),
    );
    const features = kept.map((feature) =>
      withoutNulls({
        name: feature.name,
        type: feature.type ?? 'release',
        description: feature.description ?? undefined,
        stale: feature.stale ? 1 : 0,
        impression_data: feature.impressionData ? 1 : 0,
      }),
    );
    return {
      leadingErrors: errors,
      trailingErrors,
      dependencyDetails,
      warnings,
      missing,
      features,
      rewrittenFeatures: features.filter((row) => {
        const stored = here.get(row.name)?.stored;
        return stored === undefined || !sameFeatureFields(row, stored);
      }),
      newFeatures,
      environments,
      environmentType,
      replacesStrategies,
      featureEnvironments: [...environmentRows.values()],
      environmentDetails,
      environmentReferences,
      tags,
      catalogue: distinctTags(tags),
      dependencies: dependencyRows,
      newTagTypes,
      newContextFields,
      input: {
        strategies,
        positions,
        types,
        rules,
        segmentNames,
        segmentsHere,
      },
    };
  }

  /**
   * The imported features' strategies in their stored form, checked as the strategy routes check
   * them, and the context fields that they and the variants name. Nothing stored is read: the
   * import runs this while the server writes the features and their environments, letting the
   * event loop run every ITEMS_PER_TURN strategies so that those statements go on meanwhile.
   */
  private async rows(analysis: Analysis): Promise<Rows> {
    const { strategies, positions, types, rules, segmentNames, segmentsHere } = analysis.input;
    const details: ErrorDetail[] = [];
    const references: ContextReference[] = [];
    const missingSegments = new Set<string>();
    const known = new Set(rules.keys());

    // Strategies in their stored form.
    const byFeature = new Map<string, number>();
    const strategyRows: ImportStrategyRow[] = [];
    for (const [n, strategy] of strategies.entries()) {
      if (n > 0 && n % ITEMS_PER_TURN === 0) await nextTurn();
      const at = `/data/featureStrategies/${positions.get(strategy)}`;
      // Numbers and booleans are read as their text (other exporters write them so); then the
      // rules of the strategy routes, flexibleRollout's defaults included.
      const given: Record<string, unknown> = {};
      const input: Record<string, unknown> = strategy.parameters ?? {};
      for (const key of Object.keys(input)) {
        const value = input[key];
        given[key] =
          typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
      }
      const { parameters, ...checkedParameters } = normaliseParameters(
        given,
        types.get(strategy.name),
        strategy.featureName,
        `${at}/parameters`,
      );
      details.push(...checkedParameters.details);
      references.push(...checkedParameters.references);
      if (strategy.name !== 'flexibleRollout' && parameters.stickiness !== undefined) {
        references.push({
          name: parameters.stickiness,
          path: `${at}/parameters/stickiness`,
          stickiness: true,
        });
      }
      const checked = checkConstraints(strategy.constraints ?? [], rules, `${at}/constraints`);
      details.push(...checked.details);
      const variants = normaliseStrategyVariants(strategy.variants ?? [], `${at}/variants`);
      details.push(...variants.details);
      references.push(...variants.references);
      const segments = new Set<number>();
      for (const id of strategy.segments ?? []) {
        const name = segmentNames.get(id);
        const local = name === undefined ? undefined : segmentsHere.get(name);
        if (name === undefined) {
          details.push({
            path: `${at}/segments`,
            message: `Segment ${id} is not in the file’s segments`,
          });
        } else if (local === undefined) {
          missingSegments.add(name);
        } else {
          segments.add(local);
        }
      }
      const order = byFeature.get(strategy.featureName) ?? 0;
      byFeature.set(strategy.featureName, order + 1);
      // Built directly rather than through withoutNulls: one object per strategy of the file.
      const row: ImportStrategyRow = {
        feature: strategy.featureName,
        strategy: strategy.name,
        parameters: JSON.stringify(parameters),
        constraints: JSON.stringify(checked.constraints),
        variants: JSON.stringify(variants.variants),
        sort_order: strategy.sortOrder ?? order,
        disabled: strategy.disabled ? 1 : 0,
        segments: segments.size > 1 ? [...segments].sort((a, b) => a - b) : [...segments],
      };
      if (strategy.title !== null && strategy.title !== undefined) row.title = strategy.title;
      strategyRows.push(row);
    }

    details.push(...analysis.environmentDetails);
    references.push(...analysis.environmentReferences);
    details.push(...unknownContextFields(references, known));
    return {
      strategies: strategyRows,
      missingSegments,
      details,
    };
  }
}
