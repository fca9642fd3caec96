/**
 * The signing material the control plane hands the data plane with a zone (ZoneData.dnssec):
 * plain data, no behaviour. The DNSKEY, CDS and CDNSKEY RRsets themselves are ordinary apex records
 * of ZoneData.records (they exist whether or not a query sets DO); this carries what is needed to
 * sign online (RFC 4035 §2, RFC 4470).
 */

/** DNSSEC algorithm numbers we sign with (IANA "DNS Security Algorithm Numbers"). */
export const DNSSEC_ALGORITHM = {
  /** RFC 6605: ECDSA over P-256 with SHA-256; the default. */
  ECDSAP256SHA256: 13,
  /** RFC 8080: Ed25519 (pure EdDSA). */
  ED25519: 15,
} as const;

export type DnssecAlgorithm = (typeof DNSSEC_ALGORITHM)[keyof typeof DNSSEC_ALGORITHM];

/** Mnemonics as in the IANA registry and presentation formats (RFC 8624 §3.1). */
export const DNSSEC_ALGORITHM_NAME: Readonly<Record<DnssecAlgorithm, string>> = {
  13: 'ECDSAP256SHA256',
  15: 'ED25519',
};

/** DNSKEY flags (RFC 4034 §2.1.1, RFC 3757): Zone Key, plus Secure Entry Point for a KSK. */
export const DNSKEY_FLAGS_ZSK = 256;
export const DNSKEY_FLAGS_KSK = 257;

/** One key the data plane signs with. */
export interface DnssecSigningKey {
  readonly algorithm: DnssecAlgorithm;
  /** RFC 4034 Appendix B key tag of the key's DNSKEY RDATA. */
  readonly keyTag: number;
  /** The private key, PKCS #8 DER, decrypted (never leaves the process that loaded it). */
  readonly privateKeyPkcs8: Uint8Array;
}

export interface ZoneDnssec {
  readonly algorithm: DnssecAlgorithm;
  /** Signs the DNSKEY, CDS and CDNSKEY RRsets (RFC 4035 §2.1, RFC 7344 §4.1). */
  readonly ksk: DnssecSigningKey;
  /** Signs every other RRset of the zone, synthesized ones included. */
  readonly zsk: DnssecSigningKey;
  /**
   * TTL of the NSEC records (RFC 4034 §4, RFC 9077 §3.3): min(SOA TTL, SOA MINIMUM), the same as
   * the negative-caching TTL of the SOA in negative answers (RFC 2308 §3).
   */
  readonly nsecTtl: number;
  /**
   * How negative answers are proven (RFC 4035 §3.1.3): "nsec3", an NSEC3 chain (RFC 5155, RFC 9276
   * parameters) made and signed with the zone, answers assembled from stored records; "online",
   * minimally covering NSEC records signed per answer (RFC 4470, nsec-denial.ts). Absent: "online".
   * With "nsec3" the apex carries the NSEC3PARAM RRset (NSEC3PARAM_RDATA) among ZoneData.records.
   */
  readonly denial?: DnssecDenial;
}

export type DnssecDenial = 'nsec3' | 'online';

declare module '../zone/zone-data.ts' {
  interface ZoneData {
    /**
     * Signing material when the zone is signed (its DNSKEY/CDS/CDNSKEY are in `records`); absent
     * for an unsigned zone. Answers to queries with DO set are then signed online.
     */
    readonly dnssec?: ZoneDnssec;
  }
}
