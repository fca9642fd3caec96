import { describe, expect, it } from 'vitest';
import { RR_TYPE } from '../wire/rr-type.ts';
import { parseZoneFile } from './zone-file-parser.ts';
import type { ParsedRecord } from './zone-file-parser.ts';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function parseOk(text: string, origin = 'example.com', defaultTtl?: number): ParsedRecord[] {
  const result = parseZoneFile(text, origin, defaultTtl === undefined ? undefined : { defaultTtl });
  expect(result.errors).toEqual([]);
  return result.records;
}

const brief = (r: ParsedRecord): string => `${r.line} ${r.name} ${r.ttl} ${r.type} ${r.content}`;

describe('parseZoneFile: RFC 1035 §5 syntax', () => {
  it('reads a zone with a multi-line SOA, comments, relative names and blank owners', () => {
    const zone = `; example zone
$TTL 1h
@   IN  SOA ns1 hostmaster.example.com. (
        2024010101 ; serial
        2h         ; refresh (with a comment) ( and parentheses )
        15M        ; retry
        1w3d       ; expire
        300 )      ; minimum
    IN  NS  ns1
        NS  ns2.example.net.
ns1     A   192.0.2.1
        AAAA 2001:db8::1
www 300 IN CNAME @
mail IN 600 MX 10 mail2
*.example.com. TXT "wildcard"
`;
    expect(parseOk(zone).map(brief)).toEqual([
      '3 example.com 3600 6 ns1.example.com. hostmaster.example.com. 2024010101 7200 900 864000 300',
      '9 example.com 3600 2 ns1.example.com.',
      '10 example.com 3600 2 ns2.example.net.',
      '11 ns1.example.com 3600 1 192.0.2.1',
      '12 ns1.example.com 3600 28 2001:db8::1',
      '13 www.example.com 300 5 example.com.',
      '14 mail.example.com 600 15 10 mail2.example.com.',
      '15 *.example.com 3600 16 "wildcard"',
    ]);
  });

  it('handles escapes in names and TXT strings', () => {
    const records = parseOk(`$TTL 60
a\\.b TXT "quote \\" semi \\; \\065" "" two\\;parts "\\\\"
\\065bc.example.com. TXT x
sp\\032ace A 192.0.2.1
`);
    expect(records.map((r) => [r.name, r.content])).toEqual([
      ['a\\.b.example.com', '"quote \\" semi ; A" "" "two;parts" "\\\\"'],
      ['abc.example.com', '"x"'],
      ['sp\\032ace.example.com', '192.0.2.1'],
    ]);
    expect(hex(records[0]!.rdata)).toBe(
      Buffer.from('\x10quote " semi ; A\x00\x09two;parts\x01\\', 'latin1').toString('hex'),
    );
  });

  it('applies $ORIGIN changes relative to the current origin', () => {
    const records = parseOk(`$TTL 60
$ORIGIN sub
host A 192.0.2.1
$ORIGIN deeper.sub.example.com.
@ MX 1 mx
x CNAME y
`);
    expect(records.map((r) => `${r.name} ${r.content}`)).toEqual([
      'host.sub.example.com 192.0.2.1',
      'deeper.sub.example.com 1 mx.deeper.sub.example.com.',
      'x.deeper.sub.example.com y.deeper.sub.example.com.',
    ]);
  });

  it('resolves default TTLs: $TTL, else the last explicit TTL, else the option, else 3600', () => {
    expect(parseOk('a A 192.0.2.1\n').map((r) => r.ttl)).toEqual([3600]);
    expect(parseOk('a A 192.0.2.1\n', 'example.com', 120).map((r) => r.ttl)).toEqual([120]);
    expect(parseOk('a 50 A 192.0.2.1\nb A 192.0.2.2\n', 'example.com', 120).map((r) => r.ttl)).toEqual([
      50, 50,
    ]);
    expect(
      parseOk('a 50 A 192.0.2.1\n$TTL 1d\nb A 192.0.2.2\nc 7 A 192.0.2.3\nd A 192.0.2.4\n').map((r) => r.ttl),
    ).toEqual([50, 86400, 7, 86400]);
    expect(parseOk('a 0 A 192.0.2.1\nb 2147483647 A 192.0.2.1\n').map((r) => r.ttl)).toEqual([0, 2147483647]);
  });

  it('accepts TTL and class in either order, CLASS1 and lower-case keywords', () => {
    const records = parseOk(`a 300 IN A 192.0.2.1
b IN 300 A 192.0.2.1
c in a 192.0.2.1
d CLASS1 5m A 192.0.2.1
`);
    expect(records.map((r) => `${r.name} ${r.ttl}`)).toEqual([
      'a.example.com 300',
      'b.example.com 300',
      'c.example.com 300',
      'd.example.com 300',
    ]);
  });

  it('returns apex SOA and NS and lower-cases owners only', () => {
    const records = parseOk('@ 3600 SOA NS1.Example.COM. h. 1 2 3 4 5\n@ NS NS1\nWWW A 192.0.2.1\n');
    expect(records.map((r) => [r.name, r.type, r.content])).toEqual([
      ['example.com', RR_TYPE.SOA, 'NS1.Example.COM. h. 1 2 3 4 5'],
      ['example.com', RR_TYPE.NS, 'NS1.example.com.'],
      ['www.example.com', RR_TYPE.A, '192.0.2.1'],
    ]);
  });
});

