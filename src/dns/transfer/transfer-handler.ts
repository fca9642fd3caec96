/**
 * Serves zone transfers out over TCP: AXFR (RFC 5936), IXFR (RFC 1995) from kept history, and
 * signed SOA queries of secondaries. Contract:
 * - Unknown zone, or a zone without a transfer policy: REFUSED.
 * - A TSIG RR that does not verify: NOTAUTH with the TSIG error (RFC 8945 §5.2), BADKEY/BADSIG
 *   unsigned, BADTIME signed.
 * - Source address outside `allowFrom`, or no TSIG when the policy has a key: REFUSED.
 * - IXFR whose serial is current or newer: the current SOA alone (RFC 1995 §2); whose serial is
 *   in the history: one condensed difference sequence (RFC 1995 §4/§5); else the whole zone in
 *   AXFR form (RFC 1995 §4).
 * - Responses to signed queries are signed, every message (RFC 8945 §5.3.1).
 * - IXFR over UDP (`handleUdp`, RFC 1995 §2): after the same checks, the current SOA alone, which
 *   tells the client to ask again over TCP; Knot 3.2 answers the same whatever the client's serial.
 *   A zone without a transfer policy is left to the normal answer path (NOTAUTH, as Knot).
 */
import { createCidrMatcher, type CidrMatcher } from '../wire/cidr-matcher.ts';
import { nameKey } from '../wire/name-text.ts';
import type { ZoneData, ZoneRecordData } from '../zone/zone-data.ts';
import { RCODE_FORMERR, RCODE_NOTAUTH, RCODE_REFUSED } from '../wire/message/message-constants.ts';
import { RR_TYPE } from '../wire/rr-type.ts';
import { emptyResponse, FLAG_AA, packMessages, recordWire } from './transfer-messages.ts';
import type { ZoneTransferPolicy } from './transfer-policy.ts';
import { parseTransferQuery, TransferFormatError, type TransferQuery } from './transfer-query.ts';
import type { TransferZones } from './transfer-zones.ts';
import { badTimeResponse, TsigSigner, TSIG_BADTIME, unsignedTsigError, verifyRequest } from './tsig-hmac.ts';
import { diffRecords, findSoa } from './zone-diff.ts';

/** Earlier versions of a zone's records, kept by the control plane (IXFR). */
export interface ZoneVersionSource {
  /** The records the zone had at `serial`, or null when that version is not kept. */
  recordsAt(zoneId: number, serial: number): Promise<readonly ZoneRecordData[] | null>;
}

export interface TransferHandlerOptions {
  readonly zones: TransferZones;
  /** null: no history, IXFR always falls back to a full transfer. */
  readonly history: ZoneVersionSource | null;
  readonly nowS?: () => number;
}

export interface TransferResult {
  /** Response messages, in order, unframed. */
  readonly messages: Buffer[];
  readonly zoneId: number | null;
  readonly qtype: number;
  readonly rcode: number;
}

export interface TransferHandler {
  handle(query: Uint8Array, clientAddress: string): Promise<TransferResult>;
  /**
   * IXFR arriving over UDP: one response message, or null when the query is not an IXFR for a
   * zone with a transfer policy (answer it normally). Synchronous: no history is read.
   */
  handleUdp(query: Uint8Array, clientAddress: string): TransferResult | null;
}

const HALF = 2 ** 31;
/** RFC 1982 §3.2: a ≥ b in serial arithmetic. */
function serialAtLeast(a: number, b: number): boolean {
  return a === b || (a > b && a - b < HALF) || (a < b && b - a > HALF);
}

