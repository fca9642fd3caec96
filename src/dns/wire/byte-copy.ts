/**
 * Word-wise copies between byte arrays. A JavaScript byte loop costs ~1.3 ns a byte and
 * `set(subarray())` allocates a view per call; an Int32 view of the whole buffer, kept while the
 * same array is passed again (a batch listener passes the same receive and send areas every
 * time), copies a word per step when both ends are word aligned.
 */

/** An Int32 view of a byte array's whole buffer, made again only when another array is passed. */
export class WordView {
  private bytes: Uint8Array | null = null;
  /** The array's byte offset in its buffer: byte i is in word (base + i) >> 2. */
  base = 0;
  words: Int32Array<ArrayBufferLike> = new Int32Array(0);

  /** Points the view at `bytes` (a no-op when it already is). */
  of(bytes: Uint8Array): void {
    if (bytes === this.bytes) return;
    this.bytes = bytes;
    this.base = bytes.byteOffset;
    this.words = new Int32Array(bytes.buffer, 0, bytes.buffer.byteLength >> 2);
  }
}

/** Length from which ByteCopier copies through set() (measured on this code: a word loop costs 54 ns at 128 bytes, 103 at 256; a view and set() 45–55 ns from 128 to 1,500). */
const MEMCPY_FROM = 128;

/**
 * Copies n bytes a word at a time when both ends are word aligned, else byte by byte. A word copy
 * may write up to 3 bytes past `n` when `dst` has room for them (never past dst's end).
 */
export class ByteCopier {
  private readonly from = new WordView();
  private readonly to = new WordView();

  copy(src: Uint8Array, srcOff: number, dst: Uint8Array, dstOff: number, n: number): void {
    // Past 128 bytes (signed answers, large RRsets) a view and one memcpy beat a word a step.
    if (n > MEMCPY_FROM) {
      dst.set(src.subarray(srcOff, srcOff + n), dstOff);
      return;
    }
    this.from.of(src);
    this.to.of(dst);
    const from = this.from.base + srcOff;
    const to = this.to.base + dstOff;
    const words = (n + 3) >> 2;
    if (
      ((from | to) & 3) === 0 &&
      dstOff + (words << 2) <= dst.length &&
      srcOff + (words << 2) <= src.length
    ) {
      const s = this.from.words;
      const d = this.to.words;
      const s0 = from >> 2;
      const d0 = to >> 2;
      for (let i = 0; i < words; i++) d[d0 + i] = s[s0 + i]!;
      return;
    }
    for (let i = 0; i < n; i++) dst[dstOff + i] = src[srcOff + i]!;
  }
}
