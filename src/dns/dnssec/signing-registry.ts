/**
 * DNSSEC on the snapshot: the signing material travels in the snapshot's DNSSEC extension slot
 * (zone-extension.ts); one ZoneSigning per served snapshot of a signed zone is built on the first
 * query with DO set (or patched from the previous snapshot's when the zone was patched) and
 * dropped with the snapshot (WeakMap), and one signature cache per process is shared by all zones
 * so a zone reload keeps the signatures of unchanged RRsets.
 */
import { defineZoneExtension } from '../zone/zone-extension.ts';
import { forgetPatchOrigin, patchOrigin } from '../zone/zone-snapshot-patch.ts';
import type { ZoneSnapshot } from '../zone/zone-snapshot.ts';
import type { ZoneDnssec } from './dnssec-config.ts';
import { SignatureCache } from './signature-cache.ts';
import {
  createZoneSigning,
  NO_SYNTHESIZED_NAMES,
  patchZoneSigning,
  type SynthesizedNames,
  type ZoneSigning,
} from './zone-signing.ts';

/** ZoneData.dnssec on the snapshot; a patched signed snapshot keeps its origin (patchZoneSigning). */
export const DNSSEC_EXTENSION = defineZoneExtension<ZoneDnssec>({
  name: 'dnssec',
  compile: (zone) => zone.dnssec ?? null,
  followsPatches: true,
});

const SLOT = DNSSEC_EXTENSION.slot;

/** Signing material when the zone is signed (null: unsigned): one slot read per DO query. */
export function zoneDnssec(zone: ZoneSnapshot): ZoneDnssec | null {
  return zone.extensions[SLOT] as ZoneDnssec | null;
}

const sharedCache = new SignatureCache();
const signings = new WeakMap<ZoneSnapshot, ZoneSigning>();

/**
 * The signing view of `zone`, or null when it is not signed. `synthesized` tells the names
 * answered without zone nodes (load balancers): their types, for NSEC bitmaps, and their RRsets.
 */
export function signingFor(
  zone: ZoneSnapshot,
  synthesized?: (zone: ZoneSnapshot) => SynthesizedNames,
  now?: () => number,
): ZoneSigning | null {
  const material = zoneDnssec(zone);
  if (!material) return null;
  let signing = signings.get(zone);
  if (signing === undefined) {
    const extra = synthesized ? synthesized(zone) : NO_SYNTHESIZED_NAMES;
    // A snapshot patched from one already signed: follow the changed names (zone-snapshot-patch.ts).
    const origin = patchOrigin(zone);
    const base = origin === undefined ? undefined : signings.get(origin.base);
    signing =
      (base !== undefined && patchZoneSigning(base, zone, material, origin!.touched, extra)) ||
      createZoneSigning(zone, material, { cache: sharedCache, synthesized: extra, ...(now ? { now } : {}) });
    if (origin !== undefined) signings.delete(origin.base);
    forgetPatchOrigin(zone);
    signings.set(zone, signing);
  }
  return signing;
}

/** The process-wide signature cache (stats and tests). */
export function signatureCache(): SignatureCache {
  return sharedCache;
}
