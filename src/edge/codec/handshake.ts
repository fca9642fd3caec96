/**
 * The first packet of every Java Edition connection (wiki.vg "Protocol", "Handshake", id 0x00):
 * the client's protocol version, the address it typed as it sends it, the port, and what comes
 * next (1 status, 2 login, 3 transfer).
 */
import { PacketReader } from './packet-reader.ts';

export const HANDSHAKE_ID = 0x00;
/** The longest address field accepted, in bytes (vanilla writes at most 255 characters). */
export const MAX_HOST_BYTES = 255;
/** The longest handshake frame accepted: anything longer is not a client's. */
export const MAX_HANDSHAKE_BYTES = 4096;

export type NextState = 'status' | 'login' | 'transfer';

export interface Handshake {
  readonly protocol: number;
  /** The address as the client sent it (markers and all): what is replayed upstream. */
  readonly host: string;
  readonly port: number;
  readonly nextState: NextState;
}

const NEXT_STATES: Readonly<Record<number, NextState>> = { 1: 'status', 2: 'login', 3: 'transfer' };

/** The handshake in `frame` (packet id first), or null when the frame is not a well-formed one. */
export function parseHandshake(frame: Buffer): Handshake | null {
  if (frame.length > MAX_HANDSHAKE_BYTES) return null;
  const r = new PacketReader(frame);
  if (r.varInt() !== HANDSHAKE_ID) return null;
  const protocol = r.varInt();
  const host = r.string(MAX_HOST_BYTES);
  const port = r.unsignedShort();
  const nextState = NEXT_STATES[r.varInt()];
  if (!r.ok || r.remaining !== 0 || nextState === undefined) return null;
  return { protocol, host, port, nextState };
}
