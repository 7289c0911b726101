import { createHash, Hash } from 'node:crypto';
import { compareBytes } from '../common/byte-order';
import type { KeptList, KeptRun } from '../features/export-runs.store';

/**
 * A run ends after a feature whose name's hash has these low bits all set (one in 64 on average),
 * or once it holds MAX_RUN_FEATURES. The boundaries follow the names, not the positions, so a
 * feature added or removed changes its own run, and at most the next, not every run after it.
 */
const RUN_END_MASK = 63;
const MAX_RUN_FEATURES = 256;

/**
 * Past this many runs (about 128,000 features) an export neither reads nor keeps runs: each run is
 * a placeholder in two statements, and SQLite takes 32,766 at most.
 */
export const MAX_RUNS = 2000;

const MiB = 1024 * 1024;

/**
 * How many bytes of each list's items one export gathers to keep at most: what it holds until the
 * keep. The strategies are most of the text (2.8 of the peer data's 4.0 MB), so they bound how
 * much one export keeps; the two small lists get less, so that what they gather past the runs
 * the strategies drop costs little.
 */
export const KEEP_BYTES: Readonly<Record<KeptList, number>> = {
  environments: MiB,
  strategies: 4 * MiB,
  tags: MiB,
};

/** A run of consecutive selected features: its first, and its signature. */
export interface Run {
  first: string;
  /** SHA-256 of the list generation and each feature's name and list stamp, in order. */
  signature: string;
}

/**
 * Splits the selected features, as the features' read hands them over in byte order, into runs,
 * and signs each run with the numbers every change bumps (FeatureListModel.follow): a run's kept
 * text is current exactly when its signature is the one computed now. `runs` is null when there is
 * no generation to sign with (a missing row reads as NULL) or the selection has more than MAX_RUNS.
 */
export class RunSplitter {
  private readonly done: Run[] = [];
  private hash: Hash | null = null;
  private first = '';
  private count = 0;
  private generation: number | null | undefined;
  private tooMany = false;

  add(name: string, stamp: unknown, generation: unknown): void {
    if (this.generation === undefined) {
      this.generation = generation === null || generation === undefined ? null : Number(generation);
    }
    if (this.generation === null || this.tooMany) return;
    if (this.hash === null) {
      this.hash = createHash('sha256').update(`${this.generation}\n`);
      this.first = name;
      this.count = 0;
    }
    // JSON text, so that no name can run into the next one's.
    this.hash.update(`${JSON.stringify(name)},${Number(stamp)}\n`);
    this.count += 1;
    if ((nameHash(name) & RUN_END_MASK) === RUN_END_MASK || this.count === MAX_RUN_FEATURES) {
      this.close();
    }
  }

  get runs(): Run[] | null {
    this.close();
    return this.generation === null || this.tooMany ? null : this.done;
  }

  private close(): void {
    if (this.hash === null) return;
    this.done.push({ first: this.first, signature: this.hash.digest('hex') });
    this.hash = null;
    if (this.done.length > MAX_RUNS) this.tooMany = true;
  }
}

