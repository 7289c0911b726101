import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { DataText, dataText, loadValues } from '../database/load-data';
import {
  dialectOf,
  forUpdate,
  jsonRecords,
  sqlConcat,
  sqlJsonBoolean,
  sqlJsonObject,
  sqlJsonString,
  sqlStoredJson,
  SqlValue,
} from '../database/sql-dialect';
import type { ReadSnapshot } from '../database/read-snapshot';
import { placeholders, toBoolean, toNullableNumber, toNumber } from '../database/sql-values';
import {
  ExportFeatureItem,
  ExportScope,
  FEATURES_OF_PROJECT_SQL,
  featureNamesSql,
  FeatureSelection,
} from './features.store';
import { StrategyCountRow, StrategyRow, toStrategyDto } from './feature-mappers';
import type { StrategyDto } from './dto/strategy.dto';

/**
 * Every column a strategy record needs, and its segment ids as one comma-separated value: a
 * correlated sub-select on the segment links' primary key, so that strategies and their segments
 * cost one statement.
 */
const STRATEGY_COLUMNS = `fs.id, fs.feature_name, fs.environment_name, fs.strategy_name, fs.title,
  fs.parameters, fs.constraints, fs.variants, fs.sort_order, fs.disabled,
  (SELECT GROUP_CONCAT(fss.segment_id) FROM feature_strategy_segments fss
    WHERE fss.strategy_id = fs.id) AS segment_ids`;

/** GROUP_CONCAT's comma-separated ids (a string, or bytes on MySQL), ascending. */
export function segmentIdList(value: unknown): number[] {
  if (value === null || value === undefined) return [];
  const ids = String(value).split(',').map(Number);
  return ids.length > 1 ? ids.sort((a, b) => a - b) : ids;
}

/** A strategy as the import writes it: JSON columns as text, booleans as 0/1, local segment ids. */
export interface ImportStrategyRow {
  feature: string;
  strategy: string;
  title?: string;
  parameters: string;
  constraints: string;
  variants: string;
  sort_order: number;
  disabled: number;
  segments: number[];
}

/**
 * What makes two import rows the same strategy (everything but the id), as one string: NUL cannot
 * occur in names, and JSON text escapes it.
 */
function importStrategyKey(row: ImportStrategyRow): string {
  // One template rather than an array joined: it runs for every row of the file and of the table.
  const title = row.title === undefined ? '' : `t${row.title}`;
  return `${row.feature}\u0000${row.strategy}\u0000${title}\u0000${row.parameters}\u0000${row.constraints}\u0000${row.variants}\u0000${row.sort_order}\u0000${row.disabled}\u0000${row.segments.join(',')}`;
}

/** A JSON column as its stored text (mysql2 parses MySQL 8's JSON type; the others are text). */
function jsonText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A strategy row with its segment ids, as every strategy read selects it. */
export interface StrategyWithSegmentsRow extends StrategyRow {
  segment_ids: unknown;
}

export function toStrategy(row: StrategyWithSegmentsRow): StrategyDto {
  return toStrategyDto(row, segmentIdList(row.segment_ids));
}

/** The columns of the import's strategy rows, in the order importValues gives them. */
const IMPORT_COLUMNS = [
  'id',
  'feature_name',
  'environment_name',
  'strategy_name',
  'title',
  'parameters',
  'constraints',
  'variants',
  'sort_order',
  'disabled',
  'created_at',
];

/** An import row's values with its new id, in the order of IMPORT_COLUMNS. */
function importValues(
  id: string,
  row: ImportStrategyRow,
  environment: string,
  at: string,
): SqlValue[] {
  return [
    id,
    row.feature,
    environment,
    row.strategy,
    row.title ?? null,
    row.parameters,
    row.constraints,
    row.variants,
    row.sort_order,
    row.disabled,
    at,
  ];
}

/** The id of the `index`-th inserted row of an import, as the clone numbers its copies. */
function importId(prefix: string, index: number): string {
  return `${prefix}${String(index + 1).padStart(7, '0')}`;
}

/** The import's strategies written ahead of their load (prewriteForImport). */
export interface PrewrittenStrategies {
  /** The ids' prefix, which the segment links take too. */
  prefix: string;
  /** The rows as LOAD DATA's text, with their ids. */
  data: DataText;
}

