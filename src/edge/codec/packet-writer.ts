/**
 * Frames the edge writes: a VarInt length, the packet id, its fields (wiki.vg "Protocol"). Each
 * answer is built in one buffer of its exact size.
 */
import { varIntSize, writeVarInt } from './varint.ts';
import { HANDSHAKE_ID, type Handshake } from './handshake.ts';

const NEXT_STATE_IDS = { status: 1, login: 2, transfer: 3 } as const;

/** A frame of packet `id` whose fields are `body` (already encoded). */
export function frame(id: number, body: Buffer): Buffer {
  const length = varIntSize(id) + body.length;
  const out = Buffer.allocUnsafe(varIntSize(length) + length);
  let at = writeVarInt(out, 0, length);
  at = writeVarInt(out, at, id);
  body.copy(out, at);
  return out;
}

/** A String field: VarInt byte length, then UTF-8. */
export function stringField(s: string): Buffer {
  const bytes = Buffer.byteLength(s, 'utf8');
  const out = Buffer.allocUnsafe(varIntSize(bytes) + bytes);
  out.write(s, writeVarInt(out, 0, bytes), 'utf8');
  return out;
}

/** Status response (state status, id 0x00): the server list's JSON. */
export function statusResponse(json: string): Buffer {
  return frame(0x00, stringField(json));
}

/** Pong (state status, id 0x01): the ping's payload sent back. */
export function pong(payload: bigint): Buffer {
  const body = Buffer.allocUnsafe(8);
  body.writeBigInt64BE(payload);
  return frame(0x01, body);
}

/** Disconnect during login (state login, id 0x00): a JSON text component the client shows. */
export function loginDisconnect(message: string): Buffer {
  return frame(0x00, stringField(JSON.stringify({ text: message })));
}

/** A handshake as a client writes it (the edge replays the player's, its address possibly extended). */
export function handshakeFrame(h: Handshake): Buffer {
  const host = stringField(h.host);
  const body = Buffer.allocUnsafe(varIntSize(h.protocol) + host.length + 2 + 1);
  let at = writeVarInt(body, 0, h.protocol);
  at += host.copy(body, at);
  body.writeUInt16BE(h.port, at);
  at = writeVarInt(body, at + 2, NEXT_STATE_IDS[h.nextState]);
  return frame(HANDSHAKE_ID, body.subarray(0, at));
}
