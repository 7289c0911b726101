import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { environmentOrderJoin } from '../environments/environments.store';
import {
  Dialect,
  dialectOf,
  sqlConcat,
  sqlIsoTimestamp,
  sqlJsonBoolean,
  sqlJsonLength,
  upsertTail,
} from '../database/sql-dialect';
import { placeholders, toNumber } from '../database/sql-values';
import { EventChange, EventsService } from '../events/events.service';
import { featureNamesSql, LIST_GENERATION_SQL } from './features.store';
import { stageRankSql } from './lifecycle.store';

/** One list item as JSON bytes without its closing brace, so that people can still be appended. */
export interface FeatureListItemBytes {
  name: string;
  open: Buffer;
}

/**
 * The project feature list (`GET /api/admin/projects/:id/features`, issue 15) as JSON bytes built
 * by the database, in one statement: one row per feature, in name order, holding the item's text
 * without its closing brace, for the service to append the people and gather into the response's
 * pieces. Turning ~50,000 rows of six tables into JS objects, then the objects into text, was most
 * of the list's time; the database writes the same text in a fraction of it
 * (docs/decisions-features.md).
 *
 * **Kept items.** The item text is also kept (`feature_list_items`) with the feature's list stamp
 * and the list generation it was written from. A change to what an item shows bumps the stamp of
 * its feature (or, reaching many items, the generation) in the change's own transaction: every
 * change records its event, and `follow` runs there. A list uses a kept text only while both
 * still match, reading text and numbers in one statement, and writes the others from scratch;
 * when it had to, it keeps their new text for the next list. So a kept text is never older than
 * what it shows, on one server or on a Galera cluster, whatever runs at the same time.
 *
 * The export signs its kept runs with the same two numbers (decisions-export.md, "Kept runs"), so
 * what bumps them here also retires those.
 *
 * What an item carries is decided in docs/decisions-features.md; a field whose value is null or an
 * empty list is left out. The items equal the feature records on those fields (a test compares
 * them), so the SQL below mirrors feature-mappers.ts.
 */
@Injectable()
export class FeatureListModel {
  private readonly logger = new Logger(FeatureListModel.name);
  private readonly dialect: Dialect;
  private readonly rowsSql: string;
  private readonly keepSql: string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    events: EventsService,
  ) {
    this.dialect = dialectOf(dataSource);
    this.rowsSql = rowsSql(this.dialect);
    this.keepSql = keepSql(this.dialect);
    events.follow((tx, changes) => this.follow(tx, changes));
  }

  /** The project's active features by name, one row of item bytes each. */
  async ofProject(projectId: string): Promise<FeatureListItemBytes[]> {
    const rows: Array<{ name: string; open: unknown; missing: unknown }> =
      await this.dataSource.query(this.rowsSql, [projectId]);
    if (rows.some((row) => toNumber(row.missing) > 0)) await this.keep(projectId);
    return rows.map((row) => ({ name: row.name, open: asBytes(row.open) }));
  }

  /** The names of the list, for other stores' `IN (...)` (one parameter). */
  namesOfProject(projectId: string): { list: string; params: unknown[] } {
    return featureNamesSql({ projectId });
  }

  /** Bumps what the changes of one write reach, in its transaction (see the class comment). */
  async follow(tx: EntityManager, changes: readonly EventChange[]): Promise<void> {
    const reach = listItemsReached(changes);
    if (reach.all || reach.features.length > MAX_STAMPED) {
      await tx.query(`UPDATE feature_list_generation SET generation = generation + 1 WHERE id = 1`);
    } else if (reach.features.length > 0) {
      // A list of placeholders, which MariaDB reads as key lookups whatever the table's size (a
      // plain join on a JSON_TABLE walked a small features table, locking every row, and
      // concurrent creates deadlocked: see sqlClaimNames).
      await tx.query(
        `UPDATE features SET list_stamp = list_stamp + 1
          WHERE name IN (${placeholders(reach.features)})`,
        reach.features,
      );
    }
  }

  /**
   * Keeps the current text of the project's items that have none, after a list wrote them. The
   * list has its answer already, so a failure here (a conflict retried to the end) costs only
   * the next list's time: it is logged, not thrown.
   */
  private async keep(projectId: string): Promise<void> {
    try {
      await this.dataSource.query(this.keepSql, [projectId]);
    } catch (error) {
      this.logger.warn(
        `Could not keep the list items of project ${projectId}: ${(error as Error).message}`,
      );
    }
  }
}

/** Past this many features, one write bumps the generation instead of each stamp. */
const MAX_STAMPED = 500;

/**
 * Changes that never alter what a list item shows, nor the lists the export keeps signed with
 * the same numbers (kept runs, ExportService): those carry segment ids, context field names and
 * tag type names, never what a segment, context field or tag type holds.
 */
const OUTSIDE_ITEMS = new Set([
  'api-token-created',
  'api-token-deleted',
  'context-field-created',
  'context-field-deleted',
  'context-field-updated',
  'feature-favorited',
  'feature-unfavorited',
  'features-exported',
  'project-created',
  'project-updated',
  'role-created',
  'role-deleted',
  'role-updated',
  'segment-created',
  'segment-deleted',
  'segment-updated',
  'strategy-created',
  'strategy-deleted',
  'strategy-updated',
  'tag-created',
  'tag-type-created',
  'user-created',
  'user-deleted',
  'user-logged-in',
  'user-password-changed',
  'user-updated',
]);