/** Where a strategy is: the fields of Unleash's segment and context-field usage lists. */
export interface StrategyUsage {
  id: string;
  projectId: string;
  featureName: string;
  strategyName: string;
  environment: string;
}

/**
 * The condition "this strategy's constraints name the context field in `nameColumn`": the text
 * that constraintNeedle() (context-fields.service.ts) describes, built in SQL.
 */
function namesContextField(nameColumn: string): string {
  return `INSTR(fs.constraints, CONCAT('"contextName":"', ${nameColumn}, '"')) > 0`;
}

/**
 * Usage counts as correlated sub-selects, for the owners of segments and context fields to put
 * in their list statements (one statement for a list of any length). As in Unleash, they count
 * the features that are not archived, and the projects of those features.
 */
export function segmentUsageCountSql(segmentIdColumn: string, of: 'features' | 'projects'): string {
  return `(SELECT COUNT(DISTINCT ${of === 'features' ? 'f.name' : 'f.project_id'})
      FROM feature_strategy_segments fss
      JOIN feature_strategies fs ON fs.id = fss.strategy_id
      JOIN features f ON f.name = fs.feature_name
     WHERE fss.segment_id = ${segmentIdColumn} AND f.archived_at IS NULL)`;
}

export function contextFieldUsageCountSql(nameColumn: string, of: 'features' | 'projects'): string {
  return `(SELECT COUNT(DISTINCT ${of === 'features' ? 'f.name' : 'f.project_id'})
      FROM feature_strategies fs JOIN features f ON f.name = fs.feature_name
     WHERE f.archived_at IS NULL AND ${namesContextField(nameColumn)})`;
}

const USAGE_COLUMNS = `fs.id, f.project_id, fs.feature_name, fs.strategy_name, fs.environment_name`;
const USAGE_ORDER = `ORDER BY fs.feature_name, fs.environment_name, fs.sort_order, fs.id`;

function toUsage(row: {
  id: string;
  project_id: string;
  feature_name: string;
  strategy_name: string;
  environment_name: string;
}): StrategyUsage {
  return {
    id: row.id,
    projectId: row.project_id,
    featureName: row.feature_name,
    strategyName: row.strategy_name,
    environment: row.environment_name,
  };
}

const MAX_SORT_ORDER = 2147483647;

/**
 * The ids of the copied strategies are UUIDv7 (RFC 9562): the clone's time in milliseconds, then
 * random bits drawn once per clone, then (in the last 7 digits) the strategy's rank among the
 * copied ones, ordered by old id; RFC 9562 allows such a counter for monotonic ids. Derived this
 * way, the same old id maps to the same new id in both statements that need it (strategies and
 * their segment links), which keeps the copy set-based; and the new keys are ascending, so InnoDB
 * appends them to its clustered index instead of splitting pages all over it (measured: the
 * strategy copy took half the time of the same copy with random keys).
 */
