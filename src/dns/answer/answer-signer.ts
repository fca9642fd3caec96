/**
 * The signing step of an answer to a query with DO set, for a signed zone (RFC 4035 §3.1): after
 * the plan is resolved, each RRset in the answer and authority sections (and non-glue additional
 * data) gets its RRSIG RRset right after it; negative answers, wildcard expansions and referrals
 * get their denial proofs (NSEC white lies, nsec-denial.ts, or the zone's NSEC3 chain,
 * nsec3-chain.ts) and a referral the DS RRset of a secure delegation
 * (RFC 4035 §3.1.4). Not signed: the NS RRset and glue of a delegation (RFC 4035 §2.2), and a
 * CNAME synthesized from a DNAME (RFC 6672 §5.3.1). AD is never set by an authoritative server.
 */
import type { AnswerPlan, PlanSection } from './answer-plan.ts';
import type { WireName } from '../wire/wire-name.ts';
import { parentKey, wireNameFromWire } from '../wire/wire-name.ts';
import type { ZoneSnapshot } from '../zone/zone-snapshot.ts';
import { RRset, SHAPE_FLAT, encodeRRset } from '../wire/rrset-encoding.ts';
import type { ZoneSigner } from '../dnssec/zone-signer.ts';
import { wireOfKey } from '../dnssec/canonical-name.ts';
import {
  nextCloser,
  nodataProof,
  nsecRdata,
  nxdomainProof,
  wildcardAnswerProof,
  wildcardNodataProof,
  type NsecRecord,
} from '../dnssec/nsec-denial.ts';
import type { Nsec3Chain, Nsec3Record } from '../dnssec/nsec3-chain.ts';
import type { Nsec3ReadyRecords } from '../dnssec/nsec3-ready-records.ts';
import type { ZoneSigning } from '../dnssec/zone-signing.ts';
import { rrsigRRset } from '../dnssec/rrsig-rrset.ts';
import { RR_TYPE } from '../wire/rr-type.ts';

const WILDCARD = '\x01*';

/** Appends to a plan section (entries [0, count) are the query's, see PlanSection). */
function append(sec: PlanSection, owner: WireName | null, rrset: RRset, mandatory: boolean): void {
  const i = sec.count++;
  sec.owners[i] = owner;
  sec.sets[i] = rrset;
  sec.mandatory[i] = mandatory;
}

/** An RRset of records without compressible names, encoded once. */
export function flatRRset(type: number, ttl: number, rdatas: readonly Uint8Array[]): RRset {
  return encodeRRset(type, ttl, rdatas, []);
}

function nameOfKey(key: string): WireName {
  return wireNameFromWire(wireOfKey(key));
}

function closestEncloser(signing: ZoneSigning, key: string, apexKey: string): string {
  let k = key;
  while (k.length > apexKey.length && !signing.exists(k)) k = parentKey(k);
  return k;
}

/**
 * closestEncloser() of a name the resolver found no node for (NXDOMAIN: only a load balancer can
 * exist there without one, so the name itself is not looked up unless the zone has some), the
 * apex as the zone's own key string (its hash computed once) rather than a slice of the query's.
 */
function denialEncloser(plan: AnswerPlan, signing: ZoneSigning, qnameKey: string, apexKey: string): string {
  let k = qnameKey;
  if (plan.kind === 'nxdomain' && !signing.isSynthesized(k)) {
    const parentLength = k.length - k.charCodeAt(0) - 1;
    if (parentLength <= apexKey.length) return apexKey;
    k = parentKey(k);
  }
  const ce = closestEncloser(signing, k, apexKey);
  return ce.length === apexKey.length ? apexKey : ce;
}

/** A denial record as the authority section takes it: its owner and its (one-record) RRset. */
interface ProofEntry {
  readonly owner: WireName;
  readonly rrset: RRset;
  /** Owner key: one entry per owner. */
  readonly key: string;
}

/** The proofs of one denial scheme (RFC 4035 §3.1.3 with NSEC, RFC 5155 §7.2 with NSEC3). */
interface Denier {
  nxdomain(qnameKey: string, ceKey: string): ProofEntry[];
  nodata(key: string): ProofEntry[];
  wildcardAnswer(qnameKey: string, ceKey: string): ProofEntry[];
  wildcardNodata(qnameKey: string, ceKey: string): ProofEntry[];
}

