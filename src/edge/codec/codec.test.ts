import { describe, expect, it } from 'vitest';
import { FrameReader } from './frame-reader.ts';
import { MAX_HANDSHAKE_BYTES, parseHandshake } from './handshake.ts';
import { routingHost } from './host-name.ts';
import { legacyPingResponse, parseLegacyPing } from './legacy-ping.ts';
import { parseLoginStartName } from './login-start.ts';
import { PacketReader } from './packet-reader.ts';
import {
  frame,
  handshakeFrame,
  loginDisconnect,
  pong,
  statusResponse,
  stringField,
} from './packet-writer.ts';
import { MALFORMED, NEED_MORE, readVarInt, varIntSize, writeVarInt } from './varint.ts';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

describe('edge codec: VarInt (wiki.vg sample values)', () => {
  const samples: [number, string][] = [
    [0, '00'],
    [1, '01'],
    [127, '7f'],
    [128, '8001'],
    [255, 'ff01'],
    [25565, 'ddc701'],
    [2097151, 'ffff7f'],
    [2147483647, 'ffffffff07'],
    [-1, 'ffffffff0f'],
    [-2147483648, '8080808008'],
  ];
  it.each(samples)('%i ⇄ %s', (value, bytes) => {
    const out = Buffer.alloc(5);
    const end = writeVarInt(out, 0, value);
    expect(out.subarray(0, end).toString('hex')).toBe(bytes);
    expect(varIntSize(value)).toBe(bytes.length / 2);
    const v = new Int32Array(1);
    expect(readVarInt(hex(bytes), 0, bytes.length / 2, v)).toBe(bytes.length / 2);
    expect(v[0]).toBe(value);
  });

  it('asks for more when cut, refuses a sixth byte', () => {
    const v = new Int32Array(1);
    expect(readVarInt(hex('ddc7'), 0, 2, v)).toBe(NEED_MORE);
    expect(readVarInt(hex('ffffffffff01'), 0, 6, v)).toBe(MALFORMED);
  });
});

const vanilla = { protocol: 767, host: 'play.example.net', port: 25565, nextState: 'login' as const };

describe('edge codec: frames out of a TCP stream', () => {
  const stream = Buffer.concat([
    handshakeFrame(vanilla),
    frame(0x00, stringField('Steve')),
    frame(0x01, hex('00')),
  ]);

  it('reads frames split at every byte, and coalesced in one read', () => {
    const split = new FrameReader(MAX_HANDSHAKE_BYTES);
    const one = [...stream].flatMap((b) => split.push(Buffer.from([b])));
    const whole = new FrameReader(MAX_HANDSHAKE_BYTES).push(stream);
    for (const frames of [one, whole]) {
      expect(frames).toHaveLength(3);
      expect(parseHandshake(frames[0]!)).toEqual(vanilla);
      expect(parseLoginStartName(frames[1]!)).toBe('Steve');
    }
  });

  it('keeps the bytes after the last whole frame for the proxy', () => {
    const r = new FrameReader(64);
    expect(r.push(Buffer.concat([frame(0x00, hex('01')), hex('05 00')]))).toHaveLength(1);
    expect(r.rest().toString('hex')).toBe('0500');
  });

  it('refuses a frame over its limit and a length that is no VarInt, at once and for good', () => {
    const big = new FrameReader(MAX_HANDSHAKE_BYTES);
    const header = Buffer.alloc(3);
    writeVarInt(header, 0, MAX_HANDSHAKE_BYTES + 1);
    expect(big.push(header)).toEqual([]);
    expect(big.error).toBe('frame_too_large');
    expect(big.push(handshakeFrame(vanilla))).toEqual([]);
    const bad = new FrameReader(MAX_HANDSHAKE_BYTES);
    expect(bad.push(hex('ffffffffff01'))).toEqual([]);
    expect(bad.error).toBe('malformed_length');
    const empty = new FrameReader(MAX_HANDSHAKE_BYTES);
    empty.push(hex('00'));
    expect(empty.error).toBe('malformed_length');
  });
});