function newIdPrefix(): string {
  const time = Date.now().toString(16).padStart(12, '0');
  const random = randomBytes(6).toString('hex');
  const variant = '89ab'[parseInt(random[3], 16) % 4];
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(0, 3)}-${variant}${random.slice(4, 7)}-${random.slice(7, 12)}`;
}

/** SQL of a new id: the prefix parameter and `rn`, the rank, as 7 zero-padded digits. */
const NEW_ID = `CONCAT(?, SUBSTR(CONCAT('0000000', ids.rn), -7))`;

/** The clone's temporary map from old to new strategy id (MySQL/MariaDB only). */
const CLONE_ID_MAP = 'clone_strategy_ids';

/** The columns the clone writes, and what it writes into them from a source strategy `fs`. */
const COPIED_COLUMNS = `id, feature_name, environment_name, strategy_name, title, parameters,
  constraints, variants, sort_order, disabled, created_at`;
const copiedValues = (fs: string) => `${fs}.feature_name, ?, ${fs}.strategy_name, ${fs}.title,
  ${fs}.parameters, ${fs}.constraints, ${fs}.variants, ${fs}.sort_order, ${fs}.disabled,
  ${fs}.created_at`;

/** The `feature_strategies` table and its segment links (`feature_strategy_segments`). */
@Injectable()
export class StrategiesStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The strategies of the selected features, each with its environment and segment ids (one
   * statement), by feature, environment, sortOrder and id.
   */
  async ofFeatures(
    selection: FeatureSelection,
    tx: EntityManager,
  ): Promise<Array<{ environment: string; strategy: StrategyDto }>> {
    const { list, params } = featureNamesSql(selection);
    const rows: StrategyWithSegmentsRow[] = await tx.query(
      `SELECT ${STRATEGY_COLUMNS} FROM feature_strategies fs
        WHERE fs.feature_name IN (${list})
        ORDER BY fs.feature_name, fs.environment_name, fs.sort_order, fs.id`,
      params,
    );
    return rows.map((row) => ({ environment: row.environment_name, strategy: toStrategy(row) }));
  }

  /** How many strategies (and enabled ones) each selected feature has per environment. */
  async countsOf(selection: FeatureSelection, tx: EntityManager): Promise<StrategyCountRow[]> {
    const { list, params } = featureNamesSql(selection);
    return tx.query(
      `SELECT feature_name, environment_name, COUNT(*) AS total,
              SUM(CASE WHEN disabled = 0 THEN 1 ELSE 0 END) AS enabled_count
         FROM feature_strategies
        WHERE feature_name IN (${list})
        GROUP BY feature_name, environment_name`,
      params,
    );
  }

  /** The segments that the strategies of the selected features use (one statement). */
  async segmentIdsOf(
    selection: FeatureSelection,
    tx: EntityManager,
  ): Promise<Array<{ featureName: string; segmentId: number }>> {
    const { list, params } = featureNamesSql(selection);
    const rows: Array<{ feature_name: string; segment_id: unknown }> = await tx.query(
      `SELECT DISTINCT fs.feature_name, fss.segment_id
         FROM feature_strategies fs JOIN feature_strategy_segments fss ON fss.strategy_id = fs.id
        WHERE fs.feature_name IN (${list})`,
      params,
    );
    return rows.map((row) => ({
      featureName: row.feature_name,
      segmentId: toNumber(row.segment_id),
    }));
  }

  /** The strategies of a feature in one environment, by sortOrder then id. */
  async ofFeatureEnvironment(
    featureName: string,
    environment: string,
    tx: EntityManager = this.dataSource.manager,
  ): Promise<StrategyDto[]> {
    const rows: StrategyWithSegmentsRow[] = await tx.query(
      `SELECT ${STRATEGY_COLUMNS} FROM feature_strategies fs
        WHERE fs.feature_name = ? AND fs.environment_name = ? ORDER BY fs.sort_order, fs.id`,
      [featureName, environment],
    );
    return rows.map(toStrategy);
  }

  /** One strategy of a feature in one environment, or null. */
  async one(
    featureName: string,
    environment: string,
    id: string,
    tx: EntityManager = this.dataSource.manager,
  ): Promise<StrategyDto | null> {
    const [row]: StrategyWithSegmentsRow[] = await tx.query(
      `SELECT ${STRATEGY_COLUMNS} FROM feature_strategies fs
        WHERE fs.id = ? AND fs.feature_name = ? AND fs.environment_name = ?`,
      [id, featureName, environment],
    );
    return row ? toStrategy(row) : null;
  }

  /** After the last strategy of the feature in the environment. */
  async nextSortOrder(
    tx: EntityManager,
    featureName: string,
    environment: string,
  ): Promise<number> {
    const [row]: Array<{ max_order: unknown }> = await tx.query(
      `SELECT MAX(sort_order) AS max_order FROM feature_strategies
        WHERE feature_name = ? AND environment_name = ?`,
      [featureName, environment],
    );
    const max = toNullableNumber(row?.max_order);
    return max === null ? 0 : Math.min(max + 1, MAX_SORT_ORDER);
  }

  /** Unlinking an environment from a project drops its features' strategies there. */
  async removeProject(tx: EntityManager, projectId: string, environment: string): Promise<void> {
    await tx.query(
      `DELETE FROM feature_strategies
        WHERE environment_name = ? AND feature_name IN (${FEATURES_OF_PROJECT_SQL})`,
      [environment, projectId],
    );
  }

  /**
   * The clone's copy of every strategy of the projects' features in `source`, and of their
   * segment links: set-based statements that number the strategies alike (see NEW_ID).
   */
  async copyEnvironment(
    tx: EntityManager,
    source: string,
    target: string,
    projectIds: string[],
  ): Promise<void> {
    const prefix = newIdPrefix();
    if (dialectOf(this.dataSource) !== 'sqlite') {
      await this.copyEnvironmentThroughIdMap(tx, prefix, source, target, projectIds);
      return;
    }
    const idMap = `(SELECT fs.id AS old_id, ROW_NUMBER() OVER (ORDER BY fs.id) AS rn
       FROM feature_strategies fs JOIN features f ON f.name = fs.feature_name
       WHERE fs.environment_name = ? AND f.project_id IN (${placeholders(projectIds)})) ids`;
    await tx.query(
      `INSERT INTO feature_strategies (${COPIED_COLUMNS})
       SELECT ${NEW_ID}, ${copiedValues('fs')}
       FROM ${idMap} JOIN feature_strategies fs ON fs.id = ids.old_id
       ORDER BY ids.rn`,
      [prefix, target, source, ...projectIds],
    );
    await tx.query(
      `INSERT INTO feature_strategy_segments (strategy_id, segment_id)
       SELECT ${NEW_ID}, fss.segment_id
       FROM ${idMap} JOIN feature_strategy_segments fss ON fss.strategy_id = ids.old_id
       ORDER BY ids.rn, fss.segment_id`,
      [prefix, source, ...projectIds],
    );
  }

  /**
   * The MySQL/MariaDB form of the copy (issue 15; docs/decisions-clone.md, "the strategy copy through a temporary id map"): the map from
   * old to new id is computed once, into a temporary table, instead of once per statement; and the
   * strategies are numbered by feature, then sort order, so that the rows arrive in the order of
   * the `(environment_name, feature_name, sort_order)` index and walk the `feature_name` index
   * (and the features' primary key for the foreign-key check) from start to end, instead of
   * landing on a random page for each row. The new ids still ascend in insertion order.
   * The temporary table takes `old_id`'s type from the column it copies (so it compares with the
   * same collation), belongs to this connection only, and is dropped before the connection goes
   * back to the pool, also when the copy fails (a temporary table outlives a rollback).
   */
  private async copyEnvironmentThroughIdMap(
    tx: EntityManager,
    prefix: string,
    source: string,
    target: string,
    projectIds: string[],
  ): Promise<void> {
    const dropMap = `DROP TEMPORARY TABLE IF EXISTS ${CLONE_ID_MAP}`;
    try {
      await tx.query(
        `CREATE TEMPORARY TABLE ${CLONE_ID_MAP} (PRIMARY KEY (id))
         SELECT fs.id AS old_id,
           CONCAT(?, SUBSTR(CONCAT('0000000',
             ROW_NUMBER() OVER (ORDER BY fs.feature_name, fs.sort_order, fs.id)), -7)) AS id
         FROM feature_strategies fs JOIN features f ON f.name = fs.feature_name
         WHERE fs.environment_name = ? AND f.project_id IN (${placeholders(projectIds)})`,
        [prefix, source, ...projectIds],
      );
      await tx.query(
        `INSERT INTO feature_strategies (${COPIED_COLUMNS})
         SELECT ids.id, ${copiedValues('fs')}
         FROM ${CLONE_ID_MAP} ids JOIN feature_strategies fs ON fs.id = ids.old_id
         ORDER BY ids.id`,
        [target],
      );
      // By new id only: the map's primary key gives that order without a sort, and the links of
      // one strategy land next to each other in any order (a sort on segment id too cost ~10 ms).
      await tx.query(
        `INSERT INTO feature_strategy_segments (strategy_id, segment_id)
         SELECT ids.id, fss.segment_id
         FROM ${CLONE_ID_MAP} ids JOIN feature_strategy_segments fss ON fss.strategy_id = ids.old_id
         ORDER BY ids.id`,
      );
    } catch (error) {
      // Drop the map if the connection still can, and report the copy's own error.
      await tx.query(dropMap).catch(() => undefined);
      throw error;
    }
    await tx.query(dropMap);
  }

  /** The segment ids of a strategy, ascending, or null when there is no such strategy. */
  async segmentIdsOfStrategy(strategyId: string): Promise<number[] | null> {
    const [row]: Array<{ segment_ids: unknown }> = await this.dataSource.query(
      `SELECT (SELECT GROUP_CONCAT(fss.segment_id) FROM feature_strategy_segments fss
                WHERE fss.strategy_id = fs.id) AS segment_ids
         FROM feature_strategies fs WHERE fs.id = ?`,
      [strategyId],
    );
    return row ? segmentIdList(row.segment_ids) : null;
  }

  /**
   * The strategies that use a segment, archived features' included (they keep the segment from
   * being deleted), by feature, environment, sortOrder and id.
   */
  async usingSegment(segmentId: number): Promise<StrategyUsage[]> {
    const rows = await this.dataSource.query(
      `SELECT ${USAGE_COLUMNS} FROM feature_strategy_segments fss
         JOIN feature_strategies fs ON fs.id = fss.strategy_id
         JOIN features f ON f.name = fs.feature_name
        WHERE fss.segment_id = ? ${USAGE_ORDER}`,
      [segmentId],
    );
    return rows.map(toUsage);
  }

  /** The strategies whose constraints name a context field, archived features' included. */
  async usingContextField(name: string): Promise<StrategyUsage[]> {
    const rows = await this.dataSource.query(
      `SELECT ${USAGE_COLUMNS} FROM feature_strategies fs
         JOIN features f ON f.name = fs.feature_name
        WHERE ${namesContextField('?')} ${USAGE_ORDER}`,
      [name],
    );
    return rows.map(toUsage);
  }

  /** Whether any strategy uses the segment. */
  async usesSegment(
    segmentId: number,
    tx: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const rows = await tx.query(
      `SELECT strategy_id FROM feature_strategy_segments WHERE segment_id = ? LIMIT 1`,
      [segmentId],
    );
    return rows.length > 0;
  }

  /** A project other than `projectId` whose features' strategies use the segment, if any. */
  async projectUsingSegmentOutside(segmentId: number, projectId: string): Promise<string | null> {
    const [row]: Array<{ project_id: string }> = await this.dataSource.query(
      `SELECT f.project_id FROM feature_strategy_segments fss
       JOIN feature_strategies fs ON fs.id = fss.strategy_id
       JOIN features f ON f.name = fs.feature_name
       WHERE fss.segment_id = ? AND f.project_id <> ? LIMIT 1`,
      [segmentId, projectId],
    );
    return row?.project_id ?? null;
  }

  /** The first of these segments that a strategy uses, if any. */
  async firstUsedSegment(segmentIds: number[]): Promise<number | null> {
    if (segmentIds.length === 0) return null;
    const [row]: Array<{ segment_id: unknown }> = await this.dataSource.query(
      `SELECT segment_id FROM feature_strategy_segments
        WHERE segment_id IN (${placeholders(segmentIds)}) ORDER BY segment_id LIMIT 1`,
      segmentIds,
    );
    return toNullableNumber(row?.segment_id);
  }

  /** Whether a strategy's stored constraints contain this text (see constraintNeedle). */
  async anyConstraintContaining(
    needle: string,
    tx: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const rows = await tx.query(
      `SELECT id FROM feature_strategies WHERE INSTR(constraints, ?) > 0 LIMIT 1`,
      [needle],
    );
    return rows.length > 0;
  }

  /** Whether any strategy is of this type. */
  async anyOfType(strategyName: string): Promise<boolean> {
    const rows = await this.dataSource.query(
      `SELECT id FROM feature_strategies WHERE strategy_name = ? LIMIT 1`,
      [strategyName],
    );
    return rows.length > 0;
  }

  /**
   * The export's read: the selected features' strategies in one environment, in one statement,
   * by feature (bytes), sortOrder and id (bytes), each as the text of StrategyDto: the stored JSON
   * columns spliced in, the segment ids ascending from a correlated sub-select (issue 15), with its
   * feature.
   */
  readForExport(
    reader: ReadSnapshot,
    scope: ExportScope,
    environment: string,
  ): AsyncIterable<ExportFeatureItem[]> {
    const dialect = dialectOf(this.dataSource);
    const segments = `(SELECT GROUP_CONCAT(CAST(fss.segment_id AS CHAR) ORDER BY fss.segment_id)
      FROM feature_strategy_segments fss WHERE fss.strategy_id = fs.id)`;
    const item = sqlJsonObject(dialect, [
      ['id', sqlJsonString('fs.id')],
      ['name', sqlJsonString('fs.strategy_name')],
      ['featureName', sqlJsonString('fs.feature_name')],
      ['title', sqlJsonString('fs.title')],
      ['parameters', sqlStoredJson('fs.parameters', '{}')],
      ['constraints', sqlStoredJson('fs.constraints', '[]')],
      ['variants', sqlStoredJson('fs.variants', '[]')],
      ['sortOrder', 'CAST(fs.sort_order AS CHAR)'],
      ['disabled', sqlJsonBoolean('fs.disabled = 1')],
      ['segments', sqlConcat(dialect, [`'['`, `COALESCE(${segments}, '')`, `']'`])],
    ]);
    return reader.tuples(
      `SELECT ${item} AS item, fs.feature_name FROM feature_strategies fs
        WHERE fs.environment_name = ? AND fs.feature_name IN (${scope.sql})
        ORDER BY fs.feature_name, fs.sort_order, fs.id`,
      [environment, ...scope.params],
    );
  }

  /** How many strategies these features have in the environment (one statement). */
  async countForFeatures(tx: EntityManager, environment: string, names: string[]): Promise<number> {
    if (names.length === 0) return 0;
    const [row]: Array<{ total: unknown }> = await tx.query(
      `SELECT COUNT(*) AS total FROM feature_strategies fs
        WHERE fs.environment_name = ?
          AND fs.feature_name IN (SELECT j.name FROM (${jsonRecords(dialectOf(this.dataSource), { name: 'name' })}) j)`,
      [environment, JSON.stringify(names.map((name) => ({ name })))],
    );
    return toNumber(row?.total);
  }

  /**
   * The import's write: the strategies of these features in the environment become `rows`. A
   * stored strategy that a row repeats exactly (same feature, type, title, parameters,
   * constraints, variants, sort order, switch and segments) is kept with its id; the others are
   * deleted with their segment links, and the rows left over are inserted with new ids (numbered
   * as the clone numbers them). One read, then at most four writes whatever the number of
   * features, and none when nothing differs (a re-import of the same file). The read locks the
   * stored strategies (FOR UPDATE); the import has written the features and their environment rows
   * before, the order in which the strategy routes take their locks.
   */
  async replaceForImport(
    tx: EntityManager,
    environment: string,
    featureNames: string[],
    rows: ImportStrategyRow[],
    at: string,
    prewritten?: PrewrittenStrategies,
  ): Promise<void> {
    if (featureNames.length === 0) return;
    const dialect = dialectOf(this.dataSource);
    const names = JSON.stringify(featureNames.map((name) => ({ name })));
    const selected = `(${jsonRecords(dialect, { name: 'name' })}) j`;
    // A join on MySQL (see below); IN (sub-select) on SQLite, which plans the join the wrong way
    // round, scanning the JSON once per stored strategy (a minute for 20,000), and materialises
    // the IN list once.
    const stored: StrategyWithSegmentsRow[] = await tx.query(
      dialect !== 'sqlite'
        ? `SELECT ${STRATEGY_COLUMNS} FROM ${selected}
             JOIN feature_strategies fs ON fs.feature_name = j.name AND fs.environment_name = ?
            ORDER BY fs.id${forUpdate(dialect)}`
        : `SELECT ${STRATEGY_COLUMNS} FROM feature_strategies fs
            WHERE fs.feature_name IN (SELECT j.name FROM ${selected}) AND fs.environment_name = ?
            ORDER BY fs.id`,
      [names, environment],
    );
    const storedIds = new Map<string, string[]>();
    for (const row of stored) {
      const key = importStrategyKey({
        feature: row.feature_name,
        strategy: row.strategy_name,
        title: row.title ?? undefined,
        parameters: jsonText(row.parameters),
        constraints: jsonText(row.constraints),
        variants: jsonText(row.variants),
        sort_order: toNumber(row.sort_order),
        disabled: toBoolean(row.disabled) ? 1 : 0,
        segments: segmentIdList(row.segment_ids),
      });
      const ids = storedIds.get(key);
      if (ids) ids.push(row.id);
      else storedIds.set(key, [row.id]);
    }
    // The indexes of the rows to insert. Into an environment without strategies (the first
    // import), no key is worked out at all.
    const added: number[] = [];
    for (let index = 0; index < rows.length; index++) {
      const ids = storedIds.size === 0 ? undefined : storedIds.get(importStrategyKey(rows[index]));
      if (!ids?.length || !ids.pop()) added.push(index);
    }
    const stale = [...storedIds.values()].flat();
    if (stale.length > 0) {
      const ids = JSON.stringify(stale.map((id) => ({ id })));
      const byId = `(${jsonRecords(dialect, { id: 'name' })}) j`;
      if (dialect !== 'sqlite') {
        // A join, not IN (sub-select): MariaDB 10.11 runs a DELETE's IN (...) per row, parsing
        // the JSON again each time (minutes for 10,000 features); the join reads it once.
        await tx.query(
          `DELETE fss FROM ${byId} JOIN feature_strategy_segments fss ON fss.strategy_id = j.id`,
          [ids],
        );
        await tx.query(`DELETE fs FROM ${byId} JOIN feature_strategies fs ON fs.id = j.id`, [ids]);
      } else {
        await tx.query(
          `DELETE FROM feature_strategy_segments WHERE strategy_id IN (SELECT j.id FROM ${byId})`,
          [ids],
        );
        await tx.query(`DELETE FROM feature_strategies WHERE id IN (SELECT j.id FROM ${byId})`, [
          ids,
        ]);
      }
    }
    await this.insertForImport(tx, environment, rows, added, at, prewritten);
  }

  /**
   * MySQL: the text that insertForImport loads when every row is inserted (an environment where
   * the features had no strategies), with the rows' new ids; the import has it written while the
   * server runs its statements before the strategies (ImportService.write), so that the load
   * leaves as soon as the locking read before it has answered. `undefined` on SQLite, whose rows
   * go in as JSON.
   */
  prewriteForImport(
    environment: string,
    rows: ImportStrategyRow[],
    at: string,
  ): PrewrittenStrategies | undefined {
    if (dialectOf(this.dataSource) === 'sqlite') return undefined;
    const prefix = newIdPrefix();
    return {
      prefix,
      data: dataText(
        rows.map((row, index) => importValues(importId(prefix, index), row, environment, at)),
      ),
    };
  }

  /** Inserts `rows[i]` for each i of `indexes`, with new ids (numbered in that order). */
  private async insertForImport(
    tx: EntityManager,
    environment: string,
    all: ImportStrategyRow[],
    indexes: number[],
    at: string,
    prewritten?: PrewrittenStrategies,
  ): Promise<void> {
    const dialect = dialectOf(this.dataSource);
    if (indexes.length === 0) return;
    const rows = indexes.length === all.length ? all : indexes.map((index) => all[index]);
    // What was written ahead holds every row in its order; when the locking read found stored
    // strategies that the file keeps (written since the analysis), the rest is written here.
    const ahead = prewritten && indexes.length === all.length ? prewritten : undefined;
    const prefix = ahead?.prefix ?? newIdPrefix();
    const ids = rows.map((_row, index) => importId(prefix, index));
    if (dialect !== 'sqlite') {
      // Loaded as data (load-data.ts): the strategies' text made now unless written ahead, then
      // their segment links'.
      await loadValues(
        tx,
        'feature_strategies',
        IMPORT_COLUMNS,
        () => rows.map((row, index) => importValues(ids[index], row, environment, at)),
        ahead?.data,
      );
      await loadValues(tx, 'feature_strategy_segments', ['strategy_id', 'segment_id'], () =>
        rows.flatMap((row, index) => row.segments.map((segment) => [ids[index], segment])),
      );
      return;
    }
    const records = jsonRecords(dialect, {
      id: 'name',
      feature: 'name',
      strategy: 'name',
      title: 'text',
      parameters: 'text',
      constraints: 'text',
      variants: 'text',
      sort_order: 'int',
      disabled: 'int',
    });
    // Objects of one literal shape (an undefined title is left out of the JSON, read as NULL).
    const strategies = rows.map((row, index) => ({
      id: ids[index],
      feature: row.feature,
      strategy: row.strategy,
      title: row.title,
      parameters: row.parameters,
      constraints: row.constraints,
      variants: row.variants,
      sort_order: row.sort_order,
      disabled: row.disabled,
    }));
    await tx.query(
      `INSERT INTO feature_strategies (${IMPORT_COLUMNS.join(', ')})
       SELECT j.id, j.feature, ?, j.strategy, j.title, j.parameters, j.constraints,
         j.variants, j.sort_order, j.disabled, ? FROM (${records}) j`,
      [environment, at, JSON.stringify(strategies)],
    );
    const links = rows.flatMap((row, index) =>
      row.segments.map((segment) => ({ strategy_id: ids[index], segment_id: segment })),
    );
    if (links.length === 0) return;
    await tx.query(
      `INSERT INTO feature_strategy_segments (strategy_id, segment_id)
       SELECT j.strategy_id, j.segment_id
         FROM (${jsonRecords(dialect, { strategy_id: 'name', segment_id: 'int' })}) j`,
      [JSON.stringify(links)],
    );
  }
}
