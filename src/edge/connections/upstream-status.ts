/**
 * Asks an upstream server for its status as a client would (handshake with next state status,
 * status request, status response), within a deadline; null when it cannot be reached in time or
 * answers something that is not a status.
 */
import { connect } from 'node:net';
import { FrameReader } from '../codec/frame-reader.ts';
import { handshakeFrame, frame } from '../codec/packet-writer.ts';
import { PacketReader } from '../codec/packet-reader.ts';
import type { EdgeUpstream } from '../routes/route-table.ts';
import type { ServerStatus } from '../routes/status-answer.ts';

/** A status answer is JSON with a favicon of some kilobytes; a megabyte is far beyond any. */
const MAX_STATUS_BYTES = 1 << 20;
const STATUS_REQUEST = frame(0x00, Buffer.alloc(0));

export function upstreamStatus(
  upstream: EdgeUpstream,
  handshake: { protocol: number; host: string; port: number },
  timeoutMs: number,
): Promise<ServerStatus | null> {
  return new Promise((resolve) => {
    const socket = connect({ host: upstream.host, port: upstream.port });
    const reader = new FrameReader(MAX_STATUS_BYTES);
    let done = false;
    const finish = (status: ServerStatus | null): void => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(status);
    };
    socket.setTimeout(timeoutMs, () => finish(null));
    socket.once('error', () => finish(null));
    socket.once('close', () => finish(null));
    socket.once('connect', () => {
      socket.write(Buffer.concat([handshakeFrame({ ...handshake, nextState: 'status' }), STATUS_REQUEST]));
    });
    socket.on('data', (chunk: Buffer) => {
      const [first] = reader.push(chunk);
      if (reader.error !== null) return finish(null);
      if (first === undefined) return;
      const r = new PacketReader(first);
      const json = r.varInt() === 0x00 ? r.string(MAX_STATUS_BYTES) : '';
      try {
        const parsed: unknown = r.ok ? JSON.parse(json) : null;
        finish(parsed !== null && typeof parsed === 'object' ? (parsed as ServerStatus) : null);
      } catch {
        finish(null);
      }
    });
  });
}
