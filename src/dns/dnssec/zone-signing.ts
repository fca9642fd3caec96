/**
 * What signing one zone snapshot needs, built once per snapshot on the first query with DO set:
 * the ZoneSigner (keys as KeyObjects, shared signature cache), the authoritative names in
 * canonical order for the denial builder, their NSEC type bitmaps, and the owner of each static
 * RRset (so a wildcard expansion is signed as the wildcard, RFC 4035 §2.2).
 */
import { parentKey } from '../wire/wire-name.ts';
import type { RRset } from '../wire/rrset-encoding.ts';
import type { ZoneSnapshot } from '../zone/zone-snapshot.ts';
import { PackedNodeTable } from '../zone/packed-node-table.ts';
import type { ZoneDnssec } from './dnssec-config.ts';
import { NameIndex } from './name-index.ts';
import { DenialAnswerCache } from './denial-answer-cache.ts';
import type { DenialZone } from './nsec-denial.ts';
import { Nsec3Chain, type Nsec3Record } from './nsec3-chain.ts';
import { rrsigRRset } from './rrsig-rrset.ts';
import type { SignatureCache } from './signature-cache.ts';
import { ZoneSigner } from './zone-signer.ts';
import { RR_TYPE } from '../wire/rr-type.ts';

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
  /** The name exists without a zone node: a load balancer (SynthesizedNames). */
  isSynthesized(key: string): boolean;
  /** Finished negative-answer authority sections of this snapshot, by query name and kind. */
  readonly denials: DenialAnswerCache;
  /**
   * The zone's NSEC3 chain when its denial is pre-signed (ZoneDnssec.denial "nsec3"); null when
   * negative answers are signed online with NSEC white lies.
   */
  readonly nsec3: Nsec3Chain | null;
  /**
   * Resolves once every NSEC3 record made for this snapshot has its RRSIG: a large chain is signed
   * in slices between queries, and a record asked for first is signed then.
   */
  readonly chainSigned: Promise<void>;
}

const NOTHING_TO_SIGN: Promise<void> = Promise.resolve();

/**
 * Names that answer without being zone nodes (load balancers), as the answer floor describes them:
 * this floor knows no steering.
 */
export interface SynthesizedNames {
  /** Key → the types answered there (A and/or AAAA), shown in their NSEC bitmaps. */
  readonly types: ReadonlyMap<string, readonly number[]>;
  /**
   * The RRsets those answers are made of: immutable objects of the snapshot, so their signatures
   * are found by identity, as for static RRsets.
   */
  readonly rrsets: readonly RRset[];
}

export const NO_SYNTHESIZED_NAMES: SynthesizedNames = { types: new Map(), rrsets: [] };

export interface ZoneSigningOptions {
  readonly cache?: SignatureCache;
  readonly now?: () => number;
  readonly synthesized?: SynthesizedNames;
}

/**
 * What a ZoneSigning derives from its snapshot's names, kept so the signing of a patched snapshot
 * can follow the patch (patchZoneSigning) instead of starting over: the pass over every name and
 * the NSEC3 chain cost about 5 s at 660,000 names (a 1M-record zone served packed, whose names'
 * types are read from its records, no node made).
 */
interface SigningState {
  readonly owners: WeakMap<RRset, string>;
  /** Authoritative names (not below a cut), load balancers included: what `exists` answers. */
  readonly existing: Set<string>;
  /**
   * `existing` in canonical order, for online denial (nsec-denial.ts); made when first needed
   * (namesOf): a zone with an NSEC3 chain never needs it, and sorting 660,000 names took 2.5 s.
   */
  names: NameIndex | null;
  /** Delegation points: authority below them changes only through a whole build. */
  readonly cuts: Set<string>;
  readonly extra: ReadonlyMap<string, readonly number[]>;
  readonly nsec3: Nsec3Chain | null;
}

const states = new WeakMap<ZoneSigning, SigningState>();

function namesOf(state: SigningState): NameIndex {
  return (state.names ??= new NameIndex(state.existing));
}

/** A packed zone's table, whose names' types and cuts are read without making their nodes. */
function packedNodes(zone: ZoneSnapshot): PackedNodeTable | null {
  return zone.nodes instanceof PackedNodeTable ? zone.nodes : null;
}

/** Below one of the zone's `cuts` (RFC 1034 §4.2.1): not authoritative, no NSEC, no signatures. */
function occludedIn(cuts: ReadonlySet<string>, apexKey: string, key: string): boolean {
  if (cuts.size === 0) return false;
  for (let k = parentKey(key); k.length > apexKey.length; k = parentKey(k)) {
    if (cuts.has(k)) return true;
  }
  return false;
}

