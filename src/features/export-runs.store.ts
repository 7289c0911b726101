import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { READER_CACHE_SIZE, type ReadSnapshot } from '../database/read-snapshot';
import { dialectOf, insertValues, upsertTail } from '../database/sql-dialect';
import { placeholders } from '../database/sql-values';

/** A run's kept lists: the export's items of its features, each list's joined by commas. */
export type KeptList = 'environments' | 'strategies' | 'tags';

/** A run as the export keeps it once its snapshot has ended. */
export interface KeptRun {
  first: string;
  signature: string;
  environments: string;
  strategies: string;
  tags: string;
  /** What the items name: `[[context field names], [segment ids], [tag types]]` as JSON. */
  names: string;
}

/** A kept run's key, signature and names, as the export checks them. */
export interface KeptRunHead {
  first: string;
  signature: string;
  names: string;
}

/**
 * The most a statement of `keep` sends: kept runs are a cache written after the export's answer,
 * so a few more statements cost less than holding one statement of the whole text.
 */
const KEEP_STATEMENT_BYTES = 1024 * 1024;

/**
 * The export's kept runs (export_kept_runs; docs/decisions-export.md, "Kept runs"). The export
 * names the runs it selects by their first feature and computes each one's signature from the
 * features' read; these statements only find, read and write rows by that key.
 */
@Injectable()
export class ExportRunsStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The kept runs among `firsts` in `environment`: key lookups, no text. */
  async heads(reader: ReadSnapshot, environment: string, firsts: string[]): Promise<KeptRunHead[]> {
    if (firsts.length === 0) return [];
    const rows: Array<{ first_feature: string; signature: string; names: string }> =
      await reader.query(
        `SELECT k.first_feature, k.signature, k.names FROM export_kept_runs k
          WHERE k.environment_name = ? AND k.first_feature IN (${placeholders(firsts)})`,
        [environment, ...firsts],
      );
    return rows.map((row) => ({
      first: row.first_feature,
      signature: row.signature,
      names: row.names,
    }));
  }

  /**
   * One list's kept text of these runs in `environment`, in the runs' order (byte order of their
   * first feature, which is the document's), leaving out runs with nothing in that list. Only for
   * runs `heads` found current in the same snapshot.
   */
  read(
    reader: ReadSnapshot,
    environment: string,
    firsts: string[],
    list: KeptList,
  ): AsyncIterable<string[]> {
    return reader.texts(
      `SELECT k.${list} FROM export_kept_runs k
        WHERE k.environment_name = ? AND k.first_feature IN (${placeholders(firsts)})
          AND k.${list} <> '' ORDER BY k.first_feature`,
      [environment, ...firsts],
    );
  }

  /**
   * Keeps these runs in `environment`, in one transaction. A run kept from stamps that have moved
   * on since is never used (its signature is no longer the one computed), so an export that raced
   * a change keeps nothing wrong.
   */
  async keep(environment: string, runs: ReadonlyArray<KeptRun>): Promise<void> {
    if (runs.length === 0) return;
    const dialect = dialectOf(this.dataSource);
    const columns = ['environment_name', 'first_feature', 'signature', ...KEPT_COLUMNS];
    const head = `INSERT INTO export_kept_runs (${columns.join(', ')})`;
    // A VALUES list needs no WHERE before SQLite's ON CONFLICT (only a SELECT does).
    const tail = upsertTail(dialect, columns.slice(0, 2), columns.slice(2), {
      selectHasWhere: true,
    });
    const values = (r: KeptRun) => [
      environment,
      r.first,
      r.signature,
      r.environments,
      r.strategies,
      r.tags,
      r.names,
    ];
    await this.dataSource.transaction(async (tx) => {
      if (dialect !== 'sqlite') {
        await insertValues(tx, head, runs.map(values), tail, KEEP_STATEMENT_BYTES);
        return;
      }
      // The keep writes megabytes that this connection never reads back (warm exports read them
      // on the read connections), so it writes them through a page cache as small as theirs:
      // otherwise they fill the app's 16 MB cache, which a server that has not filled it yet
      // pays for in memory (docs/decisions-export.md, "Warm exports' memory").
      const [{ cache_size: appCache }] = await tx.query('PRAGMA cache_size');
      await tx.query(`PRAGMA cache_size = ${READER_CACHE_SIZE}`);
      try {
        // Bound values rather than one JSON parameter: the text is neither escaped into a JSON
        // string nor parsed out of it again (a cold export of 100,000 features peaked about
        // 20 MiB lower). An export keeps at most MAX_RUNS (2,000) runs: 14,000 placeholders at
        // most, below SQLite's 32,766.
        for (const part of partsOf(runs, KEEP_STATEMENT_BYTES)) {
          await tx.query(
            `${head} VALUES ${part.map(() => `(${placeholders(columns)})`).join(', ')} ${tail}`,
            part.flatMap(values),
          );
        }
      } finally {
        await tx.query(`PRAGMA cache_size = ${Number(appCache)}`);
      }
    });
  }
}

const KEPT_COLUMNS = ['environments', 'strategies', 'tags', 'names'];

/** The runs in parts of about `maxBytes` of text each (a larger run is a part alone). */
function partsOf(runs: ReadonlyArray<KeptRun>, maxBytes: number): KeptRun[][] {
  const parts: KeptRun[][] = [];
  let part: KeptRun[] = [];
  let bytes = 0;
  for (const run of runs) {
    const size = run.environments.length + run.strategies.length + run.tags.length;
    if (part.length > 0 && bytes + size > maxBytes) {
      parts.push(part);
      part = [];
      bytes = 0;
    }
    part.push(run);
    bytes += size;
  }
  if (part.length > 0) parts.push(part);
  return parts;
}
