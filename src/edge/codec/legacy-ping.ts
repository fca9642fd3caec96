/**
 * The server list ping of clients before 1.7 (wiki.vg "Server List Ping", "1.6"): `0xFE 0x01`, then
 * a plugin message `0xFA` on channel `MC|PingHost` with the protocol, host and port. Clients of
 * 1.4–1.5 send `0xFE 0x01` alone, older ones `0xFE`. The answer is a kick packet `0xFF` with a
 * UTF-16BE string `§1\0<protocol>\0<version>\0<motd>\0<online>\0<max>`; the edge answers
 * protocol 127 (no client of that age can join through it: the entry shows as incompatible).
 */

export const LEGACY_PING_FIRST_BYTE = 0xfe;
/** What the edge reads of a legacy ping before answering (the 1.6 form is about 40 bytes). */
export const LEGACY_PING_MAX_BYTES = 512;
export const LEGACY_PROTOCOL = 127;

export interface LegacyPing {
  /** The host of the `MC|PingHost` message (1.6 clients), else null. */
  readonly host: string | null;
  readonly port: number | null;
}

const PING_HOST = 'MC|PingHost';

/**
 * The legacy ping in `buf` (starting with 0xFE): the ping when it is whole, 'more' while the 1.6
 * form is still arriving, null when it is not a legacy ping.
 */
export function parseLegacyPing(buf: Buffer): LegacyPing | 'more' | null {
  if (buf.length === 0 || buf[0] !== LEGACY_PING_FIRST_BYTE) return null;
  if (buf.length === 1) return 'more';
  if (buf[1] !== 0x01) return null;
  if (buf.length === 2) return 'more';
  if (buf[2] !== 0xfa) return null;
  // 0xFA, a short channel length (UTF-16 units), the channel, a short data length, the data.
  if (buf.length < 5) return 'more';
  const channelUnits = buf.readUInt16BE(3);
  const afterChannel = 5 + channelUnits * 2;
  if (buf.length < afterChannel + 2) return 'more';
  if (utf16be(buf, 5, channelUnits) !== PING_HOST) return null;
  const dataLength = buf.readUInt16BE(afterChannel);
  const data = afterChannel + 2;
  if (buf.length < data + dataLength) return 'more';
  // Data: protocol (byte), host length (short, UTF-16 units), host, port (int).
  const hostUnits = buf.readUInt16BE(data + 1);
  if (3 + hostUnits * 2 + 4 > dataLength) return null;
  return {
    host: utf16be(buf, data + 3, hostUnits),
    port: buf.readInt32BE(data + 3 + hostUnits * 2),
  };
}

function utf16be(buf: Buffer, offset: number, units: number): string {
  const le = Buffer.allocUnsafe(units * 2);
  for (let i = 0; i < units * 2; i += 2) {
    le[i] = buf[offset + i + 1]!;
    le[i + 1] = buf[offset + i]!;
  }
  return le.toString('utf16le');
}

/** The kick packet answering a legacy ping. */
export function legacyPingResponse(fields: {
  version: string;
  motd: string;
  online: number;
  max: number;
}): Buffer {
  const text = [
    '§1',
    String(LEGACY_PROTOCOL),
    fields.version,
    fields.motd,
    String(fields.online),
    String(fields.max),
  ].join('\0');
  const le = Buffer.from(text, 'utf16le');
  const out = Buffer.allocUnsafe(3 + le.length);
  out[0] = 0xff;
  out.writeUInt16BE(text.length, 1);
  for (let i = 0; i < le.length; i += 2) {
    out[3 + i] = le[i + 1]!;
    out[3 + i + 1] = le[i]!;
  }
  return out;
}
