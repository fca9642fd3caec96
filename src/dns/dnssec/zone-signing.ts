/**
 * What signing one zone snapshot needs, built once per snapshot on the first query with DO set:
 * the ZoneSigner (keys as KeyObjects, shared signature cache), the authoritative names in
 * canonical order for the denial builder, their NSEC type bitmaps, and the owner of each static
 * RRset (so a wildcard expansion is signed as the wildcard, RFC 4035 §2.2).
 */
import type { RRset, ZoneSnapshot } from '../zone/zone-snapshot.ts';
import type { ZoneDnssec } from './dnssec-config.ts';
import { NameIndex } from './name-index.ts';
import { DenialAnswerCache } from './denial-answer-cache.ts';
import type { DenialZone } from './nsec-denial.ts';
import type { SignatureCache } from './signature-cache.ts';
import { ZoneSigner } from './zone-signer.ts';

const TYPE_NS = 2;
const TYPE_DS = 43;

export interface ZoneSigning {
  readonly signer: ZoneSigner;
  readonly denial: DenialZone;
  /** Key of the zone node that holds `rrset` (static RRsets only; synthesized ones: undefined). */
  ownerOf(rrset: RRset): string | undefined;
  /**
   * A synthesized RRset that is nonetheless an immutable object of the snapshot (a compiled
   * load-balancer answer): its signature can be found by identity, as for static RRsets.
   */
  isCompiled(rrset: RRset): boolean;
  /** The name exists with authoritative data or as an empty non-terminal (or a load balancer). */
  exists(key: string): boolean;
  /** Finished negative-answer authority sections of this snapshot, by query name and kind. */
  readonly denials: DenialAnswerCache;
}

export interface ZoneSigningOptions {
  readonly cache?: SignatureCache;
  readonly now?: () => number;
  /**
   * Names that answer without being zone nodes (load balancers): key → the types they answer
   * (A and/or AAAA), shown in their NSEC bitmaps.
   */
  readonly extraTypes?: ReadonlyMap<string, readonly number[]>;
}

/** Strips the first label of a name key. */
export function parentKey(key: string): string {
  return key.slice(key.charCodeAt(0) + 1);
}

export function createZoneSigning(
  zone: ZoneSnapshot,
  material: ZoneDnssec,
  options: ZoneSigningOptions = {},
): ZoneSigning {
  const signer = new ZoneSigner(zone.apexKey, material, {
    ...(options.cache ? { cache: options.cache } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const owners = new WeakMap<RRset, string>();
  const occluded = (key: string): boolean => {
    // Below a delegation (RFC 1034 §4.2.1): not authoritative, no NSEC, no signatures.
    for (let k = parentKey(key); k.length > zone.apexKey.length; k = parentKey(k)) {
      if (zone.nodes.get(k)?.delegation) return true;
    }
    return false;
  };
  const authoritative: string[] = [];
  for (const [key, node] of zone.nodes) {
    for (const rs of node.rrsets) owners.set(rs, key);
    if (key === zone.apexKey || !occluded(key)) authoritative.push(key);
  }
  const compiled = new WeakSet<RRset>();
  for (const lb of zone.steering?.values() ?? []) {
    for (const rs of lb.poolRRsets.values()) compiled.add(rs);
    for (const rs of lb.memberRRsets.values()) compiled.add(rs);
  }
  const extra = options.extraTypes ?? new Map<string, readonly number[]>();
  for (const key of extra.keys()) if (!zone.nodes.has(key)) authoritative.push(key);

  const typesAt = (key: string): readonly number[] => {
    const node = zone.nodes.get(key);
    const more = extra.get(key) ?? [];
    if (!node) return more;
    if (node.delegation) return node.rrset(TYPE_DS) ? [TYPE_NS, TYPE_DS] : [TYPE_NS];
    return [...node.rrsets.map((rs) => rs.type), ...more];
  };
  const denial: DenialZone = { apexKey: zone.apexKey, names: new NameIndex(authoritative), typesAt };
  const existing = new Set(authoritative);
  return {
    signer,
    denial,
    ownerOf: (rrset) => owners.get(rrset),
    isCompiled: (rrset) => compiled.has(rrset),
    exists: (key) => existing.has(key),
    denials: new DenialAnswerCache(),
  };
}
