/**
 * SipHash-2-4 (Aumasson and Bernstein, 2012) with a 128-bit key and a 64-bit result, as DNS server
 * cookies need it (RFC 9018 §4.4). 64-bit words are kept as two unsigned 32-bit halves, so a hash
 * allocates nothing (BigInt would, on every operation).
 */

/** Reads 4 octets little-endian. */
function le32(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

/**
 * The state v0..v3 as 32-bit halves, shared by the one hash running at a time (hashing is
 * synchronous): module variables rather than a closure over locals, so a hash allocates nothing.
 */
let v0h = 0;
let v0l = 0;
let v1h = 0;
let v1l = 0;
let v2h = 0;
let v2l = 0;
let v3h = 0;
let v3l = 0;

/** `n` SipRounds on the state. */
function rounds(n: number): void {
  for (let r = 0; r < n; r++) {
    let lo: number;
    let t: number;
    // v0 += v1; v1 <<<= 13; v1 ^= v0; v0 <<<= 32
    lo = (v0l + v1l) >>> 0;
    v0h = (v0h + v1h + (lo < v0l ? 1 : 0)) >>> 0;
    v0l = lo;
    t = ((v1h << 13) | (v1l >>> 19)) >>> 0;
    v1l = ((v1l << 13) | (v1h >>> 19)) >>> 0;
    v1h = t;
    v1h = (v1h ^ v0h) >>> 0;
    v1l = (v1l ^ v0l) >>> 0;
    t = v0h;
    v0h = v0l;
    v0l = t;
    // v2 += v3; v3 <<<= 16; v3 ^= v2
    lo = (v2l + v3l) >>> 0;
    v2h = (v2h + v3h + (lo < v2l ? 1 : 0)) >>> 0;
    v2l = lo;
    t = ((v3h << 16) | (v3l >>> 16)) >>> 0;
    v3l = ((v3l << 16) | (v3h >>> 16)) >>> 0;
    v3h = t;
    v3h = (v3h ^ v2h) >>> 0;
    v3l = (v3l ^ v2l) >>> 0;
    // v0 += v3; v3 <<<= 21; v3 ^= v0
    lo = (v0l + v3l) >>> 0;
    v0h = (v0h + v3h + (lo < v0l ? 1 : 0)) >>> 0;
    v0l = lo;
    t = ((v3h << 21) | (v3l >>> 11)) >>> 0;
    v3l = ((v3l << 21) | (v3h >>> 11)) >>> 0;
    v3h = t;
    v3h = (v3h ^ v0h) >>> 0;
    v3l = (v3l ^ v0l) >>> 0;
    // v2 += v1; v1 <<<= 17; v1 ^= v2; v2 <<<= 32
    lo = (v2l + v1l) >>> 0;
    v2h = (v2h + v1h + (lo < v2l ? 1 : 0)) >>> 0;
    v2l = lo;
    t = ((v1h << 17) | (v1l >>> 15)) >>> 0;
    v1l = ((v1l << 17) | (v1h >>> 15)) >>> 0;
    v1h = t;
    v1h = (v1h ^ v2h) >>> 0;
    v1l = (v1l ^ v2l) >>> 0;
    t = v2h;
    v2h = v2l;
    v2l = t;
  }
}

/**
 * SipHash-2-4 of `msg[0, length)` under `key` (16 octets); writes the 8-octet result
 * (little-endian, as the reference implementation) at `out[outAt]`.
 */
export function siphash24(
  key: Uint8Array,
  msg: Uint8Array,
  length: number,
  out: Uint8Array,
  outAt: number,
): void {
  const k0l = le32(key, 0);
  const k0h = le32(key, 4);
  const k1l = le32(key, 8);
  const k1h = le32(key, 12);
  v0h = (k0h ^ 0x736f6d65) >>> 0;
  v0l = (k0l ^ 0x70736575) >>> 0;
  v1h = (k1h ^ 0x646f7261) >>> 0;
  v1l = (k1l ^ 0x6e646f6d) >>> 0;
  v2h = (k0h ^ 0x6c796765) >>> 0;
  v2l = (k0l ^ 0x6e657261) >>> 0;
  v3h = (k1h ^ 0x74656462) >>> 0;
  v3l = (k1l ^ 0x79746573) >>> 0;

  const whole = length - (length % 8);
  for (let at = 0; at < whole; at += 8) {
    const ml = le32(msg, at);
    const mh = le32(msg, at + 4);
    v3l = (v3l ^ ml) >>> 0;
    v3h = (v3h ^ mh) >>> 0;
    rounds(2);
    v0l = (v0l ^ ml) >>> 0;
    v0h = (v0h ^ mh) >>> 0;
  }
  // The last block: the remaining octets, and the length's low octet in the top one.
  let bl = 0;
  let bh = ((length & 0xff) << 24) >>> 0;
  for (let i = 0; i < length - whole; i++) {
    const byte = msg[whole + i]!;
    if (i < 4) bl = (bl | (byte << (8 * i))) >>> 0;
    else bh = (bh | (byte << (8 * (i - 4)))) >>> 0;
  }
  v3l = (v3l ^ bl) >>> 0;
  v3h = (v3h ^ bh) >>> 0;
  rounds(2);
  v0l = (v0l ^ bl) >>> 0;
  v0h = (v0h ^ bh) >>> 0;
  v2l = (v2l ^ 0xff) >>> 0;
  rounds(4);
  const rl = (v0l ^ v1l ^ v2l ^ v3l) >>> 0;
  const rh = (v0h ^ v1h ^ v2h ^ v3h) >>> 0;
  for (let i = 0; i < 4; i++) {
    out[outAt + i] = (rl >>> (8 * i)) & 0xff;
    out[outAt + 4 + i] = (rh >>> (8 * i)) & 0xff;
  }
}
