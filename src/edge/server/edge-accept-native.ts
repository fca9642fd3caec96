/**
 * Loads the optional native accept addon (native/src/edge-accept.c, built at install with
 * node-gyp). Contract: `loadEdgeAcceptAddon()` returns the addon, or null when it is not built,
 * cannot load (no compiler at install time, other OS, ABI mismatch) or EDGE_NATIVE=0; the edge
 * then listens with node:net. The module is loaded once per process; EDGE_NATIVE is read per call.
 */
import { createRequire } from 'node:module';

/** onAdmit's answers (native/src/edge-accept.c). */
export const NATIVE_ANSWER = 0;
export const NATIVE_REFUSE = 1;
export const NATIVE_HANDOFF = 2;

export interface EdgeAcceptListener {
  readonly fd: number;
  readonly port: number;
  readonly handle: object;
}

export interface EdgeAcceptAddon {
  /** A listening TCP socket on an IP address; throws (code EADDRINUSE, ...) on failure, TypeError for a name. */
  listen(host: string, port: number, backlog: number): EdgeAcceptListener;
  start(
    handle: object,
    /** A status exchange for published entry `entryId` from `address`: NATIVE_ANSWER, _REFUSE or _HANDOFF. */
    onAdmit: (address: string, entryId: number) => number,
    /** JS takes the connection: its descriptor, the bytes read so far, the milliseconds it was held. */
    onHandoff: (fd: number, read: Buffer, heldMs: number) => void,
    /** A connection answered natively sent something other than the ping and was closed. */
    onMalformed: () => void,
  ): void;
  /** The status response frame for a cleaned host name and client protocol (replaces an earlier one). */
  publish(handle: object, host: string, protocol: number, response: Buffer, entryId: number): void;
  /** Forgets every published response. */
  clear(handle: object): void;
  /** Stops accepting and closes what it holds; `onClosed` runs once the port is free. */
  close(handle: object, onClosed?: () => void): void;
}

const ADDON_PATH = '../../../native/build/Release/edge_accept.node';

let loaded: EdgeAcceptAddon | null | undefined;

export function loadEdgeAcceptAddon(): EdgeAcceptAddon | null {
  if (process.platform !== 'linux' || process.env.EDGE_NATIVE === '0') return null;
  if (loaded !== undefined) return loaded;
  loaded = null;
  try {
    loaded = createRequire(import.meta.url)(ADDON_PATH) as EdgeAcceptAddon;
  } catch {
    // Not built or not loadable: node:net serves.
  }
  return loaded;
}
