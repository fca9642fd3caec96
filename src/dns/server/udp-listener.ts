/**
 * UDP side of the server (RFC 1035 §4.2.1). One ClientInfo and one MessageOutcome per socket are
 * reused for every datagram (the handler is synchronous); no closures or logging per query.
 * RRL applies here only. A throwing handler costs that one datagram, never the socket.
 */
import dgram from 'node:dgram';
import { isIPv6 } from 'node:net';
import { createOutcome } from './handle-message.ts';
import type { ClientInfo } from './handle-message.ts';
import { setClientAddress, UDP_SOCKET_BUFFER_BYTES } from './listener-options.ts';
import type { ListenerContext } from './listener-options.ts';
import { RRL_DROP, RRL_SLIP, truncateForSlip } from './response-rate-limit.ts';

export interface UdpListener {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Binds `host:port`. With host `::` the socket is dual stack (IPv4 peers appear as IPv4);
 * `0.0.0.0` is IPv4 only. Rejects on bind errors (e.g. EADDRINUSE).
 */
export function bindUdp(host: string, port: number, ctx: ListenerContext): Promise<UdpListener> {
  const ipv6 = isIPv6(host);
  const socket = dgram.createSocket({ type: ipv6 ? 'udp6' : 'udp4', ipv6Only: false });
  const client: ClientInfo = { transport: 'udp', address: '', port: 0, family: 4 };
  const out = createOutcome();
  const { handler, rrl, stats } = ctx;

  socket.on('message', (msg, rinfo) => {
    client.port = rinfo.port;
    setClientAddress(client, rinfo.address, rinfo.family === 'IPv6');
    let res: Buffer | null;
    try {
      res = handler(msg, client, out);
      if (stats !== null) stats.record(out.zoneId, out.qtype, out.rcode);
    } catch {
      return;
    }
    if (res === null) return;
    if (rrl !== null && rrl.enabled) {
      const decision = rrl.decide(client, out, res);
      if (decision === RRL_DROP) return;
      if (decision === RRL_SLIP) res = truncateForSlip(res);
    }
    // Without a callback, send errors surface as 'error' events, handled below.
    socket.send(res, rinfo.port, rinfo.address);
  });

  return new Promise((resolve, reject) => {
    const onBindError = (err: Error): void => {
      socket.close();
      reject(err);
    };
    socket.once('error', onBindError);
    socket.bind({ port, address: host, exclusive: false }, () => {
      socket.off('error', onBindError);
      // After bind, errors (ICMP unreachable, EMSGSIZE, ...) concern one peer only.
      socket.on('error', () => undefined);
      try {
        socket.setRecvBufferSize(UDP_SOCKET_BUFFER_BYTES);
        socket.setSendBufferSize(UDP_SOCKET_BUFFER_BYTES);
      } catch {
        // Best effort: the kernel may cap buffer sizes.
      }
      let closed = false;
      resolve({
        port: socket.address().port,
        close: () =>
          new Promise<void>((done) => {
            if (closed) return done();
            closed = true;
            socket.close(() => done());
          }),
      });
    });
  });
}