/** Changes of one feature that alter other features' items too, which their events do not name. */
const REACHING_OTHERS = new Set(['feature-deleted', 'feature-dependencies-removed']);

/** A dependency's other end: its parent's item lists the child among its children. */
const DEPENDENCY_CHANGES = new Set(['feature-dependency-added', 'feature-dependency-removed']);

/**
 * Which kept items the changes of one write reach: the features they name (and, for a dependency,
 * its parent), or all of them for a change that names no feature, one that reaches features it
 * does not name, and any change this code does not know (the safe side).
 */
export function listItemsReached(changes: readonly EventChange[]): {
  all: boolean;
  features: string[];
} {
  const features = new Set<string>();
  for (const change of changes) {
    if (OUTSIDE_ITEMS.has(change.type)) continue;
    if (!change.featureName || REACHING_OTHERS.has(change.type)) {
      return { all: true, features: [] };
    }
    features.add(change.featureName);
    if (DEPENDENCY_CHANGES.has(change.type)) {
      const parent = ((change.data ?? change.preData) as { feature?: unknown } | undefined)
        ?.feature;
      if (typeof parent !== 'string') return { all: true, features: [] };
      features.add(parent);
    }
  }
  return { all: false, features: [...features].sort() };
}

/** An item's bytes as the driver handed them over: a Buffer for the BLOB or BINARY cast. */
function asBytes(value: unknown): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(String(value), 'utf8');
}

/** The item text as bytes: SQLite's CAST hands the text's UTF-8 over as is, MySQL's as binary. */
function bytes(dialect: Dialect, text: string): string {
  return `CAST(${text} AS ${dialect === 'sqlite' ? 'BLOB' : 'BINARY'})`;
}

/**
 * The project's active features, each with its kept item (`li`) when that was written from the
 * feature's current stamp and the current generation, else with none.
 */
const FROM_PROJECT = `FROM features f LEFT JOIN feature_list_items li
    ON li.feature_name = f.name AND li.stamp = f.list_stamp AND li.generation = ${LIST_GENERATION_SQL}
  WHERE f.project_id = ? AND f.archived_at IS NULL`;

/** 1 for a listed feature with no current kept text, else 0. */
const IS_MISSING = `CASE WHEN li.feature_name IS NULL THEN 1 ELSE 0 END`;

/** The item's kept text, or the text written now when none is kept. */
function keptOrNewItem(dialect: Dialect): string {
  return `CASE WHEN li.feature_name IS NULL THEN ${itemSql(dialect)} ELSE li.item END`;
}

/**
 * MySQL cuts GROUP_CONCAT at 1,024 bytes by default (MariaDB at 1 MiB); this hint lifts it for one
 * statement, written right after the statement's first word (MySQL reads it nowhere else).
 */
function groupConcatHint(dialect: Dialect): string {
  return dialect === 'mysql8' ? '/*+ SET_VAR(group_concat_max_len = 67108864) */ ' : '';
}

/**
 * One row per listed feature, by name. The index features(project_id, archived_at, name) gives
 * that order, so neither database sorts the items (migration 1764800000000).
 */
function rowsSql(dialect: Dialect): string {
  return `SELECT ${groupConcatHint(dialect)}f.name, ${bytes(dialect, keptOrNewItem(dialect))} AS open,
      ${IS_MISSING} AS missing
    ${FROM_PROJECT} ORDER BY f.name`;
}

/**
 * How many items one keep writes at most. A statement is cut at QUERY_TIMEOUT_MS (3.5 s) on MySQL,
 * and MariaDB kept about 40 items a millisecond on the peer data: a project of 100,000 features
 * kept in one statement could be cut every time, and then cost every list a failed keep. In parts
 * it is kept over a few lists, each of which writes the rest from the tables as before.
 */
export const KEEP_AT_MOST = 10_000;

/**
 * Writes the text of the project's items that have no current one (up to KEEP_AT_MOST of them),
 * with the stamp and generation it was written from. On MySQL the INSERT … SELECT reads with
 * shared locks in REPEATABLE READ, so its rows are the latest committed ones and stay so until it
 * ends; on SQLite the statement is one snapshot. Either way the numbers it stores are those of
 * the rows it wrote from.
 */
function keepSql(dialect: Dialect): string {
  return `INSERT ${groupConcatHint(dialect)}INTO feature_list_items (feature_name, stamp, generation, item)
    SELECT f.name, f.list_stamp, ${LIST_GENERATION_SQL}, ${itemSql(dialect)}
    ${FROM_PROJECT} AND li.feature_name IS NULL ORDER BY f.name LIMIT ${KEEP_AT_MOST}
    ${upsertTail(dialect, ['feature_name'], ['stamp', 'generation', 'item'], { selectHasWhere: true })}`;
}

