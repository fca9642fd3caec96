/**
 * Length-prefixed frames (a VarInt length, then that many bytes: packet id and fields) out of a
 * TCP stream, whatever its reads look like: a frame split over several reads, or several frames
 * coalesced in one. Bounded: a frame longer than `maxFrame` or a length that is not a VarInt makes
 * the reader fail at once, and it never holds more than one frame's worth of bytes beyond a read.
 */
import { MALFORMED, NEED_MORE, readVarInt } from './varint.ts';

/** The VarInt read's out-parameter, one per module (a typed array per reader cost an allocation per connection): read at once after each call. */
const scratch = new Int32Array(1);

export type FrameError = 'frame_too_large' | 'malformed_length';

export class FrameReader {
  private pending: Buffer | null = null;
  private failure: FrameError | null = null;

  constructor(private readonly maxFrame: number) {}

  /** Why the stream was refused, once it was (every later push answers no frame). */
  get error(): FrameError | null {
    return this.failure;
  }

  /**
   * Takes a read and answers the whole frames it completes (each the packet id and its fields,
   * without the length), in order, at most `maxFrames` of them; the rest waits for the next read
   * (or `rest()`).
   */
  push(chunk: Buffer, maxFrames = Infinity): Buffer[] {
    if (this.failure !== null) return [];
    const buf = this.pending === null ? chunk : Buffer.concat([this.pending, chunk]);
    this.pending = null;
    const frames: Buffer[] = [];
    let at = 0;
    while (at < buf.length && frames.length < maxFrames) {
      const size = readVarInt(buf, at, buf.length, scratch);
      if (size === MALFORMED) return this.fail('malformed_length');
      if (size === NEED_MORE) break;
      const length = scratch[0]!;
      if (length < 1 || length > this.maxFrame)
        return this.fail(length < 1 ? 'malformed_length' : 'frame_too_large');
      if (at + size + length > buf.length) break;
      frames.push(buf.subarray(at + size, at + size + length));
      at += size + length;
    }
    if (at < buf.length) this.pending = Buffer.from(buf.subarray(at));
    return frames;
  }

  /** Bytes read past the last whole frame (what a proxy forwards once it stops reading frames). */
  rest(): Buffer {
    const r = this.pending ?? Buffer.alloc(0);
    this.pending = null;
    return r;
  }

  private fail(error: FrameError): Buffer[] {
    this.failure = error;
    this.pending = null;
    return [];
  }
}
