import * as dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { RR_TYPE, typeFromText } from '../rr-type.ts';
import { RdataError, formatRdata } from './rdata-codec.ts';
import { parseRdataText } from '../../zonefile/rdata-text-parser.ts';

const ORIGIN = 'example.com';
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** dns-packet's per-type encoders (untyped in @types/dns-packet) as an independent oracle. */
const packetRecord = (
  dnsPacket as unknown as { record(type: string): { encode(data: unknown): Buffer } }
).record.bind(dnsPacket);
const oracle = (type: string, data: unknown): string => hex(packetRecord(type).encode(data).subarray(2));

function t(type: string): number {
  const n = typeFromText(type);
  if (n === null) throw new Error(type);
  return n;
}

/** [type, input, canonical presentation] */
const CASES: readonly [string, string, string][] = [
  ['A', '192.0.2.1', '192.0.2.1'],
  ['AAAA', '2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
  ['AAAA', '::ffff:192.0.2.1', '::ffff:192.0.2.1'],
  ['NS', 'ns1', 'ns1.example.com.'],
  ['CNAME', 'Target.Example.NET.', 'Target.Example.NET.'],
  ['PTR', '@', 'example.com.'],
  ['DNAME', 'example.org.', 'example.org.'],
  ['MX', '10 mail', '10 mail.example.com.'],
  ['MX', '0 .', '0 .'],
  ['SRV', '10 60 5060 sip.example.com.', '10 60 5060 sip.example.com.'],
  ['SRV', '0 0 0 .', '0 0 0 .'],
  ['TXT', 'hello', '"hello"'],
  ['TXT', '"a b" "c\\"d" "" "\\\\" "\\065\\010"', '"a b" "c\\"d" "" "\\\\" "A\\010"'],
  ['TXT', '"semi;colon" ( "paren" )', '"semi;colon" "paren"'],
  ['TXT', '"caf\u00e9"', '"caf\\195\\169"'],
  ['HINFO', '"PC" "Linux 6"', '"PC" "Linux 6"'],
  [
    'SOA',
    'ns1 hostmaster 2024010101 1h 15m 1w3d 1d',
    'ns1.example.com. hostmaster.example.com. 2024010101 3600 900 864000 86400',
  ],
  ['SOA', '( ns1.example.com. h.example.com. 1 2 3 4 5 )', 'ns1.example.com. h.example.com. 1 2 3 4 5'],
  ['CAA', '0 issue "ca.example.net"', '0 issue "ca.example.net"'],
  ['CAA', '0 issue ca.example.net', '0 issue "ca.example.net"'],
  ['CAA', '128 tbs "Unknown"', '128 tbs "Unknown"'],
  ['CAA', '0 issue ";"', '0 issue ";"'],
  ['CAA', '0 iodef "mailto:security@example.com"', '0 iodef "mailto:security@example.com"'],
  ['CAA', '0 issue ""', '0 issue ""'],
  [
    'DS',
    '60485 5 1 ( 2BB183AF5F22588179A53B0A 98631FAD1A292118 )',
    '60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118',
  ],
  [
    'DS',
    '2371 13 2 1f987cc6583e92df0890718c42e0e1f6d3a9ae8d9c6f0eb8e0d2f98a0e1e6a1c',
    '2371 13 2 1F987CC6583E92DF0890718C42E0E1F6D3A9AE8D9C6F0EB8E0D2F98A0E1E6A1C',
  ],
  ['DS', '1 ECDSAP256SHA256 200 AABB', '1 13 200 AABB'],
  ['CDS', '0 0 0 00', '0 0 0 00'],
  ['SSHFP', '2 1 123456789abcdef67890123456789abcdef67890', '2 1 123456789ABCDEF67890123456789ABCDEF67890'],
  [
    'TLSA',
    '3 1 1 0D6FCE3BE0A4B0FB6D5D2AB38A5F76C1D3E2A4C1A6F5E4B3C2D1E0F1A2B3C4D5',
    '3 1 1 0D6FCE3BE0A4B0FB6D5D2AB38A5F76C1D3E2A4C1A6F5E4B3C2D1E0F1A2B3C4D5',
  ],
  ['TLSA', '0 0 0 30820123', '0 0 0 30820123'],
  [
    'NAPTR',
    '100 50 "a" "z3950+N2L+N2C" "" cidserver.example.com.',
    '100 50 "a" "z3950+N2L+N2C" "" cidserver.example.com.',
  ],
  [
    'NAPTR',
    '100 10 "" "" "!^urn:cid:.+@([^\\\\.]+\\\\.)(.*)$!\\\\2!i" .',
    '100 10 "" "" "!^urn:cid:.+@([^\\\\.]+\\\\.)(.*)$!\\\\2!i" .',
  ],
  ['DNSKEY', '257 3 8 AwEAAagD AQA=', '257 3 8 AwEAAagDAQA='],
  ['CDNSKEY', '0 3 0 AA==', '0 3 0 AA=='],
  [
    'RRSIG',
    'A 8 3 86400 20300101000000 20200101000000 12345 example.com. AQID',
    'A 8 3 86400 20300101000000 20200101000000 12345 example.com. AQID',
  ],
  [
    'RRSIG',
    'TYPE65534 13 2 300 1893456000 1577836800 1 . AQID',
    'TYPE65534 13 2 300 20300101000000 20200101000000 1 . AQID',
  ],
  ['NSEC', 'host.example.com. A MX RRSIG NSEC TYPE1234', 'host.example.com. A MX RRSIG NSEC TYPE1234'],
  ['NSEC', 'next', 'next.example.com.'],
  [
    'NSEC3',
    '1 1 12 aabbccdd 2t7b4g4vsa5smi47k61mv5bv1a22bojr A RRSIG',
    '1 1 12 AABBCCDD 2T7B4G4VSA5SMI47K61MV5BV1A22BOJR A RRSIG',
  ],
  ['NSEC3', '1 0 0 - 2T7B4G4VSA5SMI47K61MV5BV1A22BOJR', '1 0 0 - 2T7B4G4VSA5SMI47K61MV5BV1A22BOJR'],
  ['NSEC3PARAM', '1 0 0 -', '1 0 0 -'],
  ['NSEC3PARAM', '1 0 10 ABCD', '1 0 10 ABCD'],
  ['HTTPS', '1 . alpn=h2,h3 ipv4hint=192.0.2.1', '1 . alpn=h2,h3 ipv4hint=192.0.2.1'],
  ['HTTPS', '0 svc.example.net.', '0 svc.example.net.'],
  ['TYPE65534', '\\# 3 abcdef', '\\# 3 ABCDEF'],
  ['TYPE65534', '\\# 0', '\\# 0'],
  ['A', '\\# 4 0A000001', '10.0.0.1'],
];

describe('formatRdata(parseRdataText(...))', () => {
  it.each(CASES)('%s %s', (type, input, canonical) => {
    const code = t(type);
    const wire = parseRdataText(code, input, ORIGIN);
    const text = formatRdata(code, wire);
    expect(text).toBe(canonical);
    // The invariant: the canonical form parses back to the same bytes and prints the same.
    const again = parseRdataText(code, text, ORIGIN);
    expect(hex(again)).toBe(hex(wire));
    expect(formatRdata(code, again)).toBe(text);
    // And the generic form of the same data is accepted for every type.
    expect(hex(parseRdataText(code, `\\# ${wire.length} ${hex(wire)}`, ORIGIN))).toBe(hex(wire));
  });
});

describe('wire bytes match dns-packet where it has an encoder', () => {
  it('A, AAAA, MX, SRV, SOA, TXT, CAA, DS, NS', () => {
    expect(hex(parseRdataText(RR_TYPE.A, '192.0.2.1', ORIGIN))).toBe(oracle('A', '192.0.2.1'));
    expect(hex(parseRdataText(RR_TYPE.AAAA, '2001:db8::1', ORIGIN))).toBe(oracle('AAAA', '2001:db8::1'));
    expect(hex(parseRdataText(RR_TYPE.MX, '10 mail', ORIGIN))).toBe(
      oracle('MX', { preference: 10, exchange: 'mail.example.com' }),
    );
    expect(hex(parseRdataText(RR_TYPE.SRV, '1 2 443 t.example.com.', ORIGIN))).toBe(
      oracle('SRV', { priority: 1, weight: 2, port: 443, target: 't.example.com' }),
    );
    expect(hex(parseRdataText(RR_TYPE.SOA, 'ns1 h 5 6 7 8 9', ORIGIN))).toBe(
      oracle('SOA', {
        mname: 'ns1.example.com',
        rname: 'h.example.com',
        serial: 5,
        refresh: 6,
        retry: 7,
        expire: 8,
        minimum: 9,
      }),
    );
    expect(hex(parseRdataText(RR_TYPE.TXT, '"a" "bc"', ORIGIN))).toBe(oracle('TXT', ['a', 'bc']));
    expect(hex(parseRdataText(RR_TYPE.CAA, '0 issue "ca.example.net"', ORIGIN))).toBe(
      oracle('CAA', { flags: 0, tag: 'issue', value: 'ca.example.net' }),
    );
    expect(hex(parseRdataText(RR_TYPE.DS, '1 8 1 00112233445566778899aabbccddeeff00112233', ORIGIN))).toBe(
      oracle('DS', {
        keyTag: 1,
        algorithm: 8,
        digestType: 1,
        digest: Buffer.from('00112233445566778899aabbccddeeff00112233', 'hex'),
      }),
    );
    expect(hex(parseRdataText(RR_TYPE.NS, 'ns.example.org.', ORIGIN))).toBe(oracle('NS', 'ns.example.org'));
  });
});

describe('formatRdata on data that is not valid for its type', () => {
  it('falls back to the generic form', () => {
    expect(formatRdata(RR_TYPE.A, Uint8Array.of(1, 2, 3))).toBe('\\# 3 010203');
    expect(formatRdata(RR_TYPE.MX, Uint8Array.of(0, 1, 0xc0, 0x0c))).toBe('\\# 4 0001C00C');
    expect(formatRdata(RR_TYPE.TXT, new Uint8Array(0))).toBe('\\# 0');
    expect(formatRdata(RR_TYPE.TXT, Uint8Array.of(5, 0x61))).toBe('\\# 2 0561');
    expect(formatRdata(RR_TYPE.OPT, Uint8Array.of(1))).toBe('\\# 1 01');
  });
});

/** [type, input, field, message pattern] */
const ERRORS: readonly [string, string, string, RegExp][] = [
  ['A', '1.2.3', 'address', /^A record needs an IPv4 address, got "1.2.3"$/],
  ['A', '01.2.3.4', 'address', /IPv4/],
  ['A', '', 'address', /A record is missing the IPv4 address/],
  ['A', '1.2.3.4 5.6.7.8', 'rdata', /unexpected extra data: 5\.6\.7\.8/],
  ['AAAA', '192.0.2.1', 'address', /use an A record/],
  ['AAAA', 'fe80::1%eth0', 'address', /IPv6/],
  ['MX', '65536 mail', 'preference', /^MX preference must be an integer from 0 to 65535/],
  ['MX', '-1 mail', 'preference', /MX preference/],
  ['MX', '10', 'exchange', /MX record is missing the mail exchange name/],
  ['MX', '10 a..b', 'exchange', /empty label/],
  ['SRV', '1 2 70000 t.', 'port', /SRV port must be an integer from 0 to 65535/],
  ['SRV', '1 x 1 t.', 'weight', /SRV weight/],
  ['TXT', '', 'text', /at least one string/],
  ['TXT', `"${'x'.repeat(256)}"`, 'text', /256 octets long; a string holds at most 255/],
  ['TXT', 'x'.repeat(256), 'text', /at most 255/],
  ['TXT', '"\\1x"', 'text', /three digits/],
  ['TXT', '"\\300"', 'text', /above 255/],
  ['TXT', 'a"b"c', 'text', /stray quote/],
  ['TXT', '"open', 'rdata', /unbalanced quotes/],
  ['TXT', '( "a"', 'rdata', /never closed/],
  ['TXT', '"a" )', 'rdata', /without a matching/],
  ['SOA', 'ns1 h 1 2 3 4', 'minimum', /SOA record is missing the minimum/],
  ['SOA', 'ns1 h 1 2 3 4 5 6', 'rdata', /extra data: 6/],
  ['SOA', 'ns1 h 1h 2 3 4 5', 'serial', /SOA serial must be an integer/],
  ['SOA', 'ns1 h 1 2x 3 4 5', 'refresh', /SOA refresh must be a number of seconds/],
  ['SOA', 'ns1 h 4294967296 2 3 4 5', 'serial', /4294967295/],
  ['CAA', '256 issue "x"', 'flags', /CAA flags must be an integer from 0 to 255/],
  ['CAA', '0 is-sue "x"', 'tag', /CAA tag must be 1 to 15/],
  ['CAA', '0 abcdefghijklmnop "x"', 'tag', /CAA tag/],
  ['CAA', '0 issue', 'value', /missing the value/],
  ['CAA', '0 issue "a" "b"', 'rdata', /extra data/],
  ['DS', '1 8 1 abc', 'digest', /even number of hex digits/],
  ['DS', '1 8 1 zz', 'digest', /hex/],
  ['DS', '1 8 2 00112233445566778899aabbccddeeff00112233', 'digest', /digest type 2 must be 32 octets/],
  ['DS', '1 8 4 00', 'digest', /must be 48 octets/],
  ['DS', '1 8 1', 'digest', /missing the digest/],
  ['DS', '70000 8 1 00', 'keyTag', /key tag/],
  ['DS', '1 FOO 1 00', 'algorithm', /algorithm/],
  ['SSHFP', '1 1 0011', 'fingerprint', /type 1 must be 20 octets/],
  ['SSHFP', '1 2 0011', 'fingerprint', /must be 32 octets/],
  ['TLSA', '4 0 0 00', 'usage', /usage must be an integer from 0 to 3/],
  ['TLSA', '3 2 0 00', 'selector', /selector must be an integer from 0 to 1/],
  ['TLSA', '3 1 3 00', 'matchingType', /matching type must be an integer from 0 to 2/],
  ['TLSA', '3 1 1 00', 'data', /matching type 1 must be 32 octets/],
  ['TLSA', '3 1 2 ' + '00'.repeat(32), 'data', /must be 64 octets/],
  ['NAPTR', '100 10 "a!" "" "" .', 'flags', /NAPTR flags/],
  ['NAPTR', '100 10 "" "" ""', 'replacement', /missing the replacement/],
  ['DNSKEY', '257 2 8 AwEAAQ==', 'protocol', /protocol must be 3/],
  ['DNSKEY', '257 3 8 !!!', 'publicKey', /base64/],
  ['RRSIG', 'A 8 3 86400 20301301000000 20200101000000 1 . AQID', 'expiration', /YYYYMMDDHHmmSS/],
  ['RRSIG', 'FOO 8 3 86400 20300101000000 20200101000000 1 . AQID', 'typeCovered', /not a type/],
  ['NSEC', 'next. A BOGUS', 'types', /unknown type "BOGUS"/],
  ['NSEC3', '1 0 0 - 2T7B4G4VSA5SMI47K61MV5BV1A22BOJZ', 'nextHashedOwner', /base32hex/],
  ['NSEC3PARAM', '1 0 0 xyz', 'salt', /salt/],
  ['HINFO', '"PC"', 'os', /missing the OS string/],
  ['A', '\\# 3 0A0000', 'address', /generic data .* is not valid A data/],
  ['A', '\\# 4 0A0000', 'data', /3 octets of hex but declares a length of 4/],
  ['TYPE65534', '\\# x', 'length', /length must be an integer/],
  ['TYPE65534', '\\#', 'length', /missing the length/],
  ['TYPE65534', '\\# 2 abc', 'data', /even number of hex digits/],
  ['TYPE65534', 'abc', 'rdata', /only be written in the generic form/],
  ['OPT', '\\# 0', 'type', /cannot be used in zone data/],
  ['ANY', '\\# 0', 'type', /cannot be used/],
];

describe('validation errors', () => {
  it.each(ERRORS)('%s %s', (type, input, field, message) => {
    let caught: unknown;
    try {
      parseRdataText(t(type), input, ORIGIN);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(RdataError);
    expect((caught as RdataError).field).toBe(field);
    expect((caught as RdataError).message).toMatch(message);
  });

  it('rejects TXT data over 65535 octets in total', () => {
    const s = `"${'x'.repeat(255)}" `.repeat(257);
    expect(() => parseRdataText(RR_TYPE.TXT, s, ORIGIN)).toThrow(/at most 65535/);
  });

  it('rejects a second logical line', () => {
    expect(() => parseRdataText(RR_TYPE.A, '1.2.3.4\n5.6.7.8', ORIGIN)).toThrow(/one line/);
  });
});
