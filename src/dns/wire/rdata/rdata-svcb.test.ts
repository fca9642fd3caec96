import { describe, expect, it } from 'vitest';
import { RR_TYPE } from '../rr-type.ts';
import { RdataError, formatRdata } from './rdata-codec.ts';
import { parseRdataText } from '../../zonefile/rdata-text-parser.ts';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const svcb = (text: string): Uint8Array => parseRdataText(RR_TYPE.SVCB, text, 'example.com');

/** RFC 9460 Appendix D.1 and D.2: presentation, wire (hex), canonical presentation. */
const VECTORS: readonly [string, string, string][] = [
  // D.1 AliasMode
  ['0 foo.example.com.', '0000' + '03666f6f076578616d706c6503636f6d00', '0 foo.example.com.'],
  // D.2 ServiceMode: "use the owner name"
  ['1 .', '000100', '1 .'],
  [
    '16 foo.example.com. port=53',
    '0010' + '03666f6f076578616d706c6503636f6d00' + '000300020035',
    '16 foo.example.com. port=53',
  ],
  [
    '1 foo.example.com. key667=hello',
    '0001' + '03666f6f076578616d706c6503636f6d00' + '029b' + '0005' + '68656c6c6f',
    '1 foo.example.com. key667=hello',
  ],
  [
    '1 foo.example.com. key667="hello\\210qoo"',
    '0001' + '03666f6f076578616d706c6503636f6d00' + '029b' + '0009' + '68656c6c6fd2716f6f',
    '1 foo.example.com. key667="hello\\210qoo"',
  ],
  [
    '1 foo.example.com. ( ipv6hint="2001:db8::1,2001:db8::53:1" )',
    '0001' +
      '03666f6f076578616d706c6503636f6d00' +
      '0006' +
      '0020' +
      '20010db8000000000000000000000001' +
      '20010db8000000000000000000530001',
    '1 foo.example.com. ipv6hint=2001:db8::1,2001:db8::53:1',
  ],
  [
    '1 example.com. ( ipv6hint="2001:db8:122:344::192.0.2.33" )',
    '0001' + '076578616d706c6503636f6d00' + '0006' + '0010' + '20010db80122034400000000c0000221',
    '1 example.com. ipv6hint=2001:db8:122:344::c000:221',
  ],
  [
    '16 foo.example.org. ( alpn=h2,h3-19 mandatory=ipv4hint,alpn ipv4hint=192.0.2.1 )',
    '0010' +
      '03666f6f076578616d706c65036f726700' +
      '0000' +
      '0004' +
      '00010004' +
      '0001' +
      '0009' +
      '02683205' +
      '68332d3139' +
      '0004' +
      '0004' +
      'c0000201',
    '16 foo.example.org. mandatory=alpn,ipv4hint alpn=h2,h3-19 ipv4hint=192.0.2.1',
  ],
  [
    '16 foo.example.org. alpn="f\\\\\\\\oo\\\\,bar,h2"',
    '0010' + '03666f6f076578616d706c65036f726700' + '0001' + '000c' + '08665c6f6f2c626172' + '026832',
    '16 foo.example.org. alpn="f\\\\\\\\oo\\\\,bar,h2"',
  ],
  [
    '16 foo.example.org. alpn=f\\\\\\092oo\\092,bar,h2',
    '0010' + '03666f6f076578616d706c65036f726700' + '0001' + '000c' + '08665c6f6f2c626172' + '026832',
    '16 foo.example.org. alpn="f\\\\\\\\oo\\\\,bar,h2"',
  ],
];

