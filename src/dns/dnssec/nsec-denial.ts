/**
 * Authenticated denial of existence for online signing: minimally covering NSEC records ("white
 * lies", RFC 4470), built per answer.
 *
 * Design notes — why this scheme:
 * - NXDOMAIN stays NXDOMAIN. "Black lies" (Knot's onlinesign default, Cloudflare) and the compact
 *   denial draft (NXNAME, draft-ietf-dnsop-compact-denial-of-existence) answer NOERROR/NODATA for
 *   names that do not exist, which changes the RCODE clients and monitoring see; this product
 *   rules that out.
 * - No zone walking. A pre-computed NSEC chain (RFC 4034 §4) lists every name; NSEC3 (RFC 5155)
 *   only hashes them, and offline dictionary attacks recover most. Here an NSEC covering a missing
 *   name N runs from an epsilon-predecessor of N to an epsilon-successor of N (RFC 4470 §3), names
 *   derived from the query alone, so an answer reveals no name that was not asked for. Matching
 *   NSECs (NODATA) are owned by the name asked for, with "\000.<name>" as next name — again nothing
 *   new. The only real names that can appear besides the query name are its closest encloser (a
 *   proven ancestor) and the source of wildcard synthesis (already implied by the signed
 *   wildcard-expanded answer); a real neighbour appears only when it lies inside the epsilon range
 *   (names with \255 or \000 octets at that place), where correctness wins.
 * - NSEC rather than NSEC3 white lies: no hashing per query, validators infer the closest encloser
 *   from the covering NSEC (RFC 4035 §5.4) so no closest-encloser record is needed, answers are
 *   smaller, and tests can read what was revealed.
 * - Cost: a covering NSEC is signed per distinct missing name (random-name floods cost one
 *   signature each; the RRL and the signature cache bound that), matching NSECs are cacheable.
 *
 * The range (owner, next) must hide no existing name: each epsilon name is checked against the
 * zone's NameIndex and replaced by the real neighbour when one lies between. An NSEC owned by a
 * real name carries that name's real type bitmap. Minimally covering NSECs have only RRSIG and
 * NSEC in their bitmap (RFC 4470 §3).
 *
 * Proofs (RFC 4035 §3.1.3, RFC 7129): NXDOMAIN — NSEC covering the next closer name (so the query
 * name and everything below it) and NSEC covering the wildcard "*.<closest encloser>"; NODATA — the
 * NSEC at the name; wildcard answer — NSEC covering the next closer name; wildcard NODATA — that
 * plus the NSEC at the wildcard; unsigned delegation — the NSEC at the cut showing NS and no DS
 * (RFC 4035 §3.1.4.1).
 */
import { canonicalSortKey, keyOfLabels, labelsOfKey, wireOfKey } from './canonical-name.ts';
import type { NameIndex } from './name-index.ts';
import { writeTypeBitmap } from '../wire/rdata/rdata-type-bitmap.ts';
import { RdataWriter } from '../wire/rdata/rdata-wire-writer.ts';
import { RR_TYPE } from '../wire/rr-type.ts';

const LABEL_MAX = 63;
const NAME_MAX = 255;
const UPPER_A = 0x41;
const UPPER_Z = 0x5a;
const WILDCARD = '\x01*';

export interface NsecRecord {
  readonly ownerKey: string;
  readonly nextKey: string;
  /** Types in the bitmap, RRSIG and NSEC included, ascending. */
  readonly types: readonly number[];
}

/** What the denial builder needs to know about the zone. */
export interface DenialZone {
  readonly apexKey: string;
  readonly names: NameIndex;
  /**
   * Types of the existing name `key` as its NSEC shows them (at a delegation: NS and DS only; at
   * the apex: the DNSSEC records too), without RRSIG and NSEC.
   */
  typesAt(key: string): readonly number[];
}

/** Bitmap of an NSEC at a real name: its types plus RRSIG and NSEC (RFC 4034 §4.1.2). */
export function nsecTypes(types: readonly number[]): number[] {
  return [...new Set([...types, RR_TYPE.RRSIG, RR_TYPE.NSEC])].sort((a, b) => a - b);
}

function withFirstLabel(labels: readonly string[], first: string): string {
  return keyOfLabels([first, ...labels.slice(1)]);
}

/**
 * A name canonically before `key` and after every name that could lie between it and `key` save
 * descendants of the result (RFC 4471 §3 simplified): the last octet of the first label lowered
 * by one (skipping upper-case letters, which sort as lower case), then \255 appended; or the label
 * shortened when it ends in \000. null when `key`'s first label is a lone \000.
 */
