import { describe, expect, it } from 'vitest';
import { createCidrMatcher, IP_BYTES, parseCidr, parseIpInto } from './cidr-matcher.ts';

describe('parseIpInto', () => {
  const buf = new Uint8Array(IP_BYTES);
  it.each([
    ['127.0.0.1', 4],
    ['::1', 6],
    ['::', 6],
    ['2001:db8::1', 6],
    ['2001:db8:0:0:0:0:0:1', 6],
    ['fe80::1%eth0', 6],
    ['::ffff:192.0.2.1', 4],
    ['64:ff9b::192.0.2.1', 6],
  ] as const)('%s → IPv%i', (addr, fam) => {
    expect(parseIpInto(addr, buf)).toBe(fam);
  });
  it.each([
    '',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '01.2.3.4',
    '1::2::3',
    ':::',
    '12345::',
    'g::1',
    '1:2:3:4:5:6:7:8:9',
    'x',
  ])('rejects %j', (addr) => expect(parseIpInto(addr, buf)).toBe(0));
  it('expands :: correctly', () => {
    parseIpInto('2001:db8::ff', buf);
    expect(Array.from(buf)).toEqual([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff]);
  });
  it('maps ::ffff:a.b.c.d to IPv4 bytes', () => {
    parseIpInto('::ffff:10.1.2.3', buf);
    expect(Array.from(buf.subarray(0, 4))).toEqual([10, 1, 2, 3]);
  });
});

describe('createCidrMatcher', () => {
  const m = createCidrMatcher(['127.0.0.0/8', '::1', '10.20.0.0/15', '2001:db8:ab00::/40', '192.0.2.7']);
  it.each([
    ['127.1.2.3', true],
    ['128.0.0.1', false],
    ['::1', true],
    ['::2', false],
    ['10.21.255.255', true],
    ['10.22.0.0', false],
    ['2001:db8:abff::1', true],
    ['2001:db8:ac00::1', false],
    ['192.0.2.7', true],
    ['192.0.2.8', false],
    ['::ffff:127.0.0.1', true],
    ['not-an-ip', false],
  ] as const)('%s → %s', (addr, want) => expect(m.matches(addr)).toBe(want));
  it('empty list matches nothing; /0 matches a whole family', () => {
    expect(createCidrMatcher([]).matches('1.2.3.4')).toBe(false);
    const all4 = createCidrMatcher(['0.0.0.0/0']);
    expect(all4.matches('8.8.8.8')).toBe(true);
    expect(all4.matches('::8')).toBe(false);
  });
  it('throws on invalid entries', () => {
    expect(() => parseCidr('1.2.3.4/33')).toThrow();
    expect(() => parseCidr('::/129')).toThrow();
    expect(() => parseCidr('nope/8')).toThrow();
    expect(() => parseCidr('1.2.3.4/08')).toThrow();
  });
});
