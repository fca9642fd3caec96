/**
 * Which origin addresses a health check (and a load-balanced answer) may target. Pure: the
 * control API judges member addresses with it on create and update, and the health checker
 * judges the address again at connect time.
 *
 * Special-purpose ranges follow the IANA IPv4 and IPv6 Special-Purpose Address Registries
 * (RFC 6890 and successors). Addresses that embed an IPv4 address (IPv4-mapped ::ffff:0:0/96,
 * NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by the embedded address.
 */
import { bytesToIpv4, bytesToIpv6, ipv4ToBytes, ipv6ToBytes } from '../../../dns/wire/ip-address-text.ts';

/** `private` and `loopback` may be allowed by configuration; `reserved` never is. */
export type AddressClass = 'public' | 'private' | 'loopback' | 'reserved';

export interface ParsedAddress {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
  /** Dotted quad, or RFC 5952 text for IPv6. */
  readonly canonical: string;
}

/** A strict IPv4 dotted quad or an IPv6 address (no zone id) → octets and canonical text; else null. */
export function parseAddress(text: string): ParsedAddress | null {
  const v4 = ipv4ToBytes(text);
  if (v4 !== null) return { family: 4, bytes: v4, canonical: bytesToIpv4(v4) };
  const v6 = ipv6ToBytes(text);
  if (v6 !== null) return { family: 6, bytes: v6, canonical: bytesToIpv6(v6) };
  return null;
}

type Range = readonly [prefix: readonly number[], bits: number, cls: AddressClass];

// Longest match wins where ranges nest (the globally reachable exceptions are /32s and /128s).
const V4_RANGES: readonly Range[] = [
  [[0, 0, 0, 0], 8, 'reserved'], // "this network" (RFC 791)
  [[10, 0, 0, 0], 8, 'private'], // RFC 1918
  [[100, 64, 0, 0], 10, 'private'], // shared address space (RFC 6598)
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'reserved'], // link local, cloud metadata services
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'reserved'], // IETF protocol assignments
  [[192, 0, 0, 9], 32, 'public'], // PCP anycast (RFC 7723), globally reachable
  [[192, 0, 0, 10], 32, 'public'], // TURN anycast (RFC 8155), globally reachable
  [[192, 0, 2, 0], 24, 'reserved'], // TEST-NET-1
  [[192, 88, 99, 0], 24, 'reserved'], // deprecated 6to4 relay anycast
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'reserved'], // benchmarking
  [[198, 51, 100, 0], 24, 'reserved'], // TEST-NET-2
  [[203, 0, 113, 0], 24, 'reserved'], // TEST-NET-3
  [[224, 0, 0, 0], 4, 'reserved'], // multicast
  [[240, 0, 0, 0], 4, 'reserved'], // reserved, limited broadcast 255.255.255.255 included
];

const V6_RANGES: readonly Range[] = [
  [[0x20, 0x01], 23, 'reserved'], // IETF protocol assignments (Teredo 2001::/32 included)
  [[0x20, 0x01, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01], 128, 'public'], // PCP anycast
  [[0x20, 0x01, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02], 128, 'public'], // TURN anycast
  [[0x20, 0x01, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x03], 128, 'public'], // DNS-SD SRP anycast
  [[0x20, 0x01, 0x00, 0x03], 32, 'public'], // AMT (RFC 7450)
  [[0x20, 0x01, 0x00, 0x04, 0x01, 0x12], 48, 'public'], // AS112-v6 (RFC 7535)
  [[0x20, 0x01, 0x00, 0x20], 28, 'public'], // ORCHIDv2 (RFC 7343)
  [[0x20, 0x01, 0x00, 0x30], 28, 'public'], // drone remote ID (RFC 9374)
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'reserved'], // documentation
  [[0x3f, 0xff], 20, 'reserved'], // documentation (RFC 9637)
  [[0x5f, 0x00], 16, 'reserved'], // SRv6 SIDs (RFC 9602)
];

function inPrefix(bytes: Uint8Array, prefix: readonly number[], bits: number): boolean {
  for (let i = 0; i * 8 < bits; i++) {
    const mask = bits - i * 8 >= 8 ? 0xff : (0xff << (8 - (bits - i * 8))) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function longestMatch(bytes: Uint8Array, ranges: readonly Range[]): AddressClass | null {
  let best: Range | null = null;
  for (const r of ranges) if (inPrefix(bytes, r[0], r[1]) && (best === null || r[1] > best[1])) best = r;
  return best?.[2] ?? null;
}

function classifyV4(b: Uint8Array): AddressClass {
  return longestMatch(b, V4_RANGES) ?? 'public';
}

const zeroUpTo = (b: Uint8Array, end: number): boolean => b.subarray(0, end).every((x) => x === 0);

function classifyV6(b: Uint8Array): AddressClass {
  if (zeroUpTo(b, 15)) return b[15] === 1 ? 'loopback' : 'reserved'; // ::1, and :: unspecified
  if (zeroUpTo(b, 10) && b[10] === 0xff && b[11] === 0xff) return classifyV4(b.subarray(12)); // ::ffff:0:0/96
  if (inPrefix(b, [0, 0x64, 0xff, 0x9b], 96)) return classifyV4(b.subarray(12)); // NAT64 well-known prefix
  if (b[0] === 0x20 && b[1] === 0x02) return classifyV4(b.subarray(2, 6)); // 6to4
  if ((b[0]! & 0xfe) === 0xfc) return 'private'; // unique local fc00::/7
  const special = longestMatch(b, V6_RANGES);
  if (special !== null) return special;
  // Outside 2000::/3 nothing is global unicast: ::/96 (IPv4-compatible), 100::/64 (discard),
  // 64:ff9b:1::/48 (local NAT64), fe80::/10 link local, fec0::/10 site local, ff00::/8 multicast...
  return (b[0]! & 0xe0) === 0x20 ? 'public' : 'reserved';
}

/** The class of an address in text form, or null when it is not an IP address. */
export function classifyAddress(text: string): AddressClass | null {
  const parsed = parseAddress(text);
  if (parsed === null) return null;
  return parsed.family === 4 ? classifyV4(parsed.bytes) : classifyV6(parsed.bytes);
}

/** Whether a check may connect to an address of this class; `allowPrivate` admits private and loopback. */
export function isAllowedTarget(cls: AddressClass, allowPrivate: boolean): boolean {
  return cls === 'public' || (allowPrivate && (cls === 'private' || cls === 'loopback'));
}
