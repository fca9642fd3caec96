/**
 * Minecraft's VarInt: a 32-bit two's-complement integer in 1 to 5 bytes, seven bits a byte, low
 * groups first, the high bit of each byte saying another follows (wiki.vg "Protocol", "VarInt and
 * VarLong"). A sixth byte is malformed: the reader answers MALFORMED rather than read on.
 */

/** More bytes are needed to finish the value. */
export const NEED_MORE = -1;
/** Over 5 bytes: not a VarInt. */
export const MALFORMED = -2;

export const VARINT_MAX_BYTES = 5;

/**
 * Reads a VarInt at `offset` of `buf`, up to `end`. Answers the number of bytes it took (1–5),
 * NEED_MORE or MALFORMED; the value goes to `out[0]` (no object allocated per read).
 */
export function readVarInt(buf: Uint8Array, offset: number, end: number, out: Int32Array): number {
  let value = 0;
  for (let i = 0; i < VARINT_MAX_BYTES; i++) {
    if (offset + i >= end) return NEED_MORE;
    const b = buf[offset + i]!;
    value |= (b & 0x7f) << (7 * i);
    if ((b & 0x80) === 0) {
      out[0] = value;
      return i + 1;
    }
  }
  return MALFORMED;
}

/** The bytes a VarInt of `value` takes. */
export function varIntSize(value: number): number {
  let v = value >>> 0;
  let n = 1;
  while (v >= 0x80) {
    v >>>= 7;
    n++;
  }
  return n;
}

/** Writes `value` at `offset`; answers the offset after it. */
export function writeVarInt(buf: Uint8Array, offset: number, value: number): number {
  let v = value >>> 0;
  while (v >= 0x80) {
    buf[offset++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  buf[offset++] = v;
  return offset;
}