/** FNV-1a over the name's UTF-16 units: cheap, and the same in every process. */
function nameHash(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The context fields, segments and tag types some items name. */
export interface Names {
  contextNames: Set<string>;
  segmentIds: Set<number>;
  tagTypes: Set<string>;
}

/** The names kept with a run, as JSON: `[[context field names], [segment ids], [tag types]]`. */
function namesText(names: Names): string {
  return JSON.stringify([[...names.contextNames], [...names.segmentIds], [...names.tagTypes]]);
}

/** A stale run while the cold export gathers its items. */
interface Gathering {
  run: Run;
  /** Each list's items, joined once the rows have passed the run. */
  lists: Record<KeptList, string>;
  /** The items of the list being read, until then. */
  items: string[];
  names: Names;
  /** The bytes of its items in the list being read. */
  bytes: number;
}

/**
 * Gathers the checked items of the stale runs as the cold export writes them, list by list (each
 * list's rows come by feature, in byte order), for ExportRunsStore.keep. `next` says which run a
 * row's feature belongs to and hands back where that run records what the item names; `add` takes
 * the item's text. Each run's items are joined as soon as the rows have passed it, so that the
 * items themselves, written into the document already, can be collected young. A run is kept
 * whole or not at all: once the items gathered in one list pass that list's KEEP_BYTES, the run
 * being gathered and every run after it are dropped (their items let go), so that the keeper
 * holds about 6 MiB at most; the first stale run is kept whatever its size. The runs dropped
 * stay stale, for a later export to keep. The bound is per list so that each export keeps a
 * list's worth at least: with one bound for the three, the runs that filled it with their
 * strategies were dropped again by their tags, and a large selection took many exports to keep.
 */
export class RunKeeper {
  private readonly runs: Array<Gathering | null>;
  private list: KeptList = 'environments';
  private cursor = 0;
  private current: Gathering | null = null;
  /** The bytes gathered in the list being read. */
  private bytes = 0;
  /** The index of the first run dropped for want of room. */
  private stoppedAt: number;

  constructor(
    private readonly all: ReadonlyArray<Run>,
    stale: ReadonlySet<string>,
    private readonly maxBytes: Readonly<Record<KeptList, number>> = KEEP_BYTES,
  ) {
    this.runs = all.map((run) =>
      stale.has(run.first)
        ? {
            run,
            lists: { environments: '', strategies: '', tags: '' },
            items: [],
            names: { contextNames: new Set(), segmentIds: new Set(), tagTypes: new Set() },
            bytes: 0,
          }
        : null,
    );
    this.stoppedAt = all.length;
  }

  /** The next list's rows are coming. */
  start(list: KeptList): void {
    this.join();
    this.list = list;
    this.cursor = 0;
    this.current = null;
    this.bytes = 0;
    for (const gathering of this.runs) if (gathering) gathering.bytes = 0;
  }

  /** Where the names of `feature`'s next item go: its run's record, or nowhere. */
  next(feature: string): Names | null {
    const all = this.all;
    const cursor = this.cursor;
    while (this.cursor + 1 < all.length && compareBytes(feature, all[this.cursor + 1].first) >= 0) {
      this.cursor += 1;
    }
    if (this.cursor !== cursor) this.join();
    this.current = this.cursor < this.stoppedAt ? this.runs[this.cursor] : null;
    return this.current?.names ?? null;
  }

  /** The checked text of the item last announced by `next`. */
  add(item: string): void {
    const current = this.current;
    if (!current) return;
    current.items.push(item);
    current.bytes += item.length + 1;
    this.bytes += item.length + 1;
    if (this.bytes > this.maxBytes[this.list]) {
      const earlier = this.runs.slice(0, this.cursor).some((run) => run !== null);
      this.stopAt(earlier ? this.cursor : this.cursor + 1);
    }
  }

  /** The stale runs gathered whole, to keep. */
  done(): KeptRun[] {
    this.join();
    const kept: KeptRun[] = [];
    for (const gathering of this.runs.slice(0, this.stoppedAt)) {
      if (!gathering) continue;
      const { run, lists, names } = gathering;
      kept.push({
        first: run.first,
        signature: run.signature,
        environments: lists.environments,
        strategies: lists.strategies,
        tags: lists.tags,
        names: namesText(names),
      });
    }
    return kept;
  }

  /** Joins the items of the run last gathered, in the list being read. */
  private join(): void {
    const current = this.current;
    if (!current || current.items.length === 0) return;
    current.lists[this.list] = current.items.join(',');
    current.items = [];
  }

  /** Drops the runs from `index` on, and lets their items go. */
  private stopAt(index: number): void {
    for (let i = index; i < this.stoppedAt; i++) {
      this.bytes -= this.runs[i]?.bytes ?? 0;
      this.runs[i] = null;
    }
    this.stoppedAt = Math.min(this.stoppedAt, index);
    if (this.cursor >= this.stoppedAt) this.current = null;
  }
}