describe('edge codec: handshake', () => {
  it('reads what it writes, marker and all', () => {
    const forge = { ...vanilla, host: 'play.example.net\0FML3\0', nextState: 'status' as const };
    expect(parseHandshake(new FrameReader(4096).push(handshakeFrame(forge))[0]!)).toEqual(forge);
  });

  it('refuses a host over 255 bytes, trailing bytes, an unknown next state, another packet id', () => {
    const body = (h: string, tail = '') =>
      Buffer.concat([hex('00'), hex('ff05'), stringField(h), hex('63dd'), hex('02'), hex(tail)]);
    expect(parseHandshake(body('a'.repeat(255)))).not.toBeNull();
    expect(parseHandshake(body('a'.repeat(256)))).toBeNull();
    expect(parseHandshake(body('a', '00'))).toBeNull();
    expect(
      parseHandshake(Buffer.concat([hex('00ff05'), stringField('a'), hex('63dd'), hex('07')])),
    ).toBeNull();
    expect(
      parseHandshake(Buffer.concat([hex('01ff05'), stringField('a'), hex('63dd'), hex('02')])),
    ).toBeNull();
    expect(parseHandshake(hex('00ff05'))).toBeNull();
  });
});

describe('edge codec: the name a route is found by', () => {
  const table: [string, string][] = [
    ['Play.Example.NET', 'play.example.net'],
    ['play.example.net.', 'play.example.net'],
    ['play.example.net\0FML\0', 'play.example.net'],
    ['play.example.net\0FML2\0', 'play.example.net'],
    ['play.example.net\0FML3\0', 'play.example.net'],
    ['play.example.net\0FORGE', 'play.example.net'],
    ['play.example.net///203.0.113.7:53211///1732870000', 'play.example.net'],
    ['PLAY.example.net.///203.0.113.7:53211///1732870000', 'play.example.net'],
    ['', ''],
  ];
  it.each(table)('%j → %j', (sent, host) => expect(routingHost(sent)).toBe(host));
});

describe('edge codec: answers', () => {
  it('writes status, pong and a login refusal as frames a reader takes back', () => {
    const r = new FrameReader(1 << 20);
    const [status, pongFrame, refusal] = r.push(
      Buffer.concat([
        statusResponse('{"version":{"name":"1.21","protocol":767}}'),
        pong(-42n),
        loginDisconnect('Unknown address'),
      ]),
    );
    const s = new PacketReader(status!);
    expect([s.varInt(), JSON.parse(s.string(1 << 20))]).toEqual([
      0,
      { version: { name: '1.21', protocol: 767 } },
    ]);
    const p = new PacketReader(pongFrame!);
    expect([p.varInt(), p.long()]).toEqual([1, -42n]);
    const d = new PacketReader(refusal!);
    expect([d.varInt(), JSON.parse(d.string(1 << 20))]).toEqual([0, { text: 'Unknown address' }]);
  });
});

describe('edge codec: the legacy ping (before 1.7)', () => {
  /** A 1.6 client's ping to play.example.net:25565, as wiki.vg lays it out. */
  function ping16(host: string, port: number): Buffer {
    const u16 = (s: string) => Buffer.from(s, 'utf16le').swap16();
    const channel = u16('MC|PingHost');
    const h = u16(host);
    const data = Buffer.alloc(1 + 2 + h.length + 4);
    data[0] = 78;
    data.writeUInt16BE(host.length, 1);
    h.copy(data, 3);
    data.writeInt32BE(port, 3 + h.length);
    const head = Buffer.alloc(5);
    head[0] = 0xfe;
    head[1] = 0x01;
    head[2] = 0xfa;
    head.writeUInt16BE('MC|PingHost'.length, 3);
    const len = Buffer.alloc(2);
    len.writeUInt16BE(data.length);
    return Buffer.concat([head, channel, len, data]);
  }

  it('reads the 1.6 form whole, asks for more while it arrives, refuses what is not one', () => {
    const p = ping16('play.example.net', 25565);
    expect(parseLegacyPing(p)).toEqual({ host: 'play.example.net', port: 25565 });
    for (let cut = 1; cut < p.length; cut++) expect(parseLegacyPing(p.subarray(0, cut))).toBe('more');
    expect(parseLegacyPing(hex('fe02'))).toBeNull();
    expect(parseLegacyPing(hex('10'))).toBeNull();
  });

  it('answers a kick packet with protocol 127 in UTF-16BE', () => {
    const out = legacyPingResponse({ version: '1.21', motd: 'Hello', online: 3, max: 20 });
    expect(out[0]).toBe(0xff);
    const text = Buffer.from(out.subarray(3)).swap16().toString('utf16le');
    expect(text).toBe('§1\x00127\x001.21\x00Hello\x003\x0020');
    expect(out.readUInt16BE(1)).toBe(text.length);
  });
});
