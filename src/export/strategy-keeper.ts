import { compareBytes } from '../common/byte-order';
import type { KeptStrategyItems } from '../features/strategies.store';

/** How many bytes of strategy items one export gathers to keep at most. */
export const KEEP_BYTES = 4 * 1024 * 1024;

/** The context fields and segments some items name. */
export interface Names {
  contextNames: Set<string>;
  segmentIds: Set<number>;
}

/** The names kept with a feature's items, as JSON: `[[context field names], [segment ids]]`. */
function namesText(names: Names): string {
  return JSON.stringify([[...names.contextNames], [...names.segmentIds]]);
}

/**
 * Gathers the checked strategy items of the stale features (those FeaturesStore.readForExport
 * finds) as the cold export writes them, feature by feature (the rows come by feature), for
 * keepForExport. A stale feature the rows never name has no strategies in the environment: it is
 * kept with none, so that the next export finds it current. Past KEEP_BYTES it stops at a
 * feature's start; the features from there on stay stale for a later export.
 */
export class StrategyKeeper {
  private readonly stamps: Map<string, number>;
  /** The features recorded whole: their items joined, and what they name. */
  private readonly recorded = new Map<string, { items: string; names: string }>();
  /** The feature whose items are coming, while it is recorded. */
  private current: { name: string; items: string[]; names: Names } | null = null;
  private bytes = 0;
  /** The first stale feature not recorded for want of room, if any. */
  private stoppedAt: string | null = null;

  constructor(
    stale: ReadonlyArray<{ name: string; stamp: number }>,
    private readonly maxBytes = KEEP_BYTES,
  ) {
    this.stamps = new Map(stale.map((feature) => [feature.name, feature.stamp]));
  }

  /** Where the names of `feature`'s next item go: its record, or nowhere if it is not kept. */
  next(feature: string): Names | null {
    if (this.current?.name === feature) return this.current.names;
    this.finish();
    if (!this.stamps.has(feature) || this.stoppedAt !== null) return null;
    if (this.bytes > this.maxBytes) {
      this.stoppedAt = feature;
      return null;
    }
    const names = { contextNames: new Set<string>(), segmentIds: new Set<number>() };
    this.current = { name: feature, items: [], names };
    return names;
  }

  /** The checked text of the item last announced by `next`. */
  add(item: string): void {
    if (!this.current) return;
    this.current.items.push(item);
    this.bytes += item.length + 1;
  }

  done(): KeptStrategyItems[] {
    this.finish();
    const kept: KeptStrategyItems[] = [];
    const stoppedAt = this.stoppedAt;
    for (const [name, stamp] of this.stamps) {
      const record = this.recorded.get(name);
      // Unseen before the stop: no strategies (the rows come in the same byte order).
      if (!record && stoppedAt !== null && compareBytes(name, stoppedAt) >= 0) continue;
      kept.push({ name, stamp, ...(record ?? { items: '', names: '[[],[]]' }) });
    }
    return kept;
  }

  /**
   * Joins the feature's items once they have all come, so that the items themselves, written into
   * the document already, can be collected.
   */
  private finish(): void {
    if (!this.current) return;
    const { name, items, names } = this.current;
    this.recorded.set(name, { items: items.join(','), names: namesText(names) });
    this.current = null;
  }
}
