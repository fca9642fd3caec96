/**
 * One ZoneSigning per served snapshot of a signed zone, built on the first query with DO set and
 * dropped with the snapshot (WeakMap), and one signature cache per process shared by all zones so
 * a zone reload keeps the signatures of unchanged RRsets.
 */
import type { ZoneSnapshot } from '../zone/zone-snapshot.ts';
import { SignatureCache } from './signature-cache.ts';
import { createZoneSigning, type ZoneSigning } from './zone-signing.ts';

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
    signing = createZoneSigning(zone, material, {
      cache: sharedCache,
      ...(extraTypes ? { extraTypes: extraTypes(zone) } : {}),
      ...(now ? { now } : {}),
    });
    signings.set(zone, signing);
  }
  return signing;
}

/** The process-wide signature cache (stats and tests). */
export function signatureCache(): SignatureCache {
  return sharedCache;
}
