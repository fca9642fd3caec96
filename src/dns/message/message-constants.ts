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

/** Reserved (RFC 6895 §3.1). */
export const TYPE_RESERVED_0 = 0;
export const TYPE_A = 1;
export const TYPE_NS = 2;
export const TYPE_MD = 3;
export const TYPE_MF = 4;
export const TYPE_CNAME = 5;
export const TYPE_SOA = 6;
export const TYPE_MB = 7;
export const TYPE_MG = 8;
export const TYPE_MR = 9;
export const TYPE_PTR = 12;
export const TYPE_MINFO = 14;
export const TYPE_MX = 15;
export const TYPE_AAAA = 28;
export const TYPE_SRV = 33;
export const TYPE_DNAME = 39;
export const TYPE_OPT = 41;
export const TYPE_DS = 43;
export const TYPE_RRSIG = 46;
export const TYPE_NSEC = 47;
export const TYPE_IXFR = 251;
export const TYPE_AXFR = 252;
export const TYPE_ANY = 255;

/** EDNS option codes (IANA "DNS EDNS0 Option Codes"). */
export const EDNS_OPTION_CLIENT_SUBNET = 8;
export const EDNS_OPTION_EDE = 15;
/** RFC 8914 §4.21: "Not Authoritative". */
export const EDE_NOT_AUTHORITATIVE = 20;