function nsecEntries(signing: ZoneSigning, records: readonly NsecRecord[]): ProofEntry[] {
  return records.map((r) => ({
    owner: nameOfKey(r.ownerKey),
    rrset: flatRRset(RR_TYPE.NSEC, signing.signer.nsecTtl, [nsecRdata(r)]),
    key: r.ownerKey,
  }));
}

/** Online white lies (nsec-denial.ts): records made per answer. */
function onlineDenier(signing: ZoneSigning): Denier {
  const d = signing.denial;
  return {
    nxdomain: (q, ce) => nsecEntries(signing, nxdomainProof(d, q, ce)),
    nodata: (key) => nsecEntries(signing, nodataProof(d, key)),
    wildcardAnswer: (q, ce) => nsecEntries(signing, wildcardAnswerProof(d, q, ce)),
    wildcardNodata: (q, ce) => nsecEntries(signing, wildcardNodataProof(d, q, ce)),
  };
}

function nsec3Entry(r: Nsec3Record | undefined): ProofEntry[] {
  return r === undefined ? [] : [{ owner: r.owner, rrset: r.rrset, key: r.ownerKey }];
}

/** The zone's NSEC3 chain (nsec3-chain.ts): stored records, one hash of the next closer name. */
function chainDenier(chain: Nsec3Chain): Denier {
  return {
    // Closest-encloser proof (RFC 5155 §7.2.1) and the wildcard's absence (§7.2.2).
    nxdomain: (q, ce) => [
      ...nsec3Entry(chain.matching(ce)),
      ...nsec3Entry(chain.covering(nextCloser(q, ce))),
      ...nsec3Entry(chain.coveringWildcard(ce)),
    ],
    // §7.2.3, §7.2.4, and a delegation without DS (§7.2.7; no opt-out, so it matches).
    nodata: (key) => nsec3Entry(chain.matching(key)),
    // §7.2.6: the next closer name does not exist.
    wildcardAnswer: (q, ce) => nsec3Entry(chain.covering(nextCloser(q, ce))),
    // §7.2.5: closest-encloser proof and the NSEC3 at the wildcard.
    wildcardNodata: (q, ce) => [
      ...nsec3Entry(chain.matching(ce)),
      ...nsec3Entry(chain.covering(nextCloser(q, ce))),
      ...nsec3Entry(chain.matching(WILDCARD + ce)),
    ],
  };
}

/** Denier per signing (one per snapshot). */
const deniers = new WeakMap<ZoneSigning, Denier>();

function denierOf(signing: ZoneSigning): Denier {
  let d = deniers.get(signing);
  if (d === undefined) {
    d = signing.nsec3 !== null ? chainDenier(signing.nsec3) : onlineDenier(signing);
    deniers.set(signing, d);
  }
  return d;
}

interface Proofs {
  readonly entries: readonly ProofEntry[];
  readonly ds: { owner: WireName; rrset: RRset } | null;
}

const NO_PROOFS: Proofs = { entries: [], ds: null };

/** ownerOf() of each answer entry, filled by proofs() for signSection(answer) (reused). */
const answerSources: (string | undefined)[] = [];

