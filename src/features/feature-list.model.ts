import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { environmentSortOrderSql } from '../environments/environments.store';
import {
  Dialect,
  dialectOf,
  sqlConcat,
  sqlIsoTimestamp,
  sqlJsonLength,
} from '../database/sql-dialect';
import { featureNamesSql } from './features.store';
import { stageRankSql } from './lifecycle.store';

/** One list item as JSON text without its closing brace, so that people can still be appended. */
export interface FeatureListItemText {
  name: string;
  open: string;
}

/**
 * The project feature list (`GET /api/admin/projects/:id/features`, issue 15) as JSON text built
 * by the database: one statement, one row per feature holding the item's text. Turning ~50,000
 * rows of six tables into JS objects, then the objects into text, was most of the list's time;
 * the database writes the same text in a fraction of it (docs/decisions-features.md).
 *
 * What an item carries is decided in docs/decisions-features.md; a field whose value is null or an
 * empty list is left out. The items equal the feature records on those fields (a test compares
 * them), so the SQL below mirrors feature-mappers.ts.
 */
@Injectable()
export class FeatureListModel {
  private readonly sql: string;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sql = listSql(dialectOf(dataSource));
  }

  /** The project's active features by name. */
  async ofProject(projectId: string): Promise<FeatureListItemText[]> {
    const rows: Array<{ name: string; open: unknown }> = await this.dataSource.query(this.sql, [
      projectId,
    ]);
    // mysql2 hands text built from binary-collated parts over as bytes.
    return rows.map((row) => ({ name: row.name, open: String(row.open) }));
  }

  /** The names of the list, for other stores' `IN (...)` (one parameter). */
  namesOfProject(projectId: string): { list: string; params: unknown[] } {
    return featureNamesSql({ projectId });
  }
}

function listSql(dialect: Dialect): string {
  const cat = (...parts: string[]) => sqlConcat(dialect, parts);
  const iso = (column: string) => sqlIsoTimestamp(dialect, column);
  const bool = (condition: string) => `CASE WHEN ${condition} THEN 'true' ELSE 'false' END`;
  /** `,"key":<value>` when the value is not NULL, else nothing. */
  const optional = (value: string) => `COALESCE(${value}, '')`;
  // Both strategy flags from one probe: 2 when an enabled strategy exists, 1 when only disabled
  // ones do, NULL when there are none.
  const strategies = `CASE (SELECT MAX(CASE WHEN fs.disabled = 0 THEN 2 ELSE 1 END)
      FROM feature_strategies fs
     WHERE fs.feature_name = fe.feature_name AND fs.environment_name = fe.environment_name)
    WHEN 2 THEN 'true,"hasEnabledStrategies":true'
    WHEN 1 THEN 'true,"hasEnabledStrategies":false'
    ELSE 'false,"hasEnabledStrategies":false' END`;

  const environment = cat(
    `'{"name":'`,
    'JSON_QUOTE(fe.environment_name)',
    `',"enabled":'`,
    bool('fe.enabled = 1'),
    `',"variantCount":'`,
    `CAST(COALESCE(${sqlJsonLength(dialect, 'fe.variants')}, 0) AS CHAR)`,
    `',"hasStrategies":'`,
    strategies,
    optional(cat(`',"lastSeenAt":"'`, iso('fe.last_seen_at'), `'"'`)),
    `'}'`,
  );
  const environments = `(SELECT GROUP_CONCAT(${environment}
      ORDER BY ${environmentSortOrderSql('fe.environment_name')}, fe.environment_name)
      FROM feature_environments fe WHERE fe.feature_name = f.name)`;
  const tag = cat(
    `'{"type":'`,
    'JSON_QUOTE(ft.tag_type)',
    `',"value":'`,
    'JSON_QUOTE(ft.tag_value)',
    `'}'`,
  );
  const tags = `(SELECT GROUP_CONCAT(${tag} ORDER BY ft.tag_type, ft.tag_value)
      FROM feature_tags ft WHERE ft.feature_name = f.name)`;
  const dependency = cat(
    `'{"feature":'`,
    'JSON_QUOTE(d.parent)',
    `',"enabled":'`,
    bool('d.enabled = 1'),
    `',"variants":'`,
    // Stored as JSON text (an array of variant names), spliced as it is.
    `COALESCE(d.variants, '[]')`,
    `'}'`,
  );
  const dependencies = `(SELECT GROUP_CONCAT(${dependency} ORDER BY d.parent)
      FROM feature_dependencies d WHERE d.child = f.name)`;
  const children = `(SELECT GROUP_CONCAT(JSON_QUOTE(d.child) ORDER BY d.child)
      FROM feature_dependencies d WHERE d.parent = f.name)`;
  const lifecycle = `(SELECT ${cat(
    `'{"stage":'`,
    'JSON_QUOTE(fl.stage)',
    `',"enteredStageAt":"'`,
    iso('fl.entered_stage_at'),
    `'"}'`,
  )}
    FROM feature_lifecycles fl WHERE fl.feature_name = f.name ORDER BY ${stageRankSql('fl.stage')} DESC LIMIT 1)`;

  const item = cat(
    `'{"name":'`,
    'JSON_QUOTE(f.name)',
    `',"type":'`,
    'JSON_QUOTE(f.type)',
    // SQLite's JSON_QUOTE(NULL) is the text null, so the NULL test comes first.
    `CASE WHEN f.description IS NULL THEN '' ELSE ${cat(`',"description":'`, 'JSON_QUOTE(f.description)')} END`,
    `',"project":'`,
    'JSON_QUOTE(f.project_id)',
    `',"enabled":'`,
    bool(
      'EXISTS (SELECT 1 FROM feature_environments fe WHERE fe.feature_name = f.name AND fe.enabled = 1)',
    ),
    `',"stale":'`,
    bool('f.stale = 1'),
    `',"impressionData":'`,
    bool('f.impression_data = 1'),
    `',"createdAt":"'`,
    iso('f.created_at'),
    `'","environments":['`,
    optional(environments),
    `']'`,
    optional(cat(`',"tags":['`, tags, `']'`)),
    optional(cat(`',"dependencies":['`, dependencies, `']'`)),
    optional(cat(`',"children":['`, children, `']'`)),
    optional(cat(`',"lifecycle":'`, lifecycle)),
  );
  // MySQL cuts GROUP_CONCAT at 1,024 bytes by default (MariaDB at 1 MiB); the hint lifts it for
  // this statement only.
  const hint = dialect === 'mysql8' ? '/*+ SET_VAR(group_concat_max_len = 67108864) */ ' : '';
  return `SELECT ${hint}f.name, ${item} AS open
    FROM features f WHERE f.project_id = ? AND f.archived_at IS NULL ORDER BY f.name`;
}
