import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Constraint } from '../common/constraints/constraint';
import { NotFoundError } from '../common/errors';
import type { LegalValue } from '../context-fields/context-field.entity';
import type { DependencyDto } from '../features/dto/feature.dto';
import type { StrategyDto } from '../features/dto/strategy.dto';
import type { StrategyVariant, Variant } from '../features/variant';
import { parseJson, toBoolean, toNullableNumber, toNumber } from '../database/sql-values';
import { compareBytes } from './byte-order';
import type { ExportQueryDto } from './dto/export-query.dto';
import type {
  ExportContextFieldDto,
  ExportDependencyDto,
  ExportFeatureDto,
  ExportFeatureEnvironmentDto,
  ExportFeatureTagDto,
  ExportResultDto,
  ExportSegmentDto,
} from './dto/export-result.dto';
import type { TagTypeDto } from '../tags/dto/tag-type.dto';
import {
  Dialect,
  ExportSelection,
  featureCondition,
  jsonStrings,
  SELECTION_TABLE,
  selectionOf,
  selectionTableDdl,
} from './export-selection';

/** Stickiness values that are not context fields. */
const BUILT_IN_STICKINESS = new Set(['default', 'random']);

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
 * The export of rules.md §6. One read transaction (one snapshot), and a fixed number of
 * statements whatever the number of features: the features are selected with one query, their
 * names go into a temporary table as one JSON parameter, and each other table is then read with
 * one statement that joins it; no statement has a placeholder per feature. Rows are read raw (no
 * entity hydration), each JSON column is parsed once while its row is mapped, and every list is
 * sorted in JS in UTF-8 byte order so that both databases give the same bytes.
 */