describe('parseZoneFile: record types', () => {
  it('reads the RFC 9460 Appendix D SVCB/HTTPS examples', () => {
    const records = parseOk(`$ORIGIN example.com.
$TTL 300
@      HTTPS  0 foo.example.com.
@      SVCB   1 .
@      SVCB   16 foo.example.com. port=53
@      SVCB   1 foo.example.com. key667=hello
@      SVCB   1 foo.example.com. key667="hello\\210qoo"
@      SVCB   1 foo.example.com. (
                      ipv6hint="2001:db8::1,2001:db8::53:1"
                      )
@      SVCB   1 example.com. (
                        ipv6hint="2001:db8:122:344::192.0.2.33"
                        )
@      SVCB   16 foo.example.org. (
                      alpn=h2,h3-19 mandatory=ipv4hint,alpn
                      ipv4hint=192.0.2.1
                      )
@      SVCB   16 foo.example.org. alpn="f\\\\\\\\oo\\\\,bar,h2"
@      SVCB   16 foo.example.org. alpn=f\\\\\\092oo\\092,bar,h2
`);
    expect(records.map((r) => `${r.line} ${r.content}`)).toEqual([
      '3 0 foo.example.com.',
      '4 1 .',
      '5 16 foo.example.com. port=53',
      '6 1 foo.example.com. key667=hello',
      '7 1 foo.example.com. key667="hello\\210qoo"',
      '8 1 foo.example.com. ipv6hint=2001:db8::1,2001:db8::53:1',
      '11 1 example.com. ipv6hint=2001:db8:122:344::c000:221',
      '14 16 foo.example.org. mandatory=alpn,ipv4hint alpn=h2,h3-19 ipv4hint=192.0.2.1',
      '18 16 foo.example.org. alpn="f\\\\\\\\oo\\\\,bar,h2"',
      '19 16 foo.example.org. alpn="f\\\\\\\\oo\\\\,bar,h2"',
    ]);
    expect(hex(records[8]!.rdata)).toBe(hex(records[9]!.rdata));
  });

  it('rejects the RFC 9460 Appendix D.3 failure cases, each on its own line', () => {
    const { records, errors } = parseZoneFile(
      `$TTL 300
f01 SVCB 1 foo.example.com. (
      key123=abc key123=def
      )
f02 SVCB 1 foo.example.com. mandatory
f03 SVCB 1 foo.example.com. alpn
f04 SVCB 1 foo.example.com. port
f05 SVCB 1 foo.example.com. ipv4hint
f06 SVCB 1 foo.example.com. ipv6hint
f07 SVCB 1 foo.example.com. no-default-alpn=abc
f08 SVCB 1 foo.example.com. mandatory=key123
f09 SVCB 1 foo.example.com. mandatory=mandatory
f10 SVCB 1 foo.example.com. (
      mandatory=key123,key123 key123=abc
      )
`,
      'example.com',
    );
    expect(records).toEqual([]);
    expect(errors.map((e) => e.line)).toEqual([2, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it('reads NAPTR examples from RFC 3403 §6', () => {
    const records = parseOk(
      `$ORIGIN cid.urn.arpa.
@ IN NAPTR 100   10   ""  ""  "!^urn:cid:.+@([^\\\\.]+\\\\.)(.*)$!\\\\2!i"    .
$ORIGIN example.com.
;;      order pref flags service           regexp replacement
    IN NAPTR 100  50  "a"    "z3950+N2L+N2C"     ""   cidserver.example.com.
    IN NAPTR 100  50  "a"    "rcds+N2C"          ""   cidserver.example.com.
    IN NAPTR 100  50  "s"    "http+N2L+N2C+N2R"  ""   www.example.com.
`,
      'arpa',
    );
    expect(records.map((r) => `${r.name} ${r.content}`)).toEqual([
      'cid.urn.arpa 100 10 "" "" "!^urn:cid:.+@([^\\\\.]+\\\\.)(.*)$!\\\\2!i" .',
      'cid.urn.arpa 100 50 "a" "z3950+N2L+N2C" "" cidserver.example.com.',
      'cid.urn.arpa 100 50 "a" "rcds+N2C" "" cidserver.example.com.',
      'cid.urn.arpa 100 50 "s" "http+N2L+N2C+N2R" "" www.example.com.',
    ]);
    // The regexp keeps its backslashes: "\\." in the file is "\." on the wire.
    expect(Buffer.from(records[0]!.rdata).toString('latin1')).toContain(
      '!^urn:cid:.+@([^\\.]+\\.)(.*)$!\\2!i',
    );
  });

  it('reads CAA (RFC 8659), TLSA, SSHFP, DS, DNAME and generic records', () => {
    const records = parseOk(`$TTL 300
@ CAA 0 issue "ca1.example.net"
@ CAA 0 issuewild ";"
@ CAA 0 iodef "mailto:security@example.com"
@ CAA 128 tbs "Unknown"
@ CAA 0 issue "ca1.example.net; account=230123"
_443._tcp.www TLSA 3 1 1 ( 0D6FCE3BE0A4B0FB6D5D2AB38A5F76C1
                         D3E2A4C1A6F5E4B3C2D1E0F1A2B3C4D5 )
host SSHFP 4 2 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
sub DS 60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118
old DNAME new.example.net.
unk TYPE65534 \\# 3 abcdef
gen A \\# 4 0A000001
empty TYPE65280 \\# 0
`);
    expect(records.map((r) => `${r.name} ${r.type} ${r.content}`)).toEqual([
      'example.com 257 0 issue "ca1.example.net"',
      'example.com 257 0 issuewild ";"',
      'example.com 257 0 iodef "mailto:security@example.com"',
      'example.com 257 128 tbs "Unknown"',
      'example.com 257 0 issue "ca1.example.net; account=230123"',
      '_443._tcp.www.example.com 52 3 1 1 0D6FCE3BE0A4B0FB6D5D2AB38A5F76C1D3E2A4C1A6F5E4B3C2D1E0F1A2B3C4D5',
      'host.example.com 44 4 2 0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF',
      'sub.example.com 43 60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118',
      'old.example.com 39 new.example.net.',
      'unk.example.com 65534 \\# 3 ABCDEF',
      'gen.example.com 1 10.0.0.1',
      'empty.example.com 65280 \\# 0',
    ]);
    expect(hex(records[10]!.rdata)).toBe('0a000001');
  });
});

describe('parseZoneFile: errors', () => {
  it('collects every error with the line the entry starts on', () => {
    const zone = `$TTL 300
ok1 A 192.0.2.1
$INCLUDE other.zone
ch CH TXT "chaos"
bad FOO 1
a A 1.2.3
x.other.org. A 192.0.2.1
p TXT "unterminated
q SOA ns1 h ( 1 2 3
  4 5 ) )
big 2147483648 A 192.0.2.1
$GENERATE 1-10 host$ A 192.0.2.$
mx MX 65536 mail
ok2 A 192.0.2.2
t TTL
$TTL 1y
a..b A 192.0.2.1
  A 192.0.2.9
ok3 A 192.0.2.3
open TXT ( "never closed"
ok4 A 192.0.2.4
`;
    const { records, errors } = parseZoneFile(zone, 'example.com');
    expect(errors).toEqual([
      { line: 3, message: '$INCLUDE is not supported' },
      { line: 4, message: 'class CH is not supported (only IN)' },
      { line: 5, message: 'unknown type FOO' },
      { line: 6, message: 'A record needs an IPv4 address, got "1.2.3"' },
      { line: 7, message: 'name x.other.org is outside the zone example.com' },
      { line: 8, message: 'unbalanced quotes: a quoted string is not closed on its line' },
      { line: 9, message: "unbalanced parentheses: ')' without a matching '('" },
      { line: 11, message: 'TTL 2147483648 is out of range (0 to 2147483647 seconds)' },
      { line: 12, message: 'unknown directive $GENERATE' },
      { line: 13, message: 'MX preference must be an integer from 0 to 65535, got "65536"' },
      { line: 15, message: 'unknown type TTL' },
      { line: 16, message: 'invalid TTL "1y"' },
      { line: 17, message: 'invalid owner name: the name "a..b" has an empty label' },
      { line: 18, message: 'the record has no owner name and there is no previous one' },
      { line: 20, message: "unbalanced parentheses: '(' on line 20 is never closed" },
    ]);
    expect(records.map((r) => `${r.line} ${r.name}`)).toEqual([
      '2 ok1.example.com',
      '14 ok2.example.com',
      '19 ok3.example.com',
      '21 ok4.example.com',
    ]);
  });

  it('reports a missing type, missing data and meta types', () => {
    const { errors } = parseZoneFile('a 300\nb MX\nc OPT \\# 0\nd AXFR\n', 'example.com');
    expect(errors).toEqual([
      { line: 1, message: 'the record is missing its type' },
      { line: 2, message: 'MX record is missing the preference' },
      { line: 3, message: 'type OPT cannot be used in zone data' },
      { line: 4, message: 'type AXFR cannot be used in zone data' },
    ]);
  });

  it('reports directive misuse', () => {
    const { errors } = parseZoneFile('$ORIGIN\n$TTL 1 2\n$ORIGIN a..b\n', 'example.com');
    expect(errors.map((e) => e.line)).toEqual([1, 2, 3]);
  });
});

describe('parseZoneFile: details', () => {
  it('ignores a byte order mark and reports negative TTLs as TTLs', () => {
    const { records, errors } = parseZoneFile('\uFEFFa A 192.0.2.1\nb -1 A 192.0.2.1\n', 'example.com');
    expect(records.map((r) => r.name)).toEqual(['a.example.com']);
    expect(errors).toEqual([{ line: 2, message: 'invalid TTL "-1"' }]);
  });

  it('does not attach blank-owner lines to an older owner after a bad owner', () => {
    const { records, errors } = parseZoneFile(
      'a A 192.0.2.1\nb..c A 192.0.2.2\n  A 192.0.2.3\n',
      'example.com',
    );
    expect(records.map((r) => r.name)).toEqual(['a.example.com']);
    expect(errors.map((e) => e.line)).toEqual([2, 3]);
  });

  it('accepts an origin with a trailing dot and upper case', () => {
    const { records, errors } = parseZoneFile('www A 192.0.2.1\n', 'Example.COM.');
    expect(errors).toEqual([]);
    expect(records.map((r) => r.name)).toEqual(['www.example.com']);
  });
});
