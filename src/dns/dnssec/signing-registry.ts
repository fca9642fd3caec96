/**
 * One ZoneSigning per served snapshot of a signed zone, built on the first query with DO set (or
 * patched from the previous snapshot's when the zone was patched) and dropped with the snapshot
 * (WeakMap), and one signature cache per process shared by all zones so a zone reload keeps the
 * signatures of unchanged RRsets.
 */
import { forgetPatchOrigin, patchOrigin } from '../zone/zone-snapshot-patch.ts';
import type { ZoneSnapshot } from '../zone/zone-snapshot.ts';
import { SignatureCache } from './signature-cache.ts';
import { createZoneSigning, patchZoneSigning, type ZoneSigning } from './zone-signing.ts';

const sharedCache = new SignatureCache();
const signings = new WeakMap<ZoneSnapshot, ZoneSigning>();

/**
 * The signing view of `zone`, or null when it is not signed. `extraTypes` lists names answered
 * without zone nodes (load balancers) and their types, for NSEC bitmaps.
 */
export function signingFor(
  zone: ZoneSnapshot,
  extraTypes?: (zone: ZoneSnapshot) => ReadonlyMap<string, readonly number[]>,
  now?: () => number,
): ZoneSigning | null {
  const material = zone.dnssec;
  if (!material) return null;
  let signing = signings.get(zone);
  if (signing === undefined) {
    const extra = extraTypes ? extraTypes(zone) : new Map<string, readonly number[]>();
    // A snapshot patched from one already signed: follow the changed names (zone-snapshot-patch.ts).
    const origin = patchOrigin(zone);
    const base = origin === undefined ? undefined : signings.get(origin.base);
    signing =
      (base !== undefined && patchZoneSigning(base, zone, material, origin!.touched, extra)) ||
      createZoneSigning(zone, material, { cache: sharedCache, extraTypes: extra, ...(now ? { now } : {}) });
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
