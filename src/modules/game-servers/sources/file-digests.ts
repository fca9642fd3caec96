import { createHash } from 'node:crypto';
import type { FileDigests } from './version-source.ts';

/** The digests the sources look a file up by (see FileDigests). */
export function fileDigests(bytes: Buffer): FileDigests {
  return {
    sha1: createHash('sha1').update(bytes).digest('hex'),
    sha512: createHash('sha512').update(bytes).digest('hex'),
    fingerprint: curseForgeFingerprint(bytes),
  };
}

const WHITESPACE = new Set([9, 10, 13, 32]);

/**
 * CurseForge's file fingerprint: MurmurHash2 (32-bit, seed 1) over the file with the bytes 9, 10,
 * 13 and 32 taken out; the length in the hash's seed is the length after that.
 */
export function curseForgeFingerprint(bytes: Buffer): number {
  const kept = Buffer.allocUnsafe(bytes.length);
  let n = 0;
  for (const b of bytes) if (!WHITESPACE.has(b)) kept[n++] = b;
  return murmurHash2(kept.subarray(0, n), 1);
}

const M = 0x5bd1e995;

/** MurmurHash2, 32-bit (Austin Appleby), little-endian blocks; unsigned result. */
export function murmurHash2(data: Uint8Array, seed: number): number {
  let h = (seed ^ data.length) >>> 0;
  let i = 0;
  for (; i + 4 <= data.length; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  const rest = data.length - i;
  if (rest === 3) h ^= data[i + 2]! << 16;
  if (rest >= 2) h ^= data[i + 1]! << 8;
  if (rest >= 1) {
    h ^= data[i]!;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h >>> 0;
}