/** One item's JSON text without its closing brace, for the feature `f`. */
function itemSql(dialect: Dialect): string {
  const cat = (...parts: string[]) => sqlConcat(dialect, parts);
  const iso = (column: string) => sqlIsoTimestamp(dialect, column);
  /** `,"key":<value>` when the value is not NULL, else nothing. */
  const optional = (value: string) => `COALESCE(${value}, '')`;
  // Names (features, projects, environments, tag types) follow the name rule of rules.md §2,
  // letters, digits and `~ _ . -` only, and feature types and lifecycle stages are fixed words:
  // none can hold a character JSON escapes, so they are written between quotes as they are.
  // JSON_QUOTE stays for free text (descriptions, tag values). Measured on MariaDB at 5,000
  // flags: a few per cent of the statement's time (docs/benchmarks.md, "Project list").
  // Both strategy flags from one read of the index (feature_name, environment_name, disabled):
  // the least `disabled` is 0 when an enabled strategy exists, 1 when only disabled ones do, NULL
  // when there are none.
  const strategies = `CASE (SELECT MIN(fs.disabled) FROM feature_strategies fs
     WHERE fs.feature_name = fe.feature_name AND fs.environment_name = fe.environment_name)
    WHEN 0 THEN 'true,"hasEnabledStrategies":true'
    WHEN 1 THEN 'true,"hasEnabledStrategies":false'
    ELSE 'false,"hasEnabledStrategies":false' END`;

  const environment = cat(
    `'{"name":"'`,
    'fe.environment_name',
    `'","enabled":'`,
    sqlJsonBoolean('fe.enabled = 1'),
    `',"variantCount":'`,
    `CAST(COALESCE(${sqlJsonLength(dialect, 'fe.variants')}, 0) AS CHAR)`,
    `',"hasStrategies":'`,
    strategies,
    optional(cat(`',"lastSeenAt":"'`, iso('fe.last_seen_at'), `'"'`)),
    `'}'`,
  );
  const order = environmentOrderJoin('e', 'fe.environment_name');
  // One pass over the feature's environments writes everything from `enabled` (enabled in any
  // of them) through `environments`; the feature's own fields in between are constants here.
  const enabledThroughEnvironments = `(SELECT ${cat(
    sqlJsonBoolean('MAX(fe.enabled) = 1'),
    `',"stale":'`,
    sqlJsonBoolean('f.stale = 1'),
    `',"impressionData":'`,
    sqlJsonBoolean('f.impression_data = 1'),
    `',"createdAt":"'`,
    iso('f.created_at'),
    `'","environments":['`,
    optional(`GROUP_CONCAT(${environment} ORDER BY ${order.orderBy}, fe.environment_name)`),
    `']'`,
  )}
      FROM feature_environments fe ${order.join} WHERE fe.feature_name = f.name)`;
  const tag = cat(`'{"type":"'`, 'ft.tag_type', `'","value":'`, 'JSON_QUOTE(ft.tag_value)', `'}'`);
  const tags = `(SELECT GROUP_CONCAT(${tag} ORDER BY ft.tag_type, ft.tag_value)
      FROM feature_tags ft WHERE ft.feature_name = f.name)`;
  const dependency = cat(
    `'{"feature":"'`,
    'd.parent',
    `'","enabled":'`,
    sqlJsonBoolean('d.enabled = 1'),
    `',"variants":'`,
    // Stored as JSON text (an array of variant names), spliced as it is.
    `COALESCE(d.variants, '[]')`,
    `'}'`,
  );
  const dependencies = `(SELECT GROUP_CONCAT(${dependency} ORDER BY d.parent)
      FROM feature_dependencies d WHERE d.child = f.name)`;
  const children = `(SELECT GROUP_CONCAT(${cat(`'"'`, 'd.child', `'"'`)} ORDER BY d.child)
      FROM feature_dependencies d WHERE d.parent = f.name)`;
  // The current stage is the one of highest rank: the rank (one digit) leads the stage's text, so
  // that MAX picks it, and is cut off again.
  const lifecycle = `(SELECT SUBSTR(MAX(${cat(
    `CAST(${stageRankSql('fl.stage')} AS CHAR)`,
    `'{"stage":"'`,
    'fl.stage',
    `'","enteredStageAt":"'`,
    iso('fl.entered_stage_at'),
    `'"}'`,
  )}), 2)
    FROM feature_lifecycles fl WHERE fl.feature_name = f.name)`;

  return cat(
    `'{"name":"'`,
    'f.name',
    `'","type":"'`,
    'f.type',
    // SQLite's JSON_QUOTE(NULL) is the text null, so the NULL test comes first.
    `CASE WHEN f.description IS NULL THEN '"' ELSE ${cat(`'","description":'`, 'JSON_QUOTE(f.description)')} END`,
    `',"project":"'`,
    'f.project_id',
    `'","enabled":'`,
    enabledThroughEnvironments,
    optional(cat(`',"tags":['`, tags, `']'`)),
    optional(cat(`',"dependencies":['`, dependencies, `']'`)),
    optional(cat(`',"children":['`, children, `']'`)),
    optional(cat(`',"lifecycle":'`, lifecycle)),
  );
}
