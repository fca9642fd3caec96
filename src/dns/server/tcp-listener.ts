/**
 * TCP side of the server (RFC 7766). Contract:
 * - 2-byte length framing; pipelined queries are answered in arrival order. The answers to the
 *   queries that one read delivered go out in one socket write (fewer syscalls and segments per
 *   query than one write each; RFC 7766 §6.2.1.1 leaves the grouping to the server). Each answer
 *   is written by the slot handler (its TCP answer cache, see handle-message.ts) straight into the
 *   batch, from the query's place in the chunk read: no Buffer per message.
 * - A length below a DNS header closes the connection; 65535 is the most the prefix can say.
 * - Idle connections are closed after `tcpIdleTimeoutMs` (RFC 7766 §6.2.3).
 * - New connections over the total or per-client-address cap are closed at once.
 * - If the client does not read, we stop reading (backpressure) until the socket drains.
 * - A throwing handler costs that one message, never the connection or the server.
 * - close() drains: no new connections; each open one gets the answers to what was read, then a
 *   FIN; what the client sends after that is read and dropped (unread bytes would make the kernel
 *   send RST, which can cost the client answers it has not read yet). Connections still open after
 *   TCP_DRAIN_MS are destroyed.
 * - Zone transfer queries (AXFR/IXFR, signed SOA; see isTransferQuery) go to `ctx.transfer`
 *   when set; its messages are written in one go, so no other response interleaves with them.
 */
import net from 'node:net';
import { createOutcome } from './handle-message.ts';
import type { ClientInfo } from './handle-message.ts';
import { MAX_TCP_MESSAGE_SIZE, setClientAddress, slotHandlerOf } from './listener-options.ts';
import type { ListenerContext } from './listener-options.ts';
import { createTcpFrameReader } from './tcp-frame-reader.ts';
import { AnswerBatch } from './tcp-answer-batch.ts';
import { isTransferQuery } from '../transfer/transfer-query.ts';

/** Longest close() waits for clients to close drained connections. */
export const TCP_DRAIN_MS = 5_000;

export interface TcpListener {
  readonly port: number;
  /** Open connections right now (for tests and metrics). */
  connectionCount(): number;
  close(): Promise<void>;
}

export function bindTcp(host: string, port: number, ctx: ListenerContext): Promise<TcpListener> {
  const { stats, limits } = ctx;
  const slot = ctx.slotHandler ?? slotHandlerOf(ctx.handler);
  const transfer = ctx.transfer ?? null;
  const out = createOutcome();
  const open = new Set<net.Socket>();
  const perClient = new Map<string, number>();
  // Shared by every connection: a 'data' event's answers are gathered and flushed before the next.
  const batch = new AnswerBatch();

  function onConnection(sock: net.Socket): void {
    sock.on('error', () => undefined);
    const remote = sock.remoteAddress;
    if (remote === undefined) {
      sock.destroy();
      return;
    }
    const client: ClientInfo = { transport: 'tcp', address: '', port: sock.remotePort ?? 0, family: 4 };
    setClientAddress(client, remote, sock.remoteFamily === 'IPv6');
    const key = client.address;
    const held = perClient.get(key) ?? 0;
    if (open.size >= limits.maxTcpConnections || held >= limits.maxTcpConnectionsPerClient) {
      sock.destroy();
      return;
    }
    open.add(sock);
    perClient.set(key, held + 1);
    sock.once('close', () => {
      open.delete(sock);
      const n = (perClient.get(key) ?? 1) - 1;
      if (n <= 0) perClient.delete(key);
      else perClient.set(key, n);
    });
    sock.setNoDelay(true);
    sock.setTimeout(limits.tcpIdleTimeoutMs);
    sock.on('timeout', () => sock.destroy());

    let waitingDrain = false;
    const resume = (): void => {
      waitingDrain = false;
      sock.resume();
    };
    const write = (bytes: Buffer): void => {
      if (!sock.write(bytes) && !waitingDrain) {
        waitingDrain = true;
        sock.pause();
        sock.once('drain', resume);
      }
    };
    const send = (messages: readonly Buffer[]): void => {
      for (const res of messages) {
        if (sock.destroyed || sock.writableEnded || res.length > MAX_TCP_MESSAGE_SIZE) return;
        const frame = Buffer.allocUnsafe(res.length + 2);
        frame.writeUInt16BE(res.length, 0);
        res.copy(frame, 2);
        write(frame);
      }
    };
    const reader = createTcpFrameReader((buf, off, len) => {
      if (sock.destroyed) return false;
      if (transfer !== null && isTransferQuery(buf, off, len)) {
        // The frame is in a chunk that is reused: copy before going async.
        transfer.handle(Uint8Array.from(buf.subarray(off, off + len)), client.address).then(
          (r) => {
            if (stats !== null) stats.record(r.zoneId ?? -1, r.qtype, r.rcode);
            send(r.messages);
          },
          () => undefined,
        );
        return true;
      }
      const at = batch.reserve(write);
      let n: number;
      try {
        n = slot(buf, off, len, client, out, batch.bytes, at, MAX_TCP_MESSAGE_SIZE);
        if (stats !== null) stats.record(out.zoneId, out.qtype, out.rcode);
      } catch {
        return true;
      }
      if (n >= 0) batch.commit(n);
      return true;
    });
    sock.on('data', (chunk: Buffer) => {
      if (sock.writableEnded) return; // draining: read and drop
      let ok = false;
      try {
        ok = reader.push(chunk);
      } finally {
        // One write for every answer to this chunk's queries (in order), not one per answer; the
        // batch is shared, so it is left empty whatever happened.
        if (!sock.destroyed && !sock.writableEnded) batch.flush(write);
        else batch.clear();
      }
      if (!ok) sock.destroy();
    });
  }

  const server = net.createServer({ noDelay: true }, onConnection);
  server.on('error', () => undefined);

  return new Promise((resolve, reject) => {
    const onListenError = (err: Error): void => {
      server.close();
      reject(err);
    };
    server.once('error', onListenError);
    // ipv6Only false: `::` also accepts IPv4 (dual stack); `0.0.0.0` is IPv4 only.
    server.listen({ host, port, ipv6Only: false, exclusive: false }, () => {
      server.off('error', onListenError);
      const addr = server.address();
      let closing: Promise<void> | null = null;
      resolve({
        port: typeof addr === 'object' && addr !== null ? addr.port : port,
        connectionCount: () => open.size,
        close: () => {
          closing ??= new Promise<void>((done) => {
            const force = setTimeout(() => {
              for (const s of open) s.destroy();
            }, TCP_DRAIN_MS);
            force.unref();
            server.close(() => {
              clearTimeout(force);
              done();
            });
            for (const s of open) {
              s.end();
              s.resume();
            }
          });
          return closing;
        },
      });
    });
  });
}
