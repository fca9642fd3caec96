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
 */
import { createCidrMatcher, type CidrMatcher } from '../server/cidr-matcher.ts';
import { nameKey } from '../wire/name-text.ts';
import type { ZoneData, ZoneRecordData } from '../zone/zone-data.ts';
import {
  emptyResponse,
  packMessages,
  RCODE_FORMERR,
  RCODE_NOTAUTH,
  RCODE_REFUSED,
  recordWire,
} from './transfer-messages.ts';
import type { ZoneTransferPolicy } from './transfer-policy.ts';
import {
  parseTransferQuery,
  QTYPE_AXFR,
  QTYPE_IXFR,
  QTYPE_SOA,
  TransferFormatError,
  type TransferQuery,
} from './transfer-query.ts';
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

  async function handle(query: Uint8Array, clientAddress: string): Promise<TransferResult> {
    let q: TransferQuery;
    try {
      q = parseTransferQuery(query);
    } catch (error) {
      if (!(error instanceof TransferFormatError) || query.length < 4) throw error;
      const id = (query[0]! << 8) | query[1]!;
      const flags = (query[2]! << 8) | query[3]!;
      return {
        messages: [emptyResponse(id, flags, null, RCODE_FORMERR)],
        zoneId: null,
        qtype: 0,
        rcode: RCODE_FORMERR,
      };
    }
    const fail = (rcode: number, zoneId: number | null): TransferResult => ({
      messages: [emptyResponse(q.id, q.flags, q.question, rcode)],
      zoneId,
      qtype: q.qtype,
      rcode,
    });
    const zone = opts.zones.get(nameKey(q.qnameLabels));
    const policy = zone?.transfer;
    if (zone === undefined || policy === undefined) return fail(RCODE_REFUSED, null);

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
        return { messages: [message], zoneId: zone.id, qtype: q.qtype, rcode: RCODE_NOTAUTH };
      }
      signer = new TsigSigner(verdict.key, verdict.mac, now);
    }
    const sign = (messages: Buffer[]): Buffer[] =>
      signer === null ? messages : messages.map((m) => signer.sign(m));
    if (!allowed(policy, clientAddress) || (policy.tsig !== null && signer === null)) {
      return { ...fail(RCODE_REFUSED, zone.id), messages: sign(fail(RCODE_REFUSED, zone.id).messages) };
    }
    const records = await answerRecords(q, zone);
    if (records === null) {
      return { ...fail(RCODE_FORMERR, zone.id), messages: sign(fail(RCODE_FORMERR, zone.id).messages) };
    }
    return {
      messages: sign(packMessages(q.id, q.flags, q.question, records)),
      zoneId: zone.id,
      qtype: q.qtype,
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
    if (q.qtype === QTYPE_SOA) return [soaWire];
    if (q.qtype === QTYPE_AXFR) return full();
    if (q.qtype !== QTYPE_IXFR || q.clientSerial === null) return null;
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

  return { handle };
}
