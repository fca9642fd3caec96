/**
 * Per-zone data of the features above this floor (steering, DNSSEC), carried by every snapshot in
 * a typed slot. A feature defines its extension once, when its module loads: how to compile its
 * value from the zone's data, which names it makes exist, whether its value follows patches. The
 * builder fills `ZoneSnapshot.extensions[slot]` for each; the feature reads it back with one array
 * read (no Map lookup per query). So zone/ serves every feature without importing any: steering
 * and DNSSEC attach here the way the DNSSEC signing registry attaches its signing per snapshot.
 *
 * Contract: extensions are defined before the first snapshot is built (at module load: the data
 * plane's index.ts loads them all); a later definition throws, since snapshots built before it
 * would lack its slot.
 */
import type { WireName } from '../wire/wire-name.ts';
import type { ZoneData } from './zone-data.ts';
import type { ZoneSnapshot } from './zone-snapshot.ts';

export interface ZoneExtensionSpec<T> {
  /** For messages. */
  readonly name: string;
  /**
   * The value for a snapshot being built (null: the zone does not use the feature). Runs after the
   * names, the SOA and the negative SOA are built; the extension slots are not all filled yet.
   */
  compile(zone: ZoneData, snapshot: ZoneSnapshot): T | null;
  /**
   * Names that exist in the snapshot although they own no records (load-balancer hostnames): other
   * types there are NODATA, not NXDOMAIN. Must be inside the zone.
   */
  existingNames?(zone: ZoneData, apex: WireName): readonly WireName[];
  /**
   * A patched snapshot whose value is non-null remembers what it was patched from (PatchOrigin),
   * so data derived from the snapshot (DNSSEC signing) can follow the change.
   */
  readonly followsPatches?: boolean;
}

export interface ZoneExtension<T> extends ZoneExtensionSpec<T> {
  /** Index of this extension's value in ZoneSnapshot.extensions. */
  readonly slot: number;
}

const defined: ZoneExtension<unknown>[] = [];
let inUse = false;

/** Registers an extension (once, at module load) and gives it the next slot. */
export function defineZoneExtension<T>(spec: ZoneExtensionSpec<T>): ZoneExtension<T> {
  if (inUse) throw new Error(`zone extension ${spec.name} defined after the first snapshot was built`);
  const ext: ZoneExtension<T> = { ...spec, slot: defined.length };
  defined.push(ext as ZoneExtension<unknown>);
  return ext;
}

/** Every extension, by slot; from the first call on, no more can be defined. */
export function zoneExtensions(): readonly ZoneExtension<unknown>[] {
  inUse = true;
  return defined;
}

/** Names the extensions make exist in `zone` (see ZoneExtensionSpec.existingNames). */
export function extensionNames(zone: ZoneData, apex: WireName): WireName[] {
  const out: WireName[] = [];
  for (const ext of zoneExtensions()) if (ext.existingNames) out.push(...ext.existingNames(zone, apex));
  return out;
}

/** True when a patch of `snapshot` must record its origin (see ZoneExtensionSpec.followsPatches). */
export function followsPatches(snapshot: ZoneSnapshot): boolean {
  for (const ext of zoneExtensions()) {
    if (ext.followsPatches && snapshot.extensions[ext.slot] != null) return true;
  }
  return false;
}
