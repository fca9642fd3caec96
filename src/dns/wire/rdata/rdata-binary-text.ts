/**
 * Strict hex, base64 (RFC 4648 §4) and base32hex (RFC 4648 §7) for RDATA fields. Node's Buffer
 * decoders skip invalid characters silently, so input is checked before decoding.
 */
import { Buffer } from 'node:buffer';

const HEX = /^[0-9a-fA-F]*$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE32HEX_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUV';
const BASE32HEX = /^[0-9A-Va-v]*$/;

/** Octets of hex text, or null when it is not an even number of hex digits. */
export function hexToBytes(text: string): Uint8Array | null {
  if (!HEX.test(text) || text.length % 2 !== 0) return null;
  return new Uint8Array(Buffer.from(text, 'hex'));
}

/** Upper-case hex, as BIND and Knot print digests. */
export function bytesToHex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex').toUpperCase();
}

export function base64ToBytes(text: string): Uint8Array | null {
  if (!BASE64.test(text)) return null;
  return new Uint8Array(Buffer.from(text, 'base64'));
}

export function bytesToBase64(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
}

/** Unpadded base32hex, as NSEC3 uses for the next hashed owner (RFC 5155 §3.3). */
export function base32hexToBytes(text: string): Uint8Array | null {
  if (!BASE32HEX.test(text)) return null;
  // Only lengths that end on a whole octet with zero leftover bits are canonical encodings.
  const bits = text.length * 5;
  if (bits % 8 >= 5) return null;
  const out: number[] = [];
  let acc = 0;
  let n = 0;
  for (const ch of text.toUpperCase()) {
    acc = (acc << 5) | BASE32HEX_ALPHABET.indexOf(ch);
    n += 5;
    if (n >= 8) {
      n -= 8;
      out.push((acc >>> n) & 0xff);
    }
  }
  if ((acc & ((1 << n) - 1)) !== 0) return null;
  return Uint8Array.from(out);
}

export function bytesToBase32hex(b: Uint8Array): string {
  let out = '';
  let acc = 0;
  let n = 0;
  for (const x of b) {
    acc = ((acc << 8) | x) & 0xffff;
    n += 8;
    while (n >= 5) {
      n -= 5;
      out += BASE32HEX_ALPHABET[(acc >>> n) & 0x1f];
    }
  }
  if (n > 0) out += BASE32HEX_ALPHABET[(acc << (5 - n)) & 0x1f];
  return out;
}