@Injectable()
export class ExportService {
  private readonly dialect: Dialect;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    const type = dataSource.options.type;
    this.dialect = type === 'mysql' || type === 'mariadb' ? 'mysql' : 'sqlite';
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
    return { document, filename: exportFileName(query.environment, at) };
  }

  private async read(
    manager: EntityManager,
    environment: string,
    selection: ExportSelection,
  ): Promise<ExportResultDto> {
    const q = <T>(sql: string, params: unknown[] = []): Promise<T[]> => manager.query(sql, params);

    const [env] = await q(`SELECT name FROM environments WHERE name = ?`, [environment]);
    if (!env) throw NotFoundError.named('environment', environment);
    if (selection.rule === 'project') {
      const [project] = await q(`SELECT id FROM projects WHERE id = ?`, [selection.projectId]);
      if (!project) throw NotFoundError.named('project', selection.projectId, 'id');
    }

    const condition = featureCondition(selection, this.dialect);
    const document = emptyDocument();
    document.features = (
      await q<FeatureRow>(
        `SELECT f.name, f.description, f.type, f.project_id, f.stale, f.impression_data, f.archived_at
           FROM features f WHERE ${condition.sql}`,
        condition.params,
      )
    ).map(toFeature);
    if (document.features.length === 0) return document;
    document.features.sort((a, b) => compareBytes(a.name, b.name));

    const ddl = selectionTableDdl(this.dialect);
    // On MySQL a table left on this pooled connection by an export whose clean-up failed would
    // make CREATE fail; SQLite rolls a temp table back with the transaction that created it.
    await q(ddl.drop);
    await q(ddl.create);
    try {
      // From a parameter rather than INSERT ... SELECT FROM features: on InnoDB that SELECT
      // would be a locking read (shared next-key locks until COMMIT, which block creating a
      // feature in the exported project) reading the newest rows instead of the snapshot.
      await q(`INSERT INTO ${SELECTION_TABLE} (name) ${jsonStrings(this.dialect)}`, [
        JSON.stringify(document.features.map((feature) => feature.name)),
      ]);
      await this.readSelected(q, environment, document);
    } catch (error) {
      // The original error is the one to report; the drop is a courtesy to the connection.
      await q(ddl.drop).catch(() => undefined);
      throw error;
    }
    await q(ddl.drop);
    return document;
  }

  /** The selected features' other data: one statement per table, each joining the selection. */
  private async readSelected(
    q: <T>(sql: string, params?: unknown[]) => Promise<T[]>,
    environment: string,
    document: ExportResultDto,
  ): Promise<void> {
    const table = SELECTION_TABLE;
    const contextNames = new Set<string>();
    document.featureEnvironments = (
      await q<FeatureEnvironmentRow>(
        `SELECT fe.feature_name, fe.enabled, fe.variants
           FROM ${table} sel JOIN feature_environments fe ON fe.feature_name = sel.name
          WHERE fe.environment_name = ?`,
        [environment],
      )
    ).map((row) => toFeatureEnvironment(row, environment, contextNames));
    document.featureEnvironments.sort((a, b) => compareBytes(a.featureName, b.featureName));

    document.featureStrategies = (
      await q<StrategyRow>(
        `SELECT fs.id, fs.feature_name, fs.strategy_name, fs.title, fs.parameters, fs.constraints,
                fs.variants, fs.sort_order, fs.disabled
           FROM ${table} sel JOIN feature_strategies fs ON fs.feature_name = sel.name
          WHERE fs.environment_name = ?`,
        [environment],
      )
    ).map((row) => toStrategy(row, contextNames));
    document.featureStrategies.sort(
      (a, b) =>
        compareBytes(a.featureName, b.featureName) ||
        a.sortOrder - b.sortOrder ||
        compareBytes(a.id, b.id),
    );

    if (document.featureStrategies.length > 0) {
      const links = await q<SegmentLinkRow>(
        `SELECT fss.strategy_id, s.id, s.name
           FROM ${table} sel
           JOIN feature_strategies fs ON fs.feature_name = sel.name
           JOIN feature_strategy_segments fss ON fss.strategy_id = fs.id
           JOIN segments s ON s.id = fss.segment_id
          WHERE fs.environment_name = ?`,
        [environment],
      );
      document.segments = attachSegments(document.featureStrategies, links);
    }

    document.featureTags = (
      await q<TagRow>(
        `SELECT ft.feature_name, ft.tag_type, ft.tag_value, ft.created_by_user_id
           FROM ${table} sel JOIN feature_tags ft ON ft.feature_name = sel.name`,
      )
    ).map(toFeatureTag);
    document.featureTags.sort(
      (a, b) =>
        compareBytes(a.featureName, b.featureName) ||
        compareBytes(a.tagType, b.tagType) ||
        compareBytes(a.tagValue, b.tagValue),
    );

    // Tag types and context fields are few (definitions, not per-feature data): their names go
    // as one JSON parameter.
    const tagTypeNames = [...new Set(document.featureTags.map((tag) => tag.tagType))];
    if (tagTypeNames.length > 0) {
      document.tagTypes = (
        await q<TagTypeDto>(
          `SELECT name, description, icon FROM tag_types WHERE name IN (${jsonStrings(this.dialect)})`,
          [JSON.stringify(tagTypeNames)],
        )
      ).map((row) => ({
        name: row.name,
        description: row.description ?? null,
        icon: row.icon ?? null,
      }));
      document.tagTypes.sort((a, b) => compareBytes(a.name, b.name));
    }

    if (contextNames.size > 0) {
      document.contextFields = (
        await q<ContextFieldRow>(
          `SELECT name, description, stickiness, sort_order, legal_values FROM context_fields
            WHERE name IN (${jsonStrings(this.dialect)})`,
          [JSON.stringify([...contextNames])],
        )
      ).map(toContextField);
      document.contextFields.sort((a, b) => compareBytes(a.name, b.name));
    }

    document.dependencies = toDependencies(
      await q<DependencyRow>(
        `SELECT d.child, d.parent, d.enabled, d.variants
           FROM ${table} sel JOIN feature_dependencies d ON d.child = sel.name`,
      ),
    );
  }
}

