/**
 * Seeded packet mutations for fuzzing: bit flips, truncation, extension, header count changes,
 * random label bytes, compression-pointer loops, and fully random packets.
 */
import type { SeededRandom } from '../../src/testing/seeded-random.ts';

/** Largest fully random packet generated (bigger than any UDP payload we accept by default). */
export const MAX_RANDOM_PACKET = 700;
const HEADER = 12;

export function mutatePacket(seed: Uint8Array, rnd: SeededRandom): Buffer {
  const kind = rnd.int(9);
  let b = Buffer.from(seed);
  switch (kind) {
    case 0: {
      const flips = 1 + rnd.int(8);
      for (let i = 0; i < flips && b.length > 0; i++) {
        const at = rnd.int(b.length);
        b[at] = b[at]! ^ (1 << rnd.int(8));
      }
      break;
    }
    case 1:
      b = b.subarray(0, rnd.int(b.length + 1));
      break;
    case 2:
      b = Buffer.concat([b, Buffer.from(rnd.bytes(1 + rnd.int(64)))]);
      break;
    case 3:
      // Header counts (QD/AN/NS/AR) set to random or boundary values.
      if (b.length >= HEADER) {
        const at = 4 + 2 * rnd.int(4);
        b.writeUInt16BE(rnd.pick([0, 1, 2, 3, 0x7fff, 0xffff, rnd.int(0x10000)]), at);
      }
      break;
    case 4:
      // Random bytes over the question name.
      for (let i = 0, n = 1 + rnd.int(6); i < n && b.length > HEADER; i++)
        b[HEADER + rnd.int(b.length - HEADER)] = rnd.int(256);
      break;
    case 5:
      // A compression pointer (RFC 1035 §4.1.4) to itself or to an earlier/later offset.
      if (b.length > HEADER + 2) {
        const at = HEADER + rnd.int(b.length - HEADER - 1);
        const target = rnd.pick([at, HEADER, at + 2, rnd.int(b.length)]);
        b[at] = 0xc0 | ((target >> 8) & 0x3f);
        b[at + 1] = target & 0xff;
      }
      break;
    case 6:
      // Label length bytes turned into the reserved 0x40/0x80 forms or oversized lengths.
      if (b.length > HEADER) b[HEADER] = rnd.pick([0x40, 0x80, 63, 64, 0xff, rnd.int(256)]);
      break;
    case 7:
      // Flags and opcode.
      if (b.length >= 4) {
        b[2] = rnd.int(256);
        b[3] = rnd.int(256);
      }
      break;
    default:
      return Buffer.from(rnd.bytes(rnd.int(MAX_RANDOM_PACKET)));
  }
  return b;
}

/**
 * The largest UDP response a query permits (RFC 1035 §4.2.1: 512; RFC 6891 §6.2.5: the OPT
 * payload size if larger). Parses leniently; anything unparsable counts as "no EDNS".
 */
export function udpLimitFor(query: Uint8Array): number {
  const base = 512;
  if (query.length < HEADER) return base;
  const counts = [0, 1, 2, 3].map((i) => (query[4 + 2 * i]! << 8) | query[5 + 2 * i]!);
  let p = HEADER;
  const skipName = (): boolean => {
    for (let hops = 0; p < query.length && hops < 128; hops++) {
      const len = query[p]!;
      if (len === 0) {
        p++;
        return true;
      }
      if ((len & 0xc0) === 0xc0) {
        p += 2;
        return p <= query.length;
      }
      if ((len & 0xc0) !== 0) return false;
      p += 1 + len;
    }
    return false;
  };
  let best = base;
  for (let i = 0; i < counts[0]! && i < 4; i++) {
    if (!skipName()) return base;
    p += 4;
  }
  const records = counts[1]! + counts[2]! + counts[3]!;
  for (let i = 0; i < records && i < 64; i++) {
    if (!skipName() || p + 10 > query.length) return best;
    const type = (query[p]! << 8) | query[p + 1]!;
    const cls = (query[p + 2]! << 8) | query[p + 3]!;
    const rdlen = (query[p + 8]! << 8) | query[p + 9]!;
    if (type === 41) best = Math.max(best, cls);
    p += 10 + rdlen;
  }
  return best;
}
