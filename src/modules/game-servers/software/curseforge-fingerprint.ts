/**
 * CurseForge's file fingerprint: MurmurHash2 (32-bit, seed 1) over the file's bytes with the
 * whitespace bytes 9, 10, 13 and 32 left out (the length hashed is that of what is left).
 */
const M = 0x5bd1e995;
const WHITESPACE = new Set([9, 10, 13, 32]);

export function curseforgeFingerprint(bytes: Uint8Array): number {
  const kept = new Uint8Array(bytes.length);
  let n = 0;
  for (const b of bytes) if (!WHITESPACE.has(b)) kept[n++] = b;
  let h = (1 ^ n) >>> 0;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    let k = (kept[i]! | (kept[i + 1]! << 8) | (kept[i + 2]! << 16) | (kept[i + 3]! << 24)) >>> 0;
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  const rest = n - i;
  if (rest === 3) h ^= kept[i + 2]! << 16;
  if (rest >= 2) h ^= kept[i + 1]! << 8;
  if (rest >= 1) h = Math.imul(h ^ kept[i]!, M);
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h >>> 0;
}