interface FeatureRow {
  name: string;
  description: string | null;
  type: string;
  project_id: string;
  stale: unknown;
  impression_data: unknown;
  archived_at: unknown;
}

interface FeatureEnvironmentRow {
  feature_name: string;
  enabled: unknown;
  variants: unknown;
}

interface StrategyRow {
  id: string;
  feature_name: string;
  strategy_name: string;
  title: string | null;
  parameters: unknown;
  constraints: unknown;
  variants: unknown;
  sort_order: unknown;
  disabled: unknown;
}

interface SegmentLinkRow {
  strategy_id: string;
  id: unknown;
  name: string;
}

interface TagRow {
  feature_name: string;
  tag_type: string;
  tag_value: string;
  created_by_user_id: unknown;
}

interface ContextFieldRow {
  name: string;
  description: string | null;
  stickiness: unknown;
  sort_order: unknown;
  legal_values: unknown;
}

interface DependencyRow {
  child: string;
  parent: string;
  enabled: unknown;
  variants: unknown;
}

function toFeature(row: FeatureRow): ExportFeatureDto {
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
  if (typeof stickiness === 'string' && !BUILT_IN_STICKINESS.has(stickiness)) names.add(stickiness);
}

function toFeatureEnvironment(
  row: FeatureEnvironmentRow,
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

function toStrategy(row: StrategyRow, contextNames: Set<string>): StrategyDto {
  const parameters = parseJson<Record<string, string>>(row.parameters, {});
  const constraints = parseJson<Constraint[]>(row.constraints, []);
  const variants = parseJson<StrategyVariant[]>(row.variants, []);
  addStickiness(contextNames, parameters.stickiness);
  for (const constraint of constraints) contextNames.add(constraint.contextName);
  for (const variant of variants) addStickiness(contextNames, variant.stickiness);
  return {
    id: row.id,
    name: row.strategy_name,
    featureName: row.feature_name,
    title: row.title ?? null,
    parameters,
    constraints,
    variants,
    sortOrder: toNumber(row.sort_order),
    disabled: toBoolean(row.disabled),
    segments: [],
  };
}

/** Fills each strategy's segment ids (ascending) and returns the segments used, by name then id. */
function attachSegments(strategies: StrategyDto[], links: SegmentLinkRow[]): ExportSegmentDto[] {
  const byStrategy = new Map(strategies.map((strategy) => [strategy.id, strategy]));
  const segments = new Map<number, ExportSegmentDto>();
  for (const link of links) {
    const id = toNumber(link.id);
    byStrategy.get(link.strategy_id)?.segments.push(id);
    if (!segments.has(id)) segments.set(id, { id, name: link.name });
  }
  for (const strategy of strategies) {
    if (strategy.segments.length > 1) strategy.segments.sort((a, b) => a - b);
  }
  return [...segments.values()].sort((a, b) => compareBytes(a.name, b.name) || a.id - b.id);
}

function toFeatureTag(row: TagRow): ExportFeatureTagDto {
  return {
    featureName: row.feature_name,
    tagType: row.tag_type,
    tagValue: row.tag_value,
    createdByUserId: toNullableNumber(row.created_by_user_id),
  };
}

function toContextField(row: ContextFieldRow): ExportContextFieldDto {
  return {
    name: row.name,
    description: row.description ?? null,
    stickiness: toBoolean(row.stickiness),
    sortOrder: toNumber(row.sort_order),
    legalValues: parseJson<LegalValue[]>(row.legal_values, []),
  };
}

/** One entry per child, by child name; its parents by name. */
function toDependencies(rows: DependencyRow[]): ExportDependencyDto[] {
  const byChild = new Map<string, DependencyDto[]>();
  for (const row of rows) {
    const parent: DependencyDto = {
      feature: row.parent,
      enabled: toBoolean(row.enabled),
      variants: parseJson<string[]>(row.variants, []),
    };
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
