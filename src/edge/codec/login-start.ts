/**
 * Login Start (state login, id 0x00): the player's name (at most 16 characters), followed in newer
 * protocols by their UUID; the edge reads the name only (for its log and the refusal text).
 */
import { PacketReader } from './packet-reader.ts';

export const LOGIN_START_ID = 0x00;
const MAX_NAME_BYTES = 16 * 4;

/** The player's name in a Login Start frame, or null when the frame is not one. */
export function parseLoginStartName(frame: Buffer): string | null {
  const r = new PacketReader(frame);
  if (r.varInt() !== LOGIN_START_ID) return null;
  const name = r.string(MAX_NAME_BYTES);
  return r.ok && name.length >= 1 && name.length <= 16 ? name : null;
}
