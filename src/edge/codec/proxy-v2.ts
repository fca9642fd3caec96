/**
 * The PROXY protocol, version 2 (haproxy's proxy-protocol.txt, §2.2): a binary header an upstream
 * reads before the stream to learn the player's address. The edge writes it (`proxy_protocol` on a
 * route) and reads it from a trusted load balancer in front (EDGE_TRUSTED_PROXIES). Only the
 * PROXY command over TCP is written: family 0x11 (IPv4) or 0x21 (IPv6), by the player's address.
 */
import { isIPv4, isIPv6 } from 'node:net';

export const PROXY_V2_SIGNATURE = Buffer.from([
  0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a,
]);
/** Signature, version/command, family, length. */
const HEADER_BYTES = 16;
const V2_PROXY = 0x21;
const V2_LOCAL = 0x20;
const TCP4 = 0x11;
const TCP6 = 0x21;

export interface ProxiedAddresses {
  readonly sourceAddress: string;
  readonly sourcePort: number;
  readonly destinationAddress: string;
  readonly destinationPort: number;
}

/** `::ffff:a.b.c.d` as Node reports an IPv4 peer on a dual-stack socket → `a.b.c.d`. */
export function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
}

function ipv6Bytes(address: string): Buffer {
  const [head, tail = ''] = address.split('::') as [string, string?];
  const groups = (s: string): string[] => (s === '' ? [] : s.split(':'));
  let h = groups(head);
  let t = groups(tail);
  const last = (t.length > 0 ? t : h).at(-1);
  // An embedded IPv4 tail (`::ffff:1.2.3.4`) is two groups.
  if (last !== undefined && isIPv4(last)) {
    const v4 = last.split('.').map(Number);
    const two = [((v4[0]! << 8) | v4[1]!).toString(16), ((v4[2]! << 8) | v4[3]!).toString(16)];
    if (t.length > 0) t = [...t.slice(0, -1), ...two];
    else h = [...h.slice(0, -1), ...two];
  }
  const all = address.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  const out = Buffer.alloc(16);
  all.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}

/** The header for a connection from `source` to `destination` (the edge's own address and port). */
export function proxyV2Header(a: ProxiedAddresses): Buffer {
  const src = plainAddress(a.sourceAddress);
  const dst = plainAddress(a.destinationAddress);
  const v4 = isIPv4(src);
  // Both addresses in the player's family: an IPv4 player behind an IPv6 listener keeps IPv4.
  const dstBytes = (fam4: boolean): Buffer =>
    fam4
      ? isIPv4(dst)
        ? Buffer.from(dst.split('.').map(Number))
        : Buffer.alloc(4)
      : isIPv6(dst)
        ? ipv6Bytes(dst)
        : ipv6Bytes(`::ffff:${dst}`);
  const srcBytes = v4 ? Buffer.from(src.split('.').map(Number)) : ipv6Bytes(src);
  const body = Buffer.concat([srcBytes, dstBytes(v4), Buffer.alloc(4)]);
  body.writeUInt16BE(a.sourcePort, body.length - 4);
  body.writeUInt16BE(a.destinationPort, body.length - 2);
  const head = Buffer.alloc(HEADER_BYTES);
  PROXY_V2_SIGNATURE.copy(head, 0);
  head[12] = V2_PROXY;
  head[13] = v4 ? TCP4 : TCP6;
  head.writeUInt16BE(body.length, 14);
  return Buffer.concat([head, body]);
}

function ipv6Text(b: Buffer, at: number): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(b.readUInt16BE(at + i).toString(16));
  return groups.join(':');
}

/**
 * A header at the start of `buf`: the addresses (null for LOCAL or an unspecified family) and the
 * bytes it took; 'more' while it is arriving; 'invalid' when `buf` does not start with one.
 */
export function parseProxyV2(
  buf: Buffer,
): { readonly addresses: ProxiedAddresses | null; readonly length: number } | 'more' | 'invalid' {
  const sig = Math.min(buf.length, PROXY_V2_SIGNATURE.length);
  if (!buf.subarray(0, sig).equals(PROXY_V2_SIGNATURE.subarray(0, sig))) return 'invalid';
  if (buf.length < HEADER_BYTES) return 'more';
  const cmd = buf[12]!;
  if (cmd !== V2_PROXY && cmd !== V2_LOCAL) return 'invalid';
  const length = HEADER_BYTES + buf.readUInt16BE(14);
  if (buf.length < length) return 'more';
  const fam = buf[13]!;
  if (cmd === V2_LOCAL || (fam !== TCP4 && fam !== TCP6)) return { addresses: null, length };
  const v4 = fam === TCP4;
  const need = v4 ? 12 : 36;
  if (length - HEADER_BYTES < need) return 'invalid';
  const at = HEADER_BYTES;
  const addr = (o: number): string => (v4 ? [...buf.subarray(o, o + 4)].join('.') : ipv6Text(buf, o));
  const size = v4 ? 4 : 16;
  return {
    addresses: {
      sourceAddress: addr(at),
      destinationAddress: addr(at + size),
      sourcePort: buf.readUInt16BE(at + 2 * size),
      destinationPort: buf.readUInt16BE(at + 2 * size + 2),
    },
    length,
  };
}