/** The denial records (and DS) this answer needs in its authority section. */
function proofs(plan: AnswerPlan, zone: ZoneSnapshot, signing: ZoneSigning, qnameKey: string): Proofs {
  const answer = plan.sections[0];
  const end = plan.kind === 'cname-follow' ? plan.chainEnd : plan.kind;
  let wildcardSources = false;
  for (let i = 0; i < answer.count; i++) {
    const source = signing.ownerOf(answer.sets[i]!);
    answerSources[i] = source;
    if (source !== undefined && source.startsWith(WILDCARD)) wildcardSources = true;
  }
  // The common positive answer needs no proof: nothing to allocate.
  if (!wildcardSources && end !== 'nxdomain' && end !== 'nodata' && end !== 'delegation') return NO_PROOFS;
  const denier = denierOf(signing);
  const entries: ProofEntry[] = [];
  let finalKey = qnameKey;
  for (let i = 0; i < answer.count; i++) {
    const rs = answer.sets[i]!;
    const ownerKey = answer.owners[i]?.keys[0] ?? qnameKey;
    if (rs.type === RR_TYPE.CNAME && rs.target) finalKey = rs.target.keys[0] ?? '';
    const source = answerSources[i];
    if (source !== undefined && source.startsWith(WILDCARD) && source !== ownerKey) {
      entries.push(...denier.wildcardAnswer(ownerKey, parentKey(source)));
    }
  }
  let ds: { owner: WireName; rrset: RRset } | null = null;
  if (end === 'nxdomain') {
    entries.push(...denier.nxdomain(finalKey, closestEncloser(signing, finalKey, zone.apexKey)));
  } else if (end === 'nodata') {
    if (signing.exists(finalKey)) entries.push(...denier.nodata(finalKey));
    else entries.push(...denier.wildcardNodata(finalKey, closestEncloser(signing, finalKey, zone.apexKey)));
  } else if (end === 'delegation') {
    const auth = plan.sections[1];
    const i = auth.sets.slice(0, auth.count).findIndex((rs) => rs.type === RR_TYPE.NS);
    const cut = i >= 0 ? auth.owners[i] : null;
    const node = cut ? zone.nodes.get(cut.keys[0] ?? '') : undefined;
    if (cut && node) {
      const dsSet = node.rrset(RR_TYPE.DS);
      if (dsSet) ds = { owner: cut, rrset: dsSet };
      else entries.push(...denier.nodata(cut.keys[0] ?? ''));
    }
  }
  const unique =
    entries.length < 2 ? entries : entries.filter((r, i) => entries.findIndex((o) => o.key === r.key) === i);
  return { entries: unique, ds };
}

function isDelegationNs(zone: ZoneSnapshot, rs: RRset, ownerKey: string): boolean {
  return rs.type === RR_TYPE.NS && ownerKey !== zone.apexKey && zone.nodes.get(ownerKey)?.delegation === true;
}

/** Adds RRSIGs and denial proofs to a resolved plan (see the file comment). */
export function signPlan(
  plan: AnswerPlan,
  zone: ZoneSnapshot,
  signing: ZoneSigning,
  qnameKey: string,
  qtype = 0,
): void {
  const auth = plan.sections[1];
  const online = signing.nsec3 === null;
  if (online && qtype === RR_TYPE.NSEC && plan.kind === 'nodata' && signing.exists(qnameKey)) {
    // The NSEC at an existing name is data (RFC 4470 §2): answer it rather than deny it.
    const at = nodataProof(signing.denial, qnameKey)[0]!;
    auth.count = 0;
    append(plan.sections[0], null, flatRRset(RR_TYPE.NSEC, signing.signer.nsecTtl, [nsecRdata(at)]), true);
    plan.kind = 'found';
    plan.chainEnd = 'found';
    signSection(plan.sections[0], 0, zone, signing, qnameKey, false);
    return;
  }
  if (!online && signNsec3Denial(plan, zone, signing, signing.nsec3!, qnameKey)) return;
  if (signWarmPositive(plan, signing, qnameKey)) return;
  // Stored NSEC3 records cost a hash and a search: no per-name cache to fill.
  const denialKey = online ? cacheableDenialKey(plan, qnameKey, qtype) : null;
  if (denialKey !== null && copyCachedDenial(plan, signing, denialKey)) return;
  const { entries, ds } = proofs(plan, zone, signing, qnameKey);
  if (ds) append(auth, ds.owner, ds.rrset, true);
  for (const e of entries) append(auth, e.owner, e.rrset, true);
  const answer = plan.sections[0];
  let hasDname = false;
  for (let i = 0; i < answer.count; i++) if (answer.sets[i]!.type === RR_TYPE.DNAME) hasDname = true;
  signSection(answer, 0, zone, signing, qnameKey, hasDname, answerSources);
  if (auth.count > 0) signSection(auth, 1, zone, signing, qnameKey, hasDname);
  const additional = plan.sections[2];
  if (additional.count > 0) signSection(additional, 2, zone, signing, qnameKey, hasDname);
  if (denialKey !== null) {
    signing.denials.set(
      denialKey,
      {
        owners: auth.owners.slice(0, auth.count),
        sets: auth.sets.slice(0, auth.count),
        mandatory: auth.mandatory.slice(0, auth.count),
      },
      signing.signer.nowMs(),
    );
  }
}

