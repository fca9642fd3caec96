/**
 * Loads the optional native batch-UDP addon (native/, built with `npx node-gyp rebuild -C native`).
 * Contract: `loadUdpBatchAddon()` returns the addon, or null when it is not built, cannot load
 * (no compiler at install time, other OS, ABI mismatch) or DNS_NATIVE_UDP=0; callers then use
 * the plain dgram path. Loaded once per process.
 */
import { createRequire } from 'node:module';

/** Int32 words per message in `meta` (layout documented in native/src/dns-udp-batch.c). */
export const META_INTS = 9;
export const META_RX_LEN = 0;
export const META_FAMILY = 1;
export const META_PORT = 2;
export const META_ADDR = 3;
export const META_TX_LEN = 7;
export const META_TX_SRC = 8;

export interface UdpBatchSocket {
  readonly fd: number;
  readonly port: number;
  readonly rx: ArrayBuffer;
  readonly tx: ArrayBuffer;
  readonly meta: ArrayBuffer;
  readonly handle: object;
}

export interface UdpBatchAddon {
  /** Binds a non-blocking SO_REUSEPORT UDP socket; throws (code EADDRINUSE, ...) on failure. */
  open(host: string, port: number, batch: number, slot: number, bufferBytes: number): UdpBatchSocket;
  /** Starts polling; `onBatch(n)` handles n received messages and returns how many tx slots to send. */
  start(handle: object, onBatch: (n: number) => number): void;
  /** Stops polling; `onClosed` runs once the socket is closed (the port is free again). */
  close(handle: object, onClosed?: () => void): void;
  /**
   * Steers the port's datagrams by source network: each goes to socket hash(/24 or /56) % `group`
   * of the port's SO_REUSEPORT group (SO_ATTACH_REUSEPORT_CBPF), so one client network always
   * reaches one worker. Throws (errno) when the kernel refuses.
   */
  steer(handle: object, group: number): void;
}

const ADDON_PATH = '../../../native/build/Release/dns_udp_batch.node';

let loaded: UdpBatchAddon | null | undefined;

export function loadUdpBatchAddon(): UdpBatchAddon | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  if (process.platform !== 'linux' || process.env.DNS_NATIVE_UDP === '0') return loaded;
  try {
    loaded = createRequire(import.meta.url)(ADDON_PATH) as UdpBatchAddon;
  } catch {
    // Not built or not loadable: the dgram path serves.
  }
  return loaded;
}
