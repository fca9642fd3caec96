import type { ZoneData } from './zone-data.ts';
import type { ZoneSnapshot } from './zone-snapshot.ts';
import { buildZoneSnapshot } from './zone-snapshot-builder.ts';
import { nameKeyHash } from '../wire/name-key-hash.ts';
import type { QueryName } from '../wire/message/query-name.ts';
import { patchZoneSnapshot, preparePatchingSlice } from './zone-snapshot-patch.ts';

interface StoreState {
  readonly byId: ReadonlyMap<number, ZoneSnapshot>;
  /** Served zones by canonical apex key (see WireName). */
  readonly byApex: ReadonlyMap<string, ZoneSnapshot>;
  /** Most labels of any served apex: longer suffixes of a name are never looked up. */
  readonly apexLabelsMax: number;
  /** Served zones by their apex key's nameKeyHash (kept in Smi range), several on a collision. */
  readonly byApexHash: ReadonlyMap<number, readonly ZoneSnapshot[]>;
}

/** A name-key hash as a Map key that stays a small integer (no heap number per lookup). */
const smiHash = (hash: number): number => hash & 0x3fffffff;

function indexState(byId: Map<number, ZoneSnapshot>): StoreState {
  const byApex = new Map<string, ZoneSnapshot>();
  const byApexHash = new Map<number, ZoneSnapshot[]>();
  let apexLabelsMax = 0;
  for (const z of byId.values()) {
    byApex.set(z.apexKey, z);
    const h = smiHash(nameKeyHash(z.apexKey));
    byApexHash.set(h, [...(byApexHash.get(h) ?? []), z]);
    apexLabelsMax = Math.max(apexLabelsMax, z.apexLabels);
  }
  return { byId, byApex, apexLabelsMax, byApexHash };
}

/**
 * Zones with more names than this get their patch index (zone-snapshot-patch.ts) built right after
 * a full build, off the change path: ~0.5 s at 666,000 names, which the first record change would
 * otherwise wait for.
 */
export const PREPARE_PATCHING_NODES = 50_000;
/**
 * Names indexed per event-loop turn while preparing (~15 ms): the index of a large zone is built
 * beside the answers, not before them.
 */
export const PREPARE_PATCHING_SLICE = 20_000;

/**
 * The set of served zones. Every change builds new snapshots first, then swaps one immutable state
 * object in a single assignment: a reader holding `current()` never sees half a change. A patch
 * takes over the served snapshot's node map (zone-snapshot-patch.ts) and swaps within the same
 * synchronous call, so that holds for it too; a snapshot swapped out by a patch is not to be read.
 */
/**
 * Told of every change, synchronously within the call that swaps it in: `zoneId` changed (its
 * snapshot was replaced), or null when the set of served zones or their apexes changed (a name may
 * now belong to another zone). Answer caches forget on it (server/answer-cache.ts).
 */
export type ZoneChangeListener = (zoneId: number | null) => void;

export class ZoneStore {
  private state: StoreState = indexState(new Map());
  private readonly listeners: ZoneChangeListener[] = [];
  private preparing: Promise<void> = Promise.resolve();

  /** Calls `listener` on every change from now on. */
  onChange(listener: ZoneChangeListener): void {
    this.listeners.push(listener);
  }

  private changed(zoneId: number | null): void {
    for (const l of this.listeners) l(zoneId);
  }

  /** After a zone's snapshot was replaced: a new zone or a moved apex changes the set. */
  private replaced(old: ZoneSnapshot | undefined, snap: ZoneSnapshot): void {
    this.changed(old !== undefined && old.domain === snap.domain ? snap.id : null);
  }

  /** Replaces every served zone. */
  replaceAll(zones: readonly ZoneData[]): void {
    const byId = new Map<number, ZoneSnapshot>();
    for (const z of zones) byId.set(z.id, buildZoneSnapshot(z));
    this.state = indexState(byId);
    this.changed(null);
    this.preparePatching([...byId.values()]);
  }

  /** Adds or replaces one zone (by id; a changed domain moves it). */
  upsert(zone: ZoneData): void {
    const snap = buildZoneSnapshot(zone);
    const old = this.state.byId.get(zone.id);
    const byId = new Map(this.state.byId);
    byId.set(zone.id, snap);
    this.state = indexState(byId);
    this.replaced(old, snap);
    this.preparePatching([snap]);
  }

  /**
   * Large zones: their patch index, from a macrotask later (after the answer that caused the
   * build) in slices of PREPARE_PATCHING_SLICE names; a patch arriving before the end finishes it.
   */
  private preparePatching(snapshots: readonly ZoneSnapshot[]): void {
    const large = snapshots.filter((s) => s.nodes.size > PREPARE_PATCHING_NODES);
    if (large.length === 0) return;
    const run = new Promise<void>((resolve) => {
      const step = (): void => {
        const s = large[0];
        if (s === undefined) return resolve();
        if (this.state.byId.get(s.id) !== s || preparePatchingSlice(s, PREPARE_PATCHING_SLICE)) large.shift();
        setImmediate(step).unref();
      };
      setImmediate(step).unref();
    });
    const previous = this.preparing;
    this.preparing = Promise.all([previous, run]).then(() => undefined);
  }

  /** Resolves once the patch indexes of the zones built so far are ready (benchmarks, tests). */
  patchingPrepared(): Promise<void> {
    return this.preparing;
  }

  /**
   * Replaces one zone that differs from the one served only in the records at `names` and in its
   * SOA (see zone-snapshot-patch.ts): unchanged names are shared, not rebuilt. `zone` needs to hold
   * only the records at its apex and at `names` (others are not read). false, with nothing changed,
   * when the zone is not served under that apex or a name does not parse: the caller then builds
   * it whole from the complete zone (upsert).
   */
  patch(zone: ZoneData, names: readonly string[]): boolean {
    const old = this.state.byId.get(zone.id);
    if (old === undefined || old.domain !== zone.domain) return false;
    let snap: ZoneSnapshot;
    try {
      snap = patchZoneSnapshot(old, zone, names);
    } catch {
      return false;
    }
    const byId = new Map(this.state.byId);
    byId.set(zone.id, snap);
    this.state = indexState(byId);
    this.replaced(old, snap);
    return true;
  }

  /** Stops serving a zone; unknown ids are ignored. */
  remove(zoneId: number): void {
    if (!this.state.byId.has(zoneId)) return;
    const byId = new Map(this.state.byId);
    byId.delete(zoneId);
    this.state = indexState(byId);
    this.changed(null);
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
    const { byApex, apexLabelsMax } = this.state;
    // A suffix with more labels than any apex is none.
    for (let i = Math.max(from, keys.length - apexLabelsMax); i < keys.length; i++) {
      const z = byApex.get(keys[i]!);
      if (z) return z;
    }
    return byApex.get('') ?? null;
  }

  /**
   * findZone for a query's name: its suffixes are matched by their hashes (the parser's) and
   * compared with the bytes, so no key string of the query is made or hashed by a Map.
   */
  findZoneOfQuery(name: QueryName, from = 0): ZoneSnapshot | null {
    const { byApex, apexLabelsMax, byApexHash } = this.state;
    const labels = name.labels;
    for (let i = Math.max(from, labels - apexLabelsMax); i < labels; i++) {
      const candidates = byApexHash.get(smiHash(name.hashes[i]!));
      if (candidates === undefined) continue;
      for (const z of candidates) if (name.equalsKey(i, z.apexKey)) return z;
    }
    return byApex.get('') ?? null;
  }
}
