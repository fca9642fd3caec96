import type { ZoneData } from './zone-data.ts';
import type { ZoneSnapshot } from './zone-snapshot.ts';
import { buildZoneSnapshot } from './zone-snapshot.ts';

interface StoreState {
  readonly byId: ReadonlyMap<number, ZoneSnapshot>;
  /** Served zones by canonical apex key (see WireName). */
  readonly byApex: ReadonlyMap<string, ZoneSnapshot>;
}

function indexState(byId: Map<number, ZoneSnapshot>): StoreState {
  const byApex = new Map<string, ZoneSnapshot>();
  for (const z of byId.values()) byApex.set(z.apexKey, z);
  return { byId, byApex };
}

/**
 * The set of served zones. Every change builds new snapshots first, then swaps one immutable state
 * object in a single assignment: a reader holding `current()` never sees half a change.
 */
export class ZoneStore {
  private state: StoreState = indexState(new Map());

  /** Replaces every served zone. */
  replaceAll(zones: readonly ZoneData[]): void {
    const byId = new Map<number, ZoneSnapshot>();
    for (const z of zones) byId.set(z.id, buildZoneSnapshot(z));
    this.state = indexState(byId);
  }

  /** Adds or replaces one zone (by id; a changed domain moves it). */
  upsert(zone: ZoneData): void {
    const snap = buildZoneSnapshot(zone);
    const byId = new Map(this.state.byId);
    byId.set(zone.id, snap);
    this.state = indexState(byId);
  }

  /** Stops serving a zone; unknown ids are ignored. */
  remove(zoneId: number): void {
    if (!this.state.byId.has(zoneId)) return;
    const byId = new Map(this.state.byId);
    byId.delete(zoneId);
    this.state = indexState(byId);
  }

  get(zoneId: number): ZoneSnapshot | undefined {
    return this.state.byId.get(zoneId);
  }

  get size(): number {
    return this.state.byId.size;
  }

  /**
   * Closest enclosing served zone of a name given by its suffix keys (keys[i] = key of the name
   * starting at label i; see WireName), starting the search at label `from`. Root zone key is ''.
   */
  findZone(keys: readonly string[], from = 0): ZoneSnapshot | null {
    const byApex = this.state.byApex;
    for (let i = from; i < keys.length; i++) {
      const z = byApex.get(keys[i]!);
      if (z) return z;
    }
    return byApex.get('') ?? null;
  }
}