/** The types of the RRsets at `key` (undefined: no node there) and whether it is a cut. */
function rrsetTypesAt(
  zone: ZoneSnapshot,
  key: string,
): { types: readonly number[]; cut: boolean } | undefined {
  const packed = packedNodes(zone);
  if (packed !== null) {
    const types = packed.typesOf(key);
    // A cut is a name below the apex with NS, as both builds set ZoneNode.delegation.
    return types === undefined
      ? undefined
      : { types, cut: key !== zone.apexKey && types.includes(RR_TYPE.NS) };
  }
  const node = zone.nodes.get(key);
  return node === undefined ? undefined : { types: node.rrsets.map((rs) => rs.type), cut: node.delegation };
}

/** Types of an existing name as its NSEC or NSEC3 shows them, without RRSIG and NSEC (DenialZone.typesAt). */
function typesIn(
  zone: ZoneSnapshot,
  extra: ReadonlyMap<string, readonly number[]>,
): (key: string) => readonly number[] {
  return (key) => {
    const at = rrsetTypesAt(zone, key);
    const more = extra.get(key) ?? [];
    if (at === undefined) return more;
    // A delegation point shows its NS and DS only (RFC 4035 §2.3, RFC 5155 §7.1).
    if (at.cut) return at.types.includes(RR_TYPE.DS) ? [RR_TYPE.NS, RR_TYPE.DS] : [RR_TYPE.NS];
    return more.length === 0 ? at.types : [...at.types, ...more];
  };
}

/**
 * Signs NSEC3 records as the chain is made or patched, not per query: each signature is kept by
 * the record's identity (answers find it there) and by content in the shared cache (a reload of the
 * zone re-signs only records whose content changed).
 */
function signNsec3(signer: ZoneSigner, records: readonly Nsec3Record[]): void {
  for (const r of records) signer.signedObject(r.rrset, r.ownerKey, rrsigRRset);
}

/**
 * Records signed per slice when a chain is signed in the background: about 25 ms of ECDSA P-256
 * (~50 µs a signature), so queries to every zone of the process wait that long at most.
 */
export const NSEC3_SIGN_SLICE = 500;
/** The background signing under way per zone id: a newer chain of the same zone ends an older one's. */
const chainJobs = new Map<number, object>();

/**
 * Signs `records` as signNsec3 does, in slices of NSEC3_SIGN_SLICE between which the thread answers
 * queries: a chain of 666,000 names takes about half a minute of signatures, which must not hold
 * every zone's answers. A record asked for before its slice is signed on that first use
 * (ZoneSigner.signedObjectEntry), so no answer goes out without its RRSIG. Resolves when done (or
 * when a newer chain of the zone took over).
 */
function signNsec3InSlices(
  zoneId: number,
  signer: ZoneSigner,
  records: readonly Nsec3Record[],
): Promise<void> {
  if (records.length <= NSEC3_SIGN_SLICE) {
    signNsec3(signer, records);
    return Promise.resolve();
  }
  const token = {};
  chainJobs.set(zoneId, token);
  const todo = records.slice();
  return new Promise((resolve) => {
    let at = 0;
    const slice = (): void => {
      if (chainJobs.get(zoneId) !== token) return resolve();
      const end = Math.min(at + NSEC3_SIGN_SLICE, todo.length);
      for (; at < end; at++) signer.signedObject(todo[at]!.rrset, todo[at]!.ownerKey, rrsigRRset);
      if (at < todo.length) {
        setImmediate(slice);
        return;
      }
      chainJobs.delete(zoneId);
      resolve();
    };
    setImmediate(slice);
  });
}