/** Start in `key` of the child of its ancestor that is `ancestorLength` long (the next closer name). */
function nextCloserOffset(key: string, ancestorLength: number): number {
  const end = key.length - ancestorLength;
  let p = 0;
  let label = 0;
  while (p < end) {
    label = p;
    p += key.charCodeAt(p) + 1;
  }
  return label;
}

/**
 * An NSEC3 record and its RRSIG as one RRset of two records (the writer copies flat records as
 * they are stored, whatever their type, and writes the owner once, then as a pointer), made once
 * per signature: an answer appends one entry instead of signing the NSEC3 per query.
 */
interface SignedNsec3 {
  readonly signer: ZoneSigner;
  readonly pair: RRset;
  /** Until then the signature is fresh (ZoneSigner.signedObjectEntry). */
  readonly refreshAtMs: number;
}

const signedNsec3 = new WeakMap<Nsec3Record, SignedNsec3>();

function signedPairOf(r: Nsec3Record, signer: ZoneSigner, nowMs: number): RRset {
  const hit = signedNsec3.get(r);
  if (hit !== undefined && hit.signer === signer && nowMs < hit.refreshAtMs) return hit.pair;
  const entry = signer.signedObjectEntry(r.rrset, r.ownerKey, rrsigRRset);
  const sig = entry.signed as RRset;
  const a = r.rrset;
  const data = new Uint8Array(a.data.length + sig.data.length);
  data.set(a.data, 0);
  data.set(sig.data, a.data.length);
  const pair = new RRset(RR_TYPE.NSEC3, a.ttl, 2, data, 0, SHAPE_FLAT, []);
  signedNsec3.set(r, { signer, pair, refreshAtMs: entry.refreshAtMs });
  return pair;
}

function appendNsec3(auth: PlanSection, r: Nsec3Record | undefined, signer: ZoneSigner, nowMs: number): void {
  if (r !== undefined) append(auth, r.owner, signedPairOf(r, signer, nowMs), true);
}

/**
 * A plain negative answer (NXDOMAIN or NODATA, nothing but the SOA in the authority section) from
 * the zone's NSEC3 chain (RFC 5155 §7.2.2, §7.2.3, §7.2.5): stored records appended, their
 * signatures found by identity; one hash of the next closer name, no allocation. False (nothing
 * changed) for any other answer.
 */
function signNsec3Denial(
  plan: AnswerPlan,
  zone: ZoneSnapshot,
  signing: ZoneSigning,
  chain: Nsec3Chain,
  qnameKey: string,
): boolean {
  if (plan.kind !== 'nxdomain' && plan.kind !== 'nodata') return false;
  if (plan.sections[0].count !== 0 || plan.sections[2].count !== 0) return false;
  const auth = plan.sections[1];
  const nodataAt = plan.kind === 'nodata' && signing.exists(qnameKey);
  let ce = qnameKey;
  if (!nodataAt) {
    ce = denialEncloser(plan, signing, qnameKey, zone.apexKey);
    if (ce === qnameKey) return false;
  }
  // The SOA and its RRSIG, then each NSEC3 with its RRSIG (as signSection would order them).
  signSection(auth, 1, zone, signing, qnameKey, false);
  const signer = signing.signer;
  const nowMs = signer.nowMs();
  if (nodataAt) {
    const match = chain.matching(qnameKey);
    if (match !== undefined)
      proveWith(plan, zone, chain, signer, nowMs, qnameKey, chain.indexOf(match), -1, -1);
    return true;
  }
  // No such name (or NODATA from the wildcard): closest-encloser proof, then the wildcard's
  // absence (NXDOMAIN) or the wildcard's NSEC3 (wildcard NODATA).
  const encloser = chain.encloserIndexes(ce);
  const m = encloser.match;
  const cover = chain.coveringSuffixIndex(qnameKey, nextCloserOffset(qnameKey, ce.length));
  let w = encloser.wildcardCover;
  if (plan.kind !== 'nxdomain') {
    const wildcard = chain.matching(WILDCARD + ce);
    w = wildcard === undefined ? -1 : chain.indexOf(wildcard);
  }
  proveWith(
    plan,
    zone,
    chain,
    signer,
    nowMs,
    qnameKey,
    m,
    cover === m ? -1 : cover,
    w === m || w === cover ? -1 : w,
  );
  return true;
}

