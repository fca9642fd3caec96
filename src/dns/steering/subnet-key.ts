import { ipv6ToBytes } from '../../net/ip-address-text.ts';

/**
 * Session-affinity keys: an unsigned 32-bit hash of a client subnet (address masked to a prefix),
 * and the per-(subnet, candidate) uniform draw used by rendezvous hashing. Deterministic across
 * processes and restarts, so every node of the fleet sends a subnet to the same member.
 */

const scratch = new Uint8Array(16);

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of bytes[0, length) masked to `prefix` bits, mixed with family and prefix (FNV-1a + fmix). */
export function subnetKeyOfBytes(bytes: Uint8Array, length: number, family: 4 | 6, prefix: number): number {
  let h = 0x811c9dc5 ^ (family * 257 + prefix);
  const full = prefix >>> 3;
  const rest = prefix & 7;
  for (let i = 0; i < length && i * 8 < prefix; i++) {
    let b = bytes[i]!;
    if (i === full && rest > 0) b &= (0xff << (8 - rest)) & 0xff;
    h = Math.imul(h ^ b, 0x01000193);
  }
  return fmix32(h);
}

/** Dotted quad into scratch; false when not one. No allocation. */
function parseV4(text: string): boolean {
  let part = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      if (value > 255 || ++digits > 3) return false;
    } else if (c === 46 && digits > 0 && part < 3) {
      scratch[part++] = value;
      value = 0;
      digits = 0;
    } else {
      return false;
    }
  }
  if (digits === 0 || part !== 3) return false;
  scratch[3] = value;
  return true;
}

/** Key of `ip` (text) masked to `prefix`; 0 for text that is not an address. */
export function subnetKeyOfText(ip: string, prefix: number): number {
  if (parseV4(ip)) return subnetKeyOfBytes(scratch, 4, 4, Math.min(prefix, 32));
  const v6 = ipv6ToBytes(ip);
  return v6 === null ? 0 : subnetKeyOfBytes(v6, 16, 6, Math.min(prefix, 128));
}

/** Uniform in (0, 1) from (subnet key, candidate id): the `u` of rendezvous hashing. */
export function rendezvousUniform(key: number, id: number): number {
  const h = fmix32(fmix32(key ^ Math.imul(id | 0, 0x9e3779b1)) + 0x6a09e667);
  return (h + 0.5) / 4294967296;
}
