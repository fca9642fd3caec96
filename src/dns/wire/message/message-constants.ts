/** Wire-format constants and limits for DNS messages (RFC 1035 §2.3.4, §4.1; RFC 6891). */

export const HEADER_SIZE = 12;
/** RFC 1035 §2.3.4. */
export const LABEL_MAX = 63;
/** RFC 1035 §2.3.4: including length octets and the terminal zero. */
export const NAME_MAX = 255;
/** Maximum message over UDP without EDNS (RFC 1035 §4.2.1). */
export const UDP_PLAIN_MAX = 512;
/** Our advertised EDNS UDP payload size (DNS flag day 2020 value, as Knot). */
export const EDNS_PAYLOAD_OURS = 1232;
/** Maximum DNS message over TCP (RFC 1035 §4.2.2: two-octet length prefix). */
export const TCP_MAX = 65535;
/** Compression pointers address at most 14 bits (RFC 1035 §4.1.4). */
export const COMPRESSION_OFFSET_MAX = 0x3fff;

export const OPCODE_QUERY = 0;
/** RFC 1996. */
export const OPCODE_NOTIFY = 4;
/** RFC 2136. */
export const OPCODE_UPDATE = 5;

export const RCODE_NOERROR = 0;
export const RCODE_FORMERR = 1;
export const RCODE_SERVFAIL = 2;
export const RCODE_NXDOMAIN = 3;
export const RCODE_NOTIMP = 4;
export const RCODE_REFUSED = 5;
export const RCODE_YXDOMAIN = 6;
export const RCODE_NOTAUTH = 9;
/** Extended RCODE (RFC 6891 §6.1.3): upper 8 bits travel in the OPT TTL. */
export const RCODE_BADVERS = 16;

export const CLASS_IN = 1;
/** CHAOS (RFC 1035 §3.2.4). */
export const CLASS_CH = 3;
/** RFC 2136 §2.4. */
export const CLASS_NONE = 254;
export const CLASS_ANY = 255;

// RR type codes are not here: RR_TYPE (wire/rr-type.ts) is the one vocabulary of types.

/** EDNS option codes (IANA "DNS EDNS0 Option Codes"). */
/** RFC 5001 §2.3. */
export const EDNS_OPTION_NSID = 3;
export const EDNS_OPTION_CLIENT_SUBNET = 8;
/** RFC 7873 §4. */
export const EDNS_OPTION_COOKIE = 10;
export const EDNS_OPTION_EDE = 15;
/** RFC 8914 §4.21: "Not Authoritative". */
export const EDE_NOT_AUTHORITATIVE = 20;
