/**
 * Chunks start small (a zone of a few records must not cost a megabyte) and double up to the
 * largest size, where per-chunk overhead has vanished; at most about half the last chunk is unused.
 */
const CHUNK_MIN = 1 << 10;
const CHUNK_MAX = 1 << 20;

/**
 * Append-only storage for the bytes of one zone snapshot (encoded records, name wires). A small
 * typed array costs about 200 bytes of heap on its own (view, ArrayBuffer, backing store), more
 * than the bytes it holds; carving every record and name out of shared chunks removes that cost.
 * Chunks never move once handed out, so views and offsets into them stay valid.
 */
export class ByteArena {
  /** Chunk of the last reserve(); the reserved bytes start at the returned offset. */
  chunk: Uint8Array = new Uint8Array(0);
  private used = 0;

  /** Reserves `n` contiguous bytes in `this.chunk` and returns their offset there. */
  reserve(n: number): number {
    if (this.used + n > this.chunk.length) {
      const size = Math.min(CHUNK_MAX, Math.max(CHUNK_MIN, this.chunk.length * 2));
      this.chunk = new Uint8Array(Math.max(size, n));
      this.used = 0;
    }
    const at = this.used;
    this.used += n;
    return at;
  }
}