export function createTransferHandler(opts: TransferHandlerOptions): TransferHandler {
  const nowS = opts.nowS ?? ((): number => Math.floor(Date.now() / 1000));
  const matchers = new WeakMap<ZoneTransferPolicy, CidrMatcher | null>();
  const allowed = (policy: ZoneTransferPolicy, address: string): boolean => {
    let m = matchers.get(policy);
    if (m === undefined) {
      try {
        m = createCidrMatcher(policy.allowFrom);
      } catch {
        m = null; // an unreadable list allows nobody
      }
      matchers.set(policy, m);
    }
    return m !== null && m.matches(address);
  };

  /** A query allowed to transfer `zone`, and how to sign what answers it. */
  interface Authorized {
    readonly q: TransferQuery;
    readonly zone: ZoneData;
    readonly sign: (messages: Buffer[]) => Buffer[];
    readonly fail: (rcode: number) => TransferResult;
  }

  /** Why a query may not transfer: the answer, and whether the zone has a transfer policy at all. */
  interface Denied {
    readonly denied: TransferResult;
    readonly policy: boolean;
  }

  /**
   * The checks every transfer query passes: parse (FORMERR), zone and policy (REFUSED), TSIG
   * (NOTAUTH), source and key (REFUSED).
   */
  function authorize(query: Uint8Array, clientAddress: string): Authorized | Denied {
    let q: TransferQuery;
    try {
      q = parseTransferQuery(query);
    } catch (error) {
      if (!(error instanceof TransferFormatError) || query.length < 4) throw error;
      const id = (query[0]! << 8) | query[1]!;
      const flags = (query[2]! << 8) | query[3]!;
      const messages = [emptyResponse(id, flags, null, RCODE_FORMERR)];
      return { denied: { messages, zoneId: null, qtype: 0, rcode: RCODE_FORMERR }, policy: false };
    }
    const unsignedFail = (rcode: number, zoneId: number | null): TransferResult => ({
      messages: [emptyResponse(q.id, q.flags, q.question, rcode)],
      zoneId,
      qtype: q.qtype,
      rcode,
    });
    const zone = opts.zones.get(nameKey(q.qnameLabels));
    const policy = zone?.transfer;
    if (zone === undefined || policy === undefined) {
      return { denied: unsignedFail(RCODE_REFUSED, null), policy: false };
    }

    let signer: TsigSigner | null = null;
    if (q.tsig !== null) {
      const now = nowS();
      const verdict = verifyRequest(query, q.tsig, policy.tsig, now);
      if (!verdict.ok) {
        const base = emptyResponse(q.id, q.flags, q.question, RCODE_NOTAUTH);
        const message =
          verdict.error === TSIG_BADTIME && policy.tsig !== null
            ? badTimeResponse(base, q.tsig, policy.tsig, now)
            : unsignedTsigError(base, q.tsig, verdict.error);
        return {
          denied: { messages: [message], zoneId: zone.id, qtype: q.qtype, rcode: RCODE_NOTAUTH },
          policy: true,
        };
      }
      signer = new TsigSigner(verdict.key, verdict.mac, now);
    }
    const sign = (messages: Buffer[]): Buffer[] =>
      signer === null ? messages : messages.map((m) => signer.sign(m));
    const fail = (rcode: number): TransferResult => {
      const r = unsignedFail(rcode, zone.id);
      return { ...r, messages: sign(r.messages) };
    };
    if (!allowed(policy, clientAddress) || (policy.tsig !== null && signer === null)) {
      return { denied: fail(RCODE_REFUSED), policy: true };
    }
    return { q, zone, sign, fail };
  }

  async function handle(query: Uint8Array, clientAddress: string): Promise<TransferResult> {
    const a = authorize(query, clientAddress);
    if ('denied' in a) return a.denied;
    const records = await answerRecords(a.q, a.zone);
    if (records === null) return a.fail(RCODE_FORMERR);
    return {
      messages: a.sign(packMessages(a.q.id, a.q.flags, a.q.question, records)),
      zoneId: a.zone.id,
      qtype: a.q.qtype,
      rcode: 0,
    };
  }

  function handleUdp(query: Uint8Array, clientAddress: string): TransferResult | null {
    const a = authorize(query, clientAddress);
    if ('denied' in a) return a.policy ? a.denied : null;
    if (a.q.qtype !== RR_TYPE.IXFR) return null;
    const soa = findSoa(a.zone.records, a.zone.domain);
    // No SOA in the query's authority section: the request is malformed (RFC 1995 §3).
    if (soa === null || a.q.clientSerial === null) return a.fail(RCODE_FORMERR);
    const message = packMessages(a.q.id, a.q.flags, a.q.question, [recordWire(soa)])[0]!;
    // AA clear, as Knot 3.2 answers it (checked side by side in test/e2e/zone-transfer-udp.test.ts).
    message[2]! &= ~(FLAG_AA >> 8);
    return {
      messages: a.sign([message]),
      zoneId: a.zone.id,
      qtype: a.q.qtype,
      rcode: 0,
    };
  }

  /** The answer RRs in transfer order, or null for a malformed request. */
  async function answerRecords(q: TransferQuery, zone: ZoneData): Promise<Uint8Array[] | null> {
    const soa = findSoa(zone.records, zone.domain);
    if (soa === null) return null;
    const soaWire = recordWire(soa);
    const full = (): Uint8Array[] => [
      soaWire,
      ...zone.records.filter((r) => r !== soa).map(recordWire),
      soaWire,
    ];
    if (q.qtype === RR_TYPE.SOA) return [soaWire];
    if (q.qtype === RR_TYPE.AXFR) return full();
    if (q.qtype !== RR_TYPE.IXFR || q.clientSerial === null) return null;
    // RFC 1995 §2: a client as new as we are (or newer) gets our SOA alone.
    if (serialAtLeast(q.clientSerial, zone.serial)) return [soaWire];
    const old = opts.history === null ? null : await opts.history.recordsAt(zone.id, q.clientSerial);
    const oldSoa = old === null ? null : findSoa(old, zone.domain);
    if (old === null || oldSoa === null) return full();
    const diff = diffRecords(old, zone.records);
    return [
      soaWire,
      recordWire(oldSoa),
      ...diff.removed.map(recordWire),
      soaWire,
      ...diff.added.map(recordWire),
      soaWire,
    ];
  }

  return { handle, handleUdp };
}