/** The signing object of `zone` over `state` (the parts rebuilt per snapshot are cheap). */
function signingOver(
  zone: ZoneSnapshot,
  signer: ZoneSigner,
  state: SigningState,
  synthesized: readonly RRset[],
  chainSigned: Promise<void>,
): ZoneSigning {
  const compiled = new WeakSet<RRset>(synthesized);
  const packed = packedNodes(zone);
  const { owners, existing, extra } = state;
  const typesAt = typesIn(zone, extra);
  const signing: ZoneSigning = {
    signer,
    denial: {
      apexKey: zone.apexKey,
      get names() {
        return namesOf(state);
      },
      typesAt,
    },
    // A packed zone makes nodes as they are asked: RRsets made since are known to the table.
    ownerOf:
      packed === null ? (rrset) => owners.get(rrset) : (rrset) => owners.get(rrset) ?? packed.ownerOf(rrset),
    isCompiled: (rrset) => compiled.has(rrset),
    exists: (key) => existing.has(key),
    isSynthesized: (key) => extra.size > 0 && extra.has(key),
    denials: new DenialAnswerCache(),
    nsec3: state.nsec3,
    chainSigned,
  };
  states.set(signing, state);
  return signing;
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
  const authoritative: string[] = [];
  const cuts = new Set<string>();
  // The SOA of negative answers (TTL capped, RFC 2308 §3) is the snapshot's too: signed by identity.
  if (zone.negativeSoa !== null) owners.set(zone.negativeSoa, zone.apexKey);
  const packed = packedNodes(zone);
  // A packed table knows the owners of the RRsets it makes (ownerOf); a patch's nodes are not its.
  for (const [key, node] of packed !== null ? packed.overlayEntries() : zone.nodes) {
    for (let i = 0; i < node.rrsetCount; i++) owners.set(node.rrsetAt(i), key);
    if (node.delegation) cuts.add(key);
  }
  const keys = [...zone.nodes.keys()];
  if (packed !== null) for (const key of keys) if (packed.isDelegation(key)) cuts.add(key);
  for (const key of keys) {
    if (key === zone.apexKey || !occludedIn(cuts, zone.apexKey, key)) authoritative.push(key);
  }
  const synthesized = options.synthesized ?? NO_SYNTHESIZED_NAMES;
  const extra = synthesized.types;
  for (const key of extra.keys()) if (!zone.nodes.has(key)) authoritative.push(key);
  const nsec3 =
    material.denial === 'nsec3'
      ? new Nsec3Chain(
          { apexKey: zone.apexKey, typesAt: typesIn(zone, extra) },
          material.nsecTtl,
          authoritative,
        )
      : null;
  const chainSigned = nsec3 === null ? NOTHING_TO_SIGN : signNsec3InSlices(zone.id, signer, nsec3.list());
  const state: SigningState = {
    owners,
    existing: new Set(authoritative),
    names: null,
    cuts,
    extra,
    nsec3,
  };
  return signingOver(zone, signer, state, synthesized.rrsets, chainSigned);
}

/**
 * The signing of `zone`, patched from `base` (the signing of an earlier snapshot of the same zone
 * and node map, see PatchOrigin) by following the names in `touched`; null when that cannot be
 * done (a delegation point came or went, other keys or load balancers) and a whole build is due.
 * Takes over `base`'s state: `base` must not be used afterwards.
 */
export function patchZoneSigning(
  base: ZoneSigning,
  zone: ZoneSnapshot,
  material: ZoneDnssec,
  touched: ReadonlySet<string>,
  synthesized: SynthesizedNames,
): ZoneSigning | null {
  const state = states.get(base);
  if (state === undefined || base.signer.material !== material) return null;
  if (!sameExtra(state.extra, synthesized.types)) return null;
  for (const key of touched) {
    if ((zone.nodes.get(key)?.delegation === true) !== state.cuts.has(key)) return null;
  }
  states.delete(base);
  if (zone.negativeSoa !== null) state.owners.set(zone.negativeSoa, zone.apexKey);
  for (const key of touched) {
    const node = zone.nodes.get(key);
    if (node !== undefined) for (let i = 0; i < node.rrsetCount; i++) state.owners.set(node.rrsetAt(i), key);
    // As createZoneSigning counts them: a node unless below a cut; a load balancer without one.
    const authoritative =
      node !== undefined
        ? key === zone.apexKey || !occludedIn(state.cuts, zone.apexKey, key)
        : state.extra.has(key);
    if (authoritative && !state.existing.has(key)) {
      state.existing.add(key);
      state.names?.add(key);
    } else if (!authoritative && state.existing.has(key)) {
      state.existing.delete(key);
      state.names?.delete(key);
    }
  }
  let chainSigned = NOTHING_TO_SIGN;
  if (state.nsec3 !== null) {
    const nsec3Zone = { apexKey: zone.apexKey, typesAt: typesIn(zone, state.extra) };
    const remade = state.nsec3.patch(nsec3Zone, touched, (key) => state.existing.has(key));
    chainSigned = signNsec3InSlices(zone.id, base.signer, remade);
  }
  return signingOver(zone, base.signer, state, synthesized.rrsets, chainSigned);
}

function sameExtra(
  a: ReadonlyMap<string, readonly number[]>,
  b: ReadonlyMap<string, readonly number[]>,
): boolean {
  if (a.size !== b.size) return false;
  for (const [key, types] of a) {
    const other = b.get(key);
    if (other === undefined || other.length !== types.length || other.some((t, i) => t !== types[i]))
      return false;
  }
  return true;
}
