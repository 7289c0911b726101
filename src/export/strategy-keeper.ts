import { compareBytes } from '../common/byte-order';
import type { KeptStrategyItems } from '../features/strategies.store';

/** How many bytes of strategy items one export gathers to keep at most. */
export const KEEP_BYTES = 8 * 1024 * 1024;

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
 * Gathers the checked strategy items of the stale features (staleKeptForExport) as the cold
 * export writes them, feature by feature (the rows come by feature), for keepForExport. A stale
 * feature the rows never name has no strategies in the environment: it is kept with none, so that
 * the next export finds it current. Past KEEP_BYTES it stops at a feature's start; the features
 * from there on stay stale for a later export.
 */
export class StrategyKeeper {
  private readonly stamps: Map<string, number>;
  private readonly recorded = new Map<string, { items: string[]; names: Names }>();
  private current: { items: string[]; names: Names } | null = null;
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
    const open = this.recorded.get(feature);
    if (open) {
      this.current = open;
      return open.names;
    }
    this.current = null;
    if (!this.stamps.has(feature) || this.stoppedAt !== null) return null;
    if (this.bytes > this.maxBytes) {
      this.stoppedAt = feature;
      return null;
    }
    this.current = { items: [], names: { contextNames: new Set(), segmentIds: new Set() } };
    this.recorded.set(feature, this.current);
    return this.current.names;
  }

  /** The checked text of the item last announced by `next`. */
  add(item: string): void {
    if (!this.current) return;
    this.current.items.push(item);
    this.bytes += item.length + 1;
  }

  done(): KeptStrategyItems[] {
    const kept: KeptStrategyItems[] = [];
    const stoppedAt = this.stoppedAt;
    for (const [name, stamp] of this.stamps) {
      const record = this.recorded.get(name);
      // Unseen before the stop: no strategies (the rows come in the same byte order).
      if (!record && stoppedAt !== null && compareBytes(name, stoppedAt) >= 0) continue;
      kept.push({
        name,
        stamp,
        items: record ? record.items.join(',') : '',
        names: record ? namesText(record.names) : '[[],[]]',
      });
    }
    return kept;
  }
}
