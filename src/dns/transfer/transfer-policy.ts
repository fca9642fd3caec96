/**
 * Per-zone zone-transfer policy as the control plane hands it to the data plane.
 * Plain data: the TSIG secret is in clear here (decrypted by the control plane) and must never be
 * logged or sent anywhere but into the HMAC.
 */

/** The one TSIG algorithm offered (RFC 8945 §6: HMAC-SHA256 is mandatory to implement). */
export const TSIG_HMAC_SHA256 = 'hmac-sha256';

export interface TransferTsigKey {
  /** Key name in stored form: lower case, no trailing dot (it is a domain name, RFC 8945 §4.2). */
  readonly name: string;
  readonly algorithm: typeof TSIG_HMAC_SHA256;
  readonly secret: Uint8Array;
}

export interface ZoneTransferPolicy {
  /** Addresses or CIDR prefixes a transfer may come from; empty: none may. */
  readonly allowFrom: readonly string[];
  /** When set, every transfer must be signed with this key (RFC 8945) as well. */
  readonly tsig: TransferTsigKey | null;
}

declare module '../zone/zone-data.ts' {
  interface ZoneData {
    /** Zone transfers out (AXFR/IXFR over TCP); absent: the zone is not transferred to anyone. */
    readonly transfer?: ZoneTransferPolicy;
  }
}
