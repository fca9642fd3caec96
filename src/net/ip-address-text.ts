/**
 * IPv4 and IPv6 addresses in text and octets. Validation uses node:net; IPv6 is printed in the
 * RFC 5952 §4 canonical form, IPv4-mapped addresses in mixed notation (RFC 5952 §5).
 */
import { isIPv4, isIPv6 } from 'node:net';

/** Octets of a strict dotted-quad (no leading zeros, exactly four parts), or null. */
export function ipv4ToBytes(text: string): Uint8Array | null {
  if (!isIPv4(text)) return null;
  return Uint8Array.from(text.split('.').map(Number));
}

export function bytesToIpv4(b: Uint8Array): string {
  return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
}

function groupsOf(part: string): number[] {
  if (part === '') return [];
  const out: number[] = [];
  for (const g of part.split(':')) {
    if (g.includes('.')) {
      const v4 = ipv4ToBytes(g)!;
      out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    } else {
      out.push(parseInt(g, 16));
    }
  }
  return out;
}

/** Octets of an IPv6 address (zone identifiers such as `%eth0` are rejected), or null. */
export function ipv6ToBytes(text: string): Uint8Array | null {
  if (!isIPv6(text) || text.includes('%')) return null;
  const halves = text.split('::');
  const head = groupsOf(halves[0]!);
  const tail = halves.length > 1 ? groupsOf(halves[1]!) : [];
  const groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    out[i * 2] = g >>> 8;
    out[i * 2 + 1] = g & 0xff;
  });
  return out;
}

/** RFC 5952 text: lower case, no leading zeros, the longest run (≥ 2) of zero groups as `::`. */
export function bytesToIpv6(b: Uint8Array): string {
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((b[i]! << 8) | b[i + 1]!);
  // RFC 5952 §5: ::ffff:0:0/96 is written with the IPv4 part in dotted-quad notation.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `::ffff:${bytesToIpv4(b.subarray(12))}`;
  }
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}
