import { ValidationError } from '../common/errors';
import { Dialect, textCharset } from '../database/sql-dialect';
import type { ExportSelection } from '../features/features.store';
import type { ExportQueryDto } from './dto/export-query.dto';

export type { ExportSelection } from '../features/features.store';

/**
 * tag → non-empty features → project → `features: []` alone. A selector below the rule that
 * applies is ignored (so an unknown project next to a tag is no error).
 */
export function selectionOf(query: ExportQueryDto): ExportSelection {
  if (query.tag !== undefined) return { rule: 'tag', tag: query.tag };
  if (query.features !== undefined && query.features.length > 0) {
    return { rule: 'names', names: [...new Set(query.features)] };
  }
  if (query.project !== undefined) return { rule: 'project', projectId: query.project };
  if (query.features !== undefined) return { rule: 'all' };
  throw ValidationError.of(
    '/body',
    'One of features, tag or project is required to select the features to export',
  );
}

/** The temporary table that holds the names of the selected features during one export. */
export const SELECTION_TABLE = 'export_selection';

/**
 * DDL of the selection table: the names of the selected features, with a primary key, so that
 * every read joins it by equality and each plan is an index lookup per row, whatever the
 * optimizer guesses. (MariaDB estimates a JSON_TABLE at 40 rows and, given a small table such as
 * segments to start from, nested it as the inner side of a block-nested-loop join: 21 s for
 * 2,000 strategies and a list of 66,000 names; it also parsed the JSON again in each statement.)
 * A temporary table belongs to its connection (MySQL) or to the connection's temp schema
 * (SQLite, whose transactions are serialised), so concurrent exports never share one. The name
 * is fixed so that the statements stay the same and TypeORM's statement cache (SQLite) is not
 * flooded with one-off texts.
 */
export function selectionTableDdl(dialect: Dialect): { create: string; drop: string } {
  return dialect !== 'sqlite'
    ? {
        // The name columns' collation, so that joins with them compare alike (sql-dialect.ts).
        create: `CREATE TEMPORARY TABLE ${SELECTION_TABLE} (name VARCHAR(100) ${textCharset(dialect)} NOT NULL PRIMARY KEY)`,
        drop: `DROP TEMPORARY TABLE IF EXISTS ${SELECTION_TABLE}`,
      }
    : {
        create: `CREATE TEMP TABLE ${SELECTION_TABLE} (name TEXT NOT NULL PRIMARY KEY)`,
        drop: `DROP TABLE IF EXISTS temp.${SELECTION_TABLE}`,
      };
}