describe('SVCB RFC 9460 Appendix D vectors', () => {
  it.each(VECTORS)('%s', (input, wireHex, canonical) => {
    const wire = svcb(input);
    expect(hex(wire)).toBe(wireHex);
    expect(formatRdata(RR_TYPE.SVCB, wire)).toBe(canonical);
    expect(hex(svcb(canonical))).toBe(wireHex);
    // HTTPS shares the wire format.
    expect(formatRdata(RR_TYPE.HTTPS, parseRdataText(RR_TYPE.HTTPS, input, 'example.com'))).toBe(canonical);
  });

  it('prints every known key and accepts keyNNNNN for known keys', () => {
    const text =
      '1 svc.example.net. mandatory=port alpn=h3 no-default-alpn port=8443 ipv4hint=192.0.2.1,192.0.2.2 ech=AEj+ ipv6hint=::1 key7="/dns-query{?dns}" key65000';
    const out = formatRdata(RR_TYPE.HTTPS, parseRdataText(RR_TYPE.HTTPS, text, 'example.com'));
    expect(out).toBe(
      '1 svc.example.net. mandatory=port alpn=h3 no-default-alpn port=8443 ipv4hint=192.0.2.1,192.0.2.2 ech=AEj+ ipv6hint=::1 dohpath=/dns-query{?dns} key65000',
    );
    expect(hex(svcb('1 . key3=53'))).toBe(hex(svcb('1 . port=53')));
    expect(formatRdata(RR_TYPE.SVCB, svcb('1 . key667="a b"'))).toBe('1 . key667="a b"');
    expect(formatRdata(RR_TYPE.SVCB, svcb('1 . key667='))).toBe('1 . key667');
  });
});

/** RFC 9460 Appendix D.3 failure cases, plus AliasMode with parameters and other invalid input. */
const FAILURES: readonly [string, RegExp][] = [
  ['1 foo.example.com. ( key123=abc key123=def )', /key123 more than once/],
  ['1 foo.example.com. mandatory', /mandatory needs a value/],
  ['1 foo.example.com. alpn', /alpn needs a value/],
  ['1 foo.example.com. port', /port needs a value/],
  ['1 foo.example.com. ipv4hint', /ipv4hint needs a value/],
  ['1 foo.example.com. ipv6hint', /ipv6hint needs a value/],
  ['1 foo.example.com. no-default-alpn=abc', /no-default-alpn takes no value/],
  ['1 foo.example.com. mandatory=key123', /mandatory lists key123, which is not present/],
  ['1 foo.example.com. mandatory=mandatory', /must not list "mandatory"/],
  ['1 foo.example.com. ( mandatory=key123,key123 key123=abc )', /lists a key more than once/],
  ['0 foo.example.com. alpn=h2', /AliasMode/],
  ['1 . no-default-alpn', /requires alpn/],
  ['1 . port=65536', /port must be an integer/],
  ['1 . ipv4hint=192.0.2.1,', /empty item/],
  ['1 . ipv4hint=2001:db8::1', /invalid IPv4 address/],
  ['1 . ipv6hint=192.0.2.1', /invalid IPv6 address/],
  ['1 . alpn=h2,,h3', /1 to 255 octets/],
  ['1 . ech=***', /base64/],
  ['1 . foo=bar', /unknown SvcParamKey "foo"/],
  ['1 . key65535=x', /unknown SvcParamKey/],
  ['1 . key01=x', /unknown SvcParamKey/],
  ['1 . alpn= "h2"', /no spaces around "="|needs a value/],
  ['1 . mandatory=foo', /unknown key "foo"/],
  ['70000 .', /priority must be an integer/],
  ['1', /missing the target name/],
];

describe('SVCB failures', () => {
  it.each(FAILURES)('%s', (input, message) => {
    expect(() => svcb(input)).toThrow(RdataError);
    expect(() => svcb(input)).toThrow(message);
  });

  it('rejects malformed wire data (shown generically)', () => {
    const target = '00';
    // Keys out of order.
    const unordered = '0001' + target + '000300020035' + '0001000302683';
    expect(formatRdata(RR_TYPE.SVCB, Buffer.from(unordered + '2', 'hex'))).toMatch(/^\\# /);
    // AliasMode with a parameter.
    expect(formatRdata(RR_TYPE.SVCB, Buffer.from('0000' + target + '000300020035', 'hex'))).toMatch(/^\\# /);
    // Port value of the wrong length.
    expect(formatRdata(RR_TYPE.SVCB, Buffer.from('0001' + target + '00030001ff', 'hex'))).toMatch(/^\\# /);
    expect(() => parseRdataText(RR_TYPE.SVCB, '\\# 8 0001 00 00030001ff', '')).toThrow(
      /port data must be 2 octets/,
    );
  });
});
