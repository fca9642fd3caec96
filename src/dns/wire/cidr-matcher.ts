/**
 * Pure IPv4/IPv6 address parsing and CIDR-list matching (RFC 4632 for IPv4 prefixes,
 * RFC 4291 §2.2–2.3 for IPv6 text forms and prefixes). No allocation per match beyond a
 * module-level scratch buffer, so it can sit on a per-query path.
 */

/** Bytes in an IPv6 address; IPv4 addresses use the first 4 bytes of the same buffer. */
export const IP_BYTES = 16;
const IPV4_BYTES = 4;
const IPV6_GROUPS = 8;
const MAX_GROUP = 0xffff;
const MAX_OCTET = 255;

/**
 * Parses `address` into `out` (at least 16 bytes). Returns 4 or 6 for the family, 0 when the
 * text is not an address. IPv4-mapped IPv6 (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2) is returned as
 * IPv4 so that dual-stack sockets and IPv4 rules agree. A zone index (`%eth0`) is ignored.
 */
export function parseIpInto(address: string, out: Uint8Array): 0 | 4 | 6 {
  if (address.indexOf(':') === -1) return parseIpv4(address, 0, address.length, out, 0) ? 4 : 0;
  const pct = address.indexOf('%');
  const end = pct === -1 ? address.length : pct;
  if (!parseIpv6(address, end, out)) return 0;
  // ::ffff:0:0/96 → IPv4.
  for (let i = 0; i < 10; i++) if (out[i] !== 0) return 6;
  if (out[10] !== 0xff || out[11] !== 0xff) return 6;
  out[0] = out[12]!;
  out[1] = out[13]!;
  out[2] = out[14]!;
  out[3] = out[15]!;
  return 4;
}

function parseIpv4(s: string, start: number, end: number, out: Uint8Array, at: number): boolean {
  let octet = 0;
  let digits = 0;
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2e) {
      if (digits === 0 || n === IPV4_BYTES - 1) return false;
      out[at + n++] = octet;
      octet = 0;
      digits = 0;
    } else if (c >= 0x30 && c <= 0x39) {
      // No leading zeros (ambiguous octal forms are rejected).
      if (digits > 0 && octet === 0) return false;
      octet = octet * 10 + (c - 0x30);
      if (octet > MAX_OCTET || ++digits > 3) return false;
    } else return false;
  }
  if (digits === 0 || n !== IPV4_BYTES - 1) return false;
  out[at + n] = octet;
  return true;
}

function parseIpv6(s: string, end: number, out: Uint8Array): boolean {
  const groups: number[] = [];
  let gap = -1;
  let i = 0;
  if (s.startsWith('::')) {
    gap = 0;
    i = 2;
    if (end === 2) return fill(groups, gap, out);
  }
  while (i < end) {
    let j = i;
    let value = 0;
    while (j < end && s.charCodeAt(j) !== 0x3a) j++;
    const part = s.slice(i, j);
    if (part.indexOf('.') !== -1) {
      // Embedded IPv4 must be last (RFC 4291 §2.2 form 3).
      if (j !== end || groups.length > IPV6_GROUPS - 2) return false;
      if (!parseIpv4(s, i, j, out, 12)) return false;
      groups.push((out[12]! << 8) | out[13]!, (out[14]! << 8) | out[15]!);
      return fill(groups, gap, out);
    }
    if (part.length === 0 || part.length > 4) return false;
    for (let k = 0; k < part.length; k++) {
      const d = hexValue(part.charCodeAt(k));
      if (d < 0) return false;
      value = (value << 4) | d;
    }
    if (value > MAX_GROUP) return false;
    groups.push(value);
    if (j === end) break;
    if (s.charCodeAt(j + 1) === 0x3a) {
      if (gap !== -1) return false;
      gap = groups.length;
      i = j + 2;
      if (i === end) break;
    } else {
      i = j + 1;
      if (i === end) return false;
    }
  }
  return fill(groups, gap, out);
}

function fill(groups: number[], gap: number, out: Uint8Array): boolean {
  if (groups.length > IPV6_GROUPS || (gap === -1 && groups.length !== IPV6_GROUPS)) return false;
  if (gap !== -1 && groups.length === IPV6_GROUPS) return false;
  const zeros = IPV6_GROUPS - groups.length;
  let g = 0;
  for (let k = 0; k < IPV6_GROUPS; k++) {
    let v = 0;
    if (gap !== -1 && k >= gap && k < gap + zeros) v = 0;
    else v = groups[g++]!;
    out[2 * k] = v >> 8;
    out[2 * k + 1] = v & 0xff;
  }
  return true;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

interface CidrRule {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
  readonly prefix: number;
}

export interface CidrMatcher {
  /** True when `address` (text form, as sockets report it) falls in one of the prefixes. */
  matches(address: string): boolean;
  readonly size: number;
}

/** Whether the first `prefix` bits of `a` and `b` agree. */
export function prefixEquals(a: Uint8Array, b: Uint8Array, prefix: number): boolean {
  const full = prefix >> 3;
  for (let i = 0; i < full; i++) if (a[i] !== b[i]) return false;
  const rest = prefix & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (a[full]! & mask) === (b[full]! & mask);
}

/**
 * Builds a matcher from entries like `127.0.0.0/8`, `::1`, `2001:db8::/32` (a bare address is a
 * host route). Throws on an invalid entry: configuration errors surface at start-up.
 */
export function createCidrMatcher(entries: readonly string[]): CidrMatcher {
  const rules: CidrRule[] = entries.map(parseCidr);
  const scratch = new Uint8Array(IP_BYTES);
  return {
    size: rules.length,
    matches(address: string): boolean {
      if (rules.length === 0) return false;
      const family = parseIpInto(address, scratch);
      if (family === 0) return false;
      for (const r of rules) if (r.family === family && prefixEquals(scratch, r.bytes, r.prefix)) return true;
      return false;
    },
  };
}

export function parseCidr(entry: string): CidrRule {
  const slash = entry.indexOf('/');
  const addr = slash === -1 ? entry.trim() : entry.slice(0, slash).trim();
  const bytes = new Uint8Array(IP_BYTES);
  // A rule written as IPv6 text stays IPv6 unless it is IPv4-mapped.
  const family = parseIpInto(addr, bytes);
  if (family === 0) throw new Error(`invalid CIDR address: ${entry}`);
  const max = family === 4 ? 32 : 128;
  let prefix = max;
  if (slash !== -1) {
    const p = entry.slice(slash + 1).trim();
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p)) throw new Error(`invalid CIDR prefix: ${entry}`);
    prefix = Number(p);
    // ::ffff:a.b.c.d/n with n ≥ 96 is an IPv4 prefix of n − 96 bits.
    if (family === 4 && addr.indexOf(':') !== -1) prefix -= 96;
    if (prefix < 0 || prefix > max) throw new Error(`invalid CIDR prefix: ${entry}`);
  }
  return { family, bytes, prefix };
}