export function epsilonPredecessor(key: string): string | null {
  const labels = labelsOfKey(key);
  const first = labels[0];
  if (first === undefined) return null;
  const last = first.charCodeAt(first.length - 1);
  if (last === 0) return first.length === 1 ? null : withFirstLabel(labels, first.slice(0, -1));
  let lowered = last - 1;
  if (lowered >= UPPER_A && lowered <= UPPER_Z) lowered = UPPER_A - 1;
  const pad = first.length < LABEL_MAX && key.length + 2 <= NAME_MAX ? '\xff' : '';
  return withFirstLabel(labels, first.slice(0, -1) + String.fromCharCode(lowered) + pad);
}

/**
 * A name canonically after `key` and after all its descendants, with nothing else between (RFC
 * 4471 §3 simplified): \000 appended to the first label; when that does not fit, the last octet
 * that can be raised is raised (trailing \255 dropped). null when no such name exists.
 */
export function epsilonSuccessor(key: string): string | null {
  const labels = labelsOfKey(key);
  const first = labels[0];
  if (first === undefined) return null;
  if (first.length < LABEL_MAX && key.length + 2 <= NAME_MAX) return withFirstLabel(labels, `${first}\0`);
  let s = first;
  while (s.length > 0 && s.charCodeAt(s.length - 1) === 0xff) s = s.slice(0, -1);
  if (s.length === 0) return null;
  let raised = s.charCodeAt(s.length - 1) + 1;
  if (raised >= UPPER_A && raised <= UPPER_Z) raised = UPPER_Z + 1;
  return withFirstLabel(labels, s.slice(0, -1) + String.fromCharCode(raised));
}

const before = (a: string, b: string): boolean => canonicalSortKey(a) < canonicalSortKey(b);

/** The NSEC at an existing name (NODATA, delegation without DS, wildcard NODATA). */
export function matchingNsec(zone: DenialZone, key: string): NsecRecord {
  // "\000.<name>" is the first name after it; nothing can lie between (RFC 4470 §3).
  const next = key.length + 3 <= NAME_MAX ? `\x01\0${key}` : (zone.names.after(key) ?? zone.apexKey);
  return { ownerKey: key, nextKey: next, types: nsecTypes(zone.typesAt(key)) };
}

/** A minimally covering NSEC for the missing name `key`: covers it and everything below it. */
export function coveringNsec(zone: DenialZone, key: string): NsecRecord {
  const prevReal = zone.names.before(key) ?? zone.apexKey;
  const nextReal = zone.names.after(key);
  const pred = epsilonPredecessor(key);
  const succ = epsilonSuccessor(key);
  const ownerIsReal = pred === null || !before(prevReal, pred);
  const owner = ownerIsReal ? prevReal : pred;
  const next =
    succ !== null && (nextReal === null || before(succ, nextReal)) ? succ : (nextReal ?? zone.apexKey);
  return {
    ownerKey: owner,
    nextKey: next,
    types: ownerIsReal ? nsecTypes(zone.typesAt(owner)) : nsecTypes([]),
  };
}

/** The child of `ancestorKey` on the way to `key` (the "next closer name", RFC 5155 §1.3). */
export function nextCloser(key: string, ancestorKey: string): string {
  const labels = labelsOfKey(key);
  const depth = labelsOfKey(ancestorKey).length;
  return keyOfLabels(labels.slice(labels.length - depth - 1));
}

function dedupe(records: NsecRecord[]): NsecRecord[] {
  return records.filter((r, i) => records.findIndex((o) => o.ownerKey === r.ownerKey) === i);
}

/** NXDOMAIN for `qnameKey` whose closest encloser is `ceKey`: no such name, no wildcard. */
export function nxdomainProof(zone: DenialZone, qnameKey: string, ceKey: string): NsecRecord[] {
  return dedupe([coveringNsec(zone, nextCloser(qnameKey, ceKey)), coveringNsec(zone, WILDCARD + ceKey)]);
}

/** NODATA at the existing name `key`. */
export function nodataProof(zone: DenialZone, key: string): NsecRecord[] {
  return [matchingNsec(zone, key)];
}

/** An answer synthesized by the wildcard at ceKey: the query name itself does not exist (RFC 4035 §3.1.3.3). */
export function wildcardAnswerProof(zone: DenialZone, qnameKey: string, ceKey: string): NsecRecord[] {
  return [coveringNsec(zone, nextCloser(qnameKey, ceKey))];
}

/** NODATA synthesized by the wildcard at ceKey (RFC 4035 §3.1.3.4). */
export function wildcardNodataProof(zone: DenialZone, qnameKey: string, ceKey: string): NsecRecord[] {
  return dedupe([coveringNsec(zone, nextCloser(qnameKey, ceKey)), matchingNsec(zone, WILDCARD + ceKey)]);
}

/** NSEC RDATA: next domain name (uncompressed, RFC 4034 §4.1.1) and type bitmap (§4.1.2). */
export function nsecRdata(record: NsecRecord): Uint8Array {
  const w = new RdataWriter('NSEC').raw(wireOfKey(record.nextKey));
  writeTypeBitmap(w, record.types);
  return w.finish();
}