/**
 * NSEC3 proofs go out as ready bytes. Tests turn this off to compare with the RRset path, which is
 * the reference: both must give the same bytes; `answers` counts the answers that took them.
 */
export const nsec3ReadyProofs = { enabled: true, answers: 0 };

/**
 * Appends the NSEC3 records at chain indexes a, b, c (-1: none) with their RRSIGs: as ready bytes
 * (nsec3-ready-records.ts), or as RRsets when the question name could hold an NSEC3 owner (a
 * 32-octet label right below the apex), where the writer would point into the question instead.
 */
function proveWith(
  plan: AnswerPlan,
  zone: ZoneSnapshot,
  chain: Nsec3Chain,
  signer: ZoneSigner,
  nowMs: number,
  qnameKey: string,
  a: number,
  b: number,
  c: number,
): void {
  if (!nsec3ReadyProofs.enabled || hashedLabelBelowApex(qnameKey, zone.apexKey.length)) {
    for (const i of [a, b, c]) if (i >= 0) appendNsec3(plan.sections[1], chain.at(i), signer, nowMs);
    return;
  }
  nsec3ReadyProofs.answers++;
  const ready = chain.ready();
  const out = plan.ready;
  out.apexLabels = zone.apexLabels;
  addReady(out, ready, chain, a, signer, nowMs);
  addReady(out, ready, chain, b, signer, nowMs);
  addReady(out, ready, chain, c, signer, nowMs);
  out.bytes = ready.bytes;
}

function addReady(
  out: AnswerPlan['ready'],
  ready: Nsec3ReadyRecords,
  chain: Nsec3Chain,
  i: number,
  signer: ZoneSigner,
  nowMs: number,
): void {
  if (i < 0) return;
  const n = out.count++;
  out.at[n] = ready.ensure(i, chain.at(i), signer, nowMs);
  out.length[n] = ready.lengthOf(i);
}

/** Hashed owner labels are 32 octets (base32hex of SHA-1, RFC 5155 §3.3). */
const HASHED_LABEL = 32;

/** Whether the label of `key` right below the apex (`apexLength` octets of key) is 32 octets long. */
function hashedLabelBelowApex(key: string, apexLength: number): boolean {
  const end = key.length - apexLength;
  let p = 0;
  while (p < end) {
    const next = p + key.charCodeAt(p) + 1;
    if (next === end) return key.charCodeAt(p) === HASHED_LABEL;
    p = next;
  }
  return false;
}

/**
 * The denial-cache key of a plain negative answer (no answer or additional data: its authority
 * section then depends on the query name and the kind alone), or null for any other answer.
 */
function cacheableDenialKey(plan: AnswerPlan, qnameKey: string, qtype: number): string | null {
  if (plan.kind !== 'nxdomain' && plan.kind !== 'nodata') return null;
  if (qtype === RR_TYPE.NSEC || plan.sections[0].count !== 0 || plan.sections[2].count !== 0) return null;
  return (plan.kind === 'nxdomain' ? 'x' : 'n') + qnameKey;
}

/** Replaces the authority section with a cached signed one; false when none is cached. */
function copyCachedDenial(plan: AnswerPlan, signing: ZoneSigning, key: string): boolean {
  const hit = signing.denials.get(key, signing.signer.nowMs());
  if (hit === undefined) return false;
  const auth = plan.sections[1];
  const n = hit.sets.length;
  for (let i = 0; i < n; i++) {
    auth.owners[i] = hit.owners[i]!;
    auth.sets[i] = hit.sets[i]!;
    auth.mandatory[i] = hit.mandatory[i]!;
  }
  auth.count = n;
  return true;
}

/** The RRSIG RRset of entry i of each section being signed (reused; cleared after use). */
const sigScratch: (RRset | null)[] = [];

/**
 * The warm positive answer: only an answer section (no authority or additional data), ending in
 * data, each RRset's encoded RRSIG RRset already cached by identity for the owner it is answered
 * under. Then it needs no proof — a cached signature under the answer's own owner means no
 * wildcard expansion (that is signed as the wildcard), no delegation NS and no synthesized CNAME
 * (neither is cached) — and costs one lookup per RRset. Returns false (nothing changed) otherwise.
 */
