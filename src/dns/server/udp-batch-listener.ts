/**
 * UDP through the native batch addon (udp-batch-native.ts): recvmmsg → one JS call per batch →
 * sendmmsg, on a SO_REUSEPORT socket of its own (so every cluster worker gets its own socket and
 * the kernel spreads flows by address/port hash). Same contract as udp-listener.ts: one reused
 * ClientInfo/MessageOutcome, RRL here only, a throwing handler costs that one datagram.
 * Note SO_REUSEPORT lets another process of the same user bind the port too (as with Knot).
 */
import { createOutcome } from './handle-message.ts';
import type { ClientInfo } from './handle-message.ts';
import { slotHandlerOf, UDP_SOCKET_BUFFER_BYTES } from './listener-options.ts';
import type { ListenerContext } from './listener-options.ts';
import { RRL_DROP, RRL_SLIP, truncateForSlipAt } from './response-rate-limit.ts';
import {
  META_ADDR,
  META_FAMILY,
  META_INTS,
  META_PORT,
  META_RX_LEN,
  META_TX_LEN,
  META_TX_SRC,
} from './udp-batch-native.ts';
import type { UdpBatchAddon } from './udp-batch-native.ts';
import type { UdpListener } from './udp-listener.ts';

/** Datagrams per recvmmsg/sendmmsg. */
export const UDP_BATCH_SIZE = 64;
/** Bytes per message slot: queries beyond it are dropped (MSG_TRUNC), answers beyond it skipped. */
export const UDP_BATCH_SLOT = 4096;

function ipv6Text(b: Uint8Array, off: number): string {
  let s = '';
  for (let i = 0; i < 16; i += 2) {
    if (i > 0) s += ':';
    s += ((b[off + i]! << 8) | b[off + i + 1]!).toString(16);
  }
  return s;
}

/**
 * Binds `host:port` through the addon; throws like bind (EADDRINUSE, ...). With `steerGroup` > 1
 * (the workers sharing the port), datagrams are steered by source network (UdpBatchAddon.steer),
 * so each worker's rate limiter sees all of a client network's queries.
 */
export function bindUdpBatch(
  addon: UdpBatchAddon,
  host: string,
  port: number,
  ctx: ListenerContext,
  steerGroup = 1,
): UdpListener {
  const sock = addon.open(host, port, UDP_BATCH_SIZE, UDP_BATCH_SLOT, UDP_SOCKET_BUFFER_BYTES);
  if (steerGroup > 1) {
    try {
      addon.steer(sock.handle, steerGroup);
    } catch (error) {
      addon.close(sock.handle);
      throw error;
    }
  }
  const rx = new Uint8Array(sock.rx);
  const tx = new Uint8Array(sock.tx);
  const meta = new Int32Array(sock.meta);
  const metaBytes = new Uint8Array(sock.meta);
  const client: ClientInfo = { transport: 'udp', address: '', port: 0, family: 4 };
  const out = createOutcome();
  const { rrl, stats } = ctx;
  const slot = ctx.slotHandler ?? slotHandlerOf(ctx.handler);
  // Address text is rebuilt only when the peer's address changes (a flood or a resolver repeats).
  let lastV4 = -1;

  function onBatch(n: number): number {
    let m = 0;
    // One clock read per batch for the query statistics (their unit is the hour).
    const arrivedMs = stats !== null ? stats.now() : 0;
    for (let i = 0; i < n; i++) {
      const w = i * META_INTS;
      const len = meta[w + META_RX_LEN]!;
      if (len <= 0) continue;
      client.port = meta[w + META_PORT]!;
      if (meta[w + META_FAMILY] === 4) {
        const v4 = meta[w + META_ADDR]!;
        if (v4 !== lastV4 || client.family !== 4) {
          const b = (w + META_ADDR) * 4;
          client.address = `${metaBytes[b]}.${metaBytes[b + 1]}.${metaBytes[b + 2]}.${metaBytes[b + 3]}`;
          client.family = 4;
          lastV4 = v4;
        }
      } else {
        client.address = ipv6Text(metaBytes, (w + META_ADDR) * 4);
        client.family = 6;
        lastV4 = -1;
      }
      const txOff = m * UDP_BATCH_SLOT;
      let size: number;
      try {
        size = slot(rx, i * UDP_BATCH_SLOT, len, client, out, tx, txOff, UDP_BATCH_SLOT);
        if (stats !== null) stats.record(out.zoneId, out.qtype, out.rcode, arrivedMs);
      } catch {
        continue;
      }
      if (size < 0) continue;
      if (rrl !== null && rrl.enabled) {
        const decision = rrl.decide(client, out, tx, txOff, size);
        if (decision === RRL_DROP) continue;
        if (decision === RRL_SLIP) size = truncateForSlipAt(tx, txOff, size);
      }
      const t = m * META_INTS;
      meta[t + META_TX_LEN] = size;
      meta[t + META_TX_SRC] = i;
      m++;
    }
    return m;
  }
  addon.start(sock.handle, onBatch);
  let closing: Promise<void> | null = null;
  return {
    port: sock.port,
    // Resolves once the fd is closed: until then a new SO_REUSEPORT socket on the port would
    // share (and lose) datagrams with this one. The addon calls back from a libuv close callback,
    // outside any callback scope, so promise reactions would wait for the next unrelated event
    // (seconds in an idle DNS worker); setImmediate hands `done` to a turn that runs them.
    close: () =>
      (closing ??= new Promise<void>((done) => addon.close(sock.handle, () => setImmediate(done)))),
  };
}
