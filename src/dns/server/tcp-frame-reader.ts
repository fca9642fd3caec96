/**
 * Incremental reader for DNS-over-TCP framing (RFC 1035 §4.2.2, RFC 7766 §8): each message is
 * preceded by a 2-byte big-endian length. Handles partial reads and several messages per chunk
 * in O(bytes): a message split across chunks is assembled into one buffer of its exact size,
 * a message whole inside a chunk is passed as its place in the chunk (no copy, no view made).
 */
import { DNS_HEADER_SIZE } from './listener-options.ts';

const LENGTH_PREFIX = 2;

export interface TcpFrameReader {
  /**
   * Feeds one chunk; calls `onMessage` with each complete message's bytes, buf[off, off + len), in order. Returns false when
   * the stream is malformed (a length below a DNS header) and must be closed, or when
   * `onMessage` returned false (stop reading, e.g. the socket was destroyed).
   */
  push(chunk: Buffer): boolean;
}

export function createTcpFrameReader(
  onMessage: (buf: Buffer, off: number, len: number) => boolean,
): TcpFrameReader {
  let lenBytes = 0;
  let lenHigh = 0;
  let body: Buffer | null = null;
  let got = 0;

  return {
    push(chunk) {
      let i = 0;
      while (i < chunk.length) {
        if (body === null) {
          if (lenBytes === 0) {
            if (chunk.length - i >= LENGTH_PREFIX) {
              const len = (chunk[i]! << 8) | chunk[i + 1]!;
              i += LENGTH_PREFIX;
              if (len < DNS_HEADER_SIZE) return false;
              if (chunk.length - i >= len) {
                const ok = onMessage(chunk, i, len);
                i += len;
                if (!ok) return false;
                continue;
              }
              body = Buffer.allocUnsafe(len);
              got = 0;
              continue;
            }
            lenHigh = chunk[i++]!;
            lenBytes = 1;
            continue;
          }
          const len = (lenHigh << 8) | chunk[i++]!;
          lenBytes = 0;
          if (len < DNS_HEADER_SIZE) return false;
          body = Buffer.allocUnsafe(len);
          got = 0;
          continue;
        }
        const take = Math.min(body.length - got, chunk.length - i);
        chunk.copy(body, got, i, i + take);
        got += take;
        i += take;
        if (got === body.length) {
          const message = body;
          body = null;
          if (!onMessage(message, 0, message.length)) return false;
        }
      }
      return true;
    },
  };
}
