/**
 * Gathers length-prefixed DNS answers (RFC 1035 §4.2.2) for one socket write. Answers are written
 * (by a slot handler: reserve() → commit()) into one reused scratch buffer;
 * flush() hands the socket a single Buffer of exactly the bytes gathered (the socket keeps it until
 * written, so the scratch itself is never handed out). Synchronous use only: fill and flush within
 * one 'data' event.
 */
import { MAX_TCP_MESSAGE_SIZE } from './listener-options.ts';

const LENGTH_PREFIX = 2;
/** Room for the largest answer with its prefix, and a read's worth of small ones. */
const SCRATCH_BYTES = 2 * (MAX_TCP_MESSAGE_SIZE + LENGTH_PREFIX);

export class AnswerBatch {
  private readonly scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
  private used = 0;

  /** The scratch buffer that reserve()'s offset points into. */
  get bytes(): Buffer {
    return this.scratch;
  }

  /**
   * Room for one answer of at most MAX_TCP_MESSAGE_SIZE bytes (flushing first through `write` if
   * full): returns where in `bytes` the answer goes; commit() then takes it.
   */
  reserve(write: (bytes: Buffer) => void): number {
    if (this.used + MAX_TCP_MESSAGE_SIZE + LENGTH_PREFIX > SCRATCH_BYTES) this.flush(write);
    return this.used + LENGTH_PREFIX;
  }

  /** Takes the answer of `n` bytes written at reserve()'s offset. */
  commit(n: number): void {
    const s = this.scratch;
    const at = this.used;
    s[at] = n >>> 8;
    s[at + 1] = n & 0xff;
    this.used = at + LENGTH_PREFIX + n;
  }

  /** Writes what was gathered, if anything, as one Buffer of its own. */
  flush(write: (bytes: Buffer) => void): void {
    const n = this.used;
    if (n === 0) return;
    this.used = 0;
    const bytes = Buffer.allocUnsafe(n);
    this.scratch.copy(bytes, 0, 0, n);
    write(bytes);
  }

  /** Drops what was gathered (the socket went away meanwhile). */
  clear(): void {
    this.used = 0;
  }
}