function signWarmPositive(plan: AnswerPlan, signing: ZoneSigning, qnameKey: string): boolean {
  const end = plan.kind === 'cname-follow' ? plan.chainEnd : plan.kind;
  if (end !== 'found' || plan.sections[1].count !== 0 || plan.sections[2].count !== 0) return false;
  const answer = plan.sections[0];
  const n = answer.count;
  if (n === 0) return false;
  const signer = signing.signer;
  const nowMs = signer.nowMs();
  for (let i = 0; i < n; i++) {
    const sig = signer.cachedObject<RRset>(answer.sets[i]!, answer.owners[i]?.keys[0] ?? qnameKey, nowMs);
    if (sig === undefined) {
      for (let j = 0; j < i; j++) sigScratch[j] = null;
      return false;
    }
    sigScratch[i] = sig;
  }
  answer.count = 2 * n;
  for (let i = n - 1; i >= 0; i--) {
    const sig = sigScratch[i]!;
    sigScratch[i] = null;
    const owner = answer.owners[i]!;
    answer.owners[2 * i + 1] = owner;
    answer.sets[2 * i + 1] = sig;
    answer.mandatory[2 * i + 1] = true;
    if (i !== 0) {
      answer.owners[2 * i] = owner;
      answer.sets[2 * i] = answer.sets[i]!;
      answer.mandatory[2 * i] = answer.mandatory[i]!;
    }
  }
  return true;
}

/** The RRSIG RRset of an entry, or null when it is not signed (see the file comment). */
function signatureOf(
  rs: RRset,
  owner: WireName | null,
  mandatory: boolean,
  section: number,
  zone: ZoneSnapshot,
  signing: ZoneSigning,
  qnameKey: string,
  hasDname: boolean,
  source: string | undefined,
): RRset | null {
  if (rs.type === RR_TYPE.RRSIG) return null;
  const ownerKey = owner?.keys[0] ?? qnameKey;
  if (isDelegationNs(zone, rs, ownerKey)) return null;
  if (source === undefined && rs.type === RR_TYPE.CNAME && hasDname) return null;
  if (section === 2 && (mandatory || !signing.exists(source ?? ownerKey))) return null;
  const signer = signing.signer;
  // Static RRsets (a wildcard expansion is its wildcard's RRset) and compiled load-balancer answers
  // are found by identity; only per-query RRsets (NSEC, synthesized CNAME) go by content.
  if (source !== undefined) return signer.signedObject(rs, source, rrsigRRset);
  // NSEC3 RRsets are the chain's stored records (the zone itself holds none outside the chain).
  if (rs.type === RR_TYPE.NSEC3 || signing.isCompiled(rs))
    return signer.signedObject(rs, ownerKey, rrsigRRset);
  return rrsigRRset(signer.sign(ownerKey, rs.type, rs.ttl, rs.rdatas), rs.ttl);
}

/**
 * Puts each entry's RRSIG RRset right after it, in place (from the end, so nothing is copied).
 * `sources`: ownerOf() of each entry when already looked up (the answer section, see proofs()).
 */
function signSection(
  sec: PlanSection,
  section: number,
  zone: ZoneSnapshot,
  signing: ZoneSigning,
  qnameKey: string,
  hasDname: boolean,
  sources: (string | undefined)[] | null = null,
): void {
  const n = sec.count;
  let total = n;
  for (let i = 0; i < n; i++) {
    const rs = sec.sets[i]!;
    let source: string | undefined;
    if (sources !== null) {
      source = sources[i];
      sources[i] = undefined;
    } else {
      source = signing.ownerOf(rs);
    }
    const sig = signatureOf(
      rs,
      sec.owners[i]!,
      sec.mandatory[i]!,
      section,
      zone,
      signing,
      qnameKey,
      hasDname,
      source,
    );
    sigScratch[i] = sig;
    if (sig !== null) total++;
  }
  sec.count = total;
  let j = total;
  for (let i = n - 1; i >= 0; i--) {
    const sig = sigScratch[i] ?? null;
    sigScratch[i] = null;
    const owner = sec.owners[i]!;
    if (sig !== null) {
      j--;
      sec.owners[j] = owner;
      sec.sets[j] = sig;
      sec.mandatory[j] = section !== 2;
    }
    j--;
    if (j !== i) {
      sec.owners[j] = owner;
      sec.sets[j] = sec.sets[i]!;
      sec.mandatory[j] = sec.mandatory[i]!;
    }
  }
}
