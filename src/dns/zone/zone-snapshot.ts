/**
 * The immutable compiled view of one zone that answers read (built by zone-snapshot-builder.ts,
 * patched by zone-snapshot-patch.ts, swapped in by zone-store.ts): its names, each name's RRsets
 * pre-encoded for the writer, and the additional-section data of NS/MX/SRV RRsets.
 */
import type { AdditionalEntry, RRset } from '../wire/rrset-encoding.ts';
import { RR_TYPE } from '../wire/rr-type.ts';
import { WireName } from '../wire/wire-name.ts';

/** The wildcard label's key form (length octet and "*"). */
const WILDCARD_LABEL = '\x01*';

/** The RRsets of an empty non-terminal (shared). */
export const NO_RRSETS: readonly RRset[] = [];

/**
 * A name of a zone, with its RRsets. The node is its own name (a WireName spelled as the owner
 * was interned): a node pointing at a name object of its own cost 56 bytes more a name, about
 * 18 MiB of heap at a million records.
 */
export class ZoneNode extends WireName {
  /** Key of "*." + this name (wildcardKey), made on first use. */
  private wildcard: string | null = null;
  /**
   * The node's RRsets by ascending type: a node holds a handful, so a scan is as fast as a map
   * lookup. A node with one RRset (most names) holds it as itself: an array of one costs 56
   * bytes, about 21 MiB of heap at a million records.
   */
  private readonly sets: RRset | readonly RRset[];

  constructor(
    name: WireName,
    rrsets: readonly RRset[],
    /** NS present below the apex: a zone cut (RFC 1034 §4.2.1). */
    readonly delegation: boolean,
  ) {
    super(name.keys, name.bytes, name.at);
    this.sets = rrsets.length === 1 ? rrsets[0]! : rrsets;
  }

  /** The node's name: the node itself. */
  get name(): WireName {
    return this;
  }

  /**
   * Key of the wildcard that synthesizes below this name (RFC 4592 §3.3.1: "*." + the closest
   * encloser), kept once made: a random-subdomain flood asks it for every query, and a new
   * string per query would be hashed anew for every lookup.
   */
  wildcardKey(): string {
    return (this.wildcard ??= WILDCARD_LABEL + (this.keys[0] ?? ''));
  }

  /** How many RRsets the node has (none: an empty non-terminal). */
  get rrsetCount(): number {
    const sets = this.sets;
    return Array.isArray(sets) ? sets.length : 1;
  }

  /** The RRset at `i` (0 ≤ i < rrsetCount), by ascending type. */
  rrsetAt(i: number): RRset {
    const sets = this.sets;
    return Array.isArray(sets) ? (sets as readonly RRset[])[i]! : (sets as RRset);
  }

  /** The RRsets by ascending type, as a new array for a node with one: loop with rrsetCount/rrsetAt where it is hot. */
  get rrsets(): readonly RRset[] {
    const sets = this.sets;
    return Array.isArray(sets) ? (sets as readonly RRset[]) : [sets as RRset];
  }

  /** The RRset of `type` at this name, if any. */
  rrset(type: number): RRset | undefined {
    const sets = this.sets;
    if (!Array.isArray(sets)) {
      const rs = sets as RRset;
      return rs.type === type ? rs : undefined;
    }
    for (let i = 0; i < sets.length; i++) {
      const rs = (sets as readonly RRset[])[i]!;
      // Sorted by type: past it, it is not there.
      if (rs.type >= type) return rs.type === type ? rs : undefined;
    }
    return undefined;
  }

  /** RRset with the lowest type code: the RFC 8482 answer to ANY, as Knot chooses it. */
  get lowest(): RRset | null {
    const sets = this.sets;
    return Array.isArray(sets) ? ((sets as readonly RRset[])[0] ?? null) : (sets as RRset);
  }
}

export interface ZoneSnapshot {
  readonly id: number;
  /** Stored form of the apex ("example.com"). */
  readonly domain: string;
  readonly serial: number;
  readonly apex: WireName;
  readonly apexKey: string;
  readonly apexLabels: number;
  /** Every existing name, empty non-terminals included, by canonical key (see WireName). */
  readonly nodes: ReadonlyMap<string, ZoneNode>;
  readonly hasWildcards: boolean;
  readonly soa: RRset | null;
  /** SOA for negative answers: TTL = min(SOA TTL, SOA MINIMUM) (RFC 2308 §3). */
  readonly negativeSoa: RRset | null;
  /** Records skipped at build time (owner outside the zone or malformed RDATA). */
  readonly skipped: number;
  /**
   * The features' per-zone data by extension slot (zone-extension.ts): compiled load balancers,
   * signing material. Each feature reads its own slot (e.g. compiledSteering, zoneDnssec).
   */
  readonly extensions: readonly unknown[];
}

/** True when the name with key `key` is `cut` or below it (keys are suffix-comparable). */
function atOrBelow(key: string, cut: string): boolean {
  return (
    key.length >= cut.length && key.endsWith(cut) && (key.length === cut.length || isLabelStart(key, cut))
  );
}

/** `key` ends with `cut` on a label boundary (not inside a label of `key`). */
function isLabelStart(key: string, cut: string): boolean {
  let p = 0;
  const start = key.length - cut.length;
  while (p < start) p += key.charCodeAt(p) + 1;
  return p === start;
}

/**
 * Additional-section data (RFC 1034 §4.3.2 step 6) for NS/MX/SRV targets that exist in this zone;
 * `cut` is the key of the delegation owning `rs` (NS at a cut), for which in-bailiwick targets are glue.
 */
export function additionalFor(
  nodes: ReadonlyMap<string, ZoneNode>,
  rs: RRset,
  cut: string | null,
): AdditionalEntry[] {
  const additional: AdditionalEntry[] = [];
  for (const t of rs.names) {
    const tkey = t.keys[0] ?? '';
    const node = nodes.get(tkey);
    if (!node) continue;
    const glue = cut !== null && atOrBelow(tkey, cut);
    for (const type of [RR_TYPE.A, RR_TYPE.AAAA]) {
      const extra = node.rrset(type);
      if (extra && !additional.some((e) => e.rrset === extra))
        additional.push({ owner: node.name, rrset: extra, glue });
    }
  }
  return additional;
}

/** `rdata` is one of `rdatas` already (a duplicate record: RFC 2181 §5 keeps one). */
export function isDuplicate(rdatas: readonly Uint8Array[], rdata: Uint8Array): boolean {
  for (const r of rdatas) if (r.length === rdata.length && Buffer.compare(r, rdata) === 0) return true;
  return false;
}

/** The types whose RDATA names get additional-section data. */
export function hasAdditional(type: number): boolean {
  return type === RR_TYPE.NS || type === RR_TYPE.MX || type === RR_TYPE.SRV;
}
