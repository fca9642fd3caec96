import { describe, expect, it } from 'vitest';
import { parseZoneFile } from './zone-file-parser.ts';
import { writeZoneFile } from './zone-file-writer.ts';

const ZONE = `$TTL 300
@ SOA ns1 hostmaster 1 7200 900 1209600 300
@ NS ns1
@ 60 MX 10 mail
ns1 A 192.0.2.1
ns1 AAAA 2001:db8::1
*.wild TXT "a \\"quoted\\" ; string" "" "\\000\\255"
a\\.dot TXT x
\\$dollar A 192.0.2.2
\\@at A 192.0.2.3
sp\\032ace CNAME @
_sip._tcp SRV 0 5 5060 sip
svc HTTPS 1 . alpn="f\\\\\\\\oo\\\\,bar,h2" key667="hello world" ipv6hint=::ffff:192.0.2.1
@ CAA 0 issue "ca.example.net; account=1"
n NAPTR 100 50 "s" "http+N2L" "!^.*$!\\\\1!" .
_443._tcp TLSA 3 1 1 0D6FCE3BE0A4B0FB6D5D2AB38A5F76C1D3E2A4C1A6F5E4B3C2D1E0F1A2B3C4D5
unk TYPE65534 \\# 3 abcdef
`;

describe('writeZoneFile', () => {
  it('writes $ORIGIN and one absolute line per record', () => {
    const text = writeZoneFile('example.com', [
      { name: 'www.example.com', type: 1, ttl: 300, content: '192.0.2.1' },
      { name: 'example.com', type: 16, ttl: 60, content: '"hello"' },
    ]);
    expect(text).toBe(
      '$ORIGIN example.com.\nwww.example.com. 300 IN A 192.0.2.1\nexample.com. 60 IN TXT "hello"\n',
    );
  });

  it('round-trips through parseZoneFile with identical name, type, ttl and rdata', () => {
    const first = parseZoneFile(ZONE, 'example.com');
    expect(first.errors).toEqual([]);
    const written = writeZoneFile('example.com', first.records);
    const second = parseZoneFile(written, 'example.com');
    expect(second.errors).toEqual([]);
    const key = (rs: typeof first.records): unknown[] =>
      rs.map((r) => [r.name, r.type, r.ttl, Buffer.from(r.rdata).toString('hex'), r.content]);
    expect(key(second.records)).toEqual(key(first.records));
    expect(second.records).toHaveLength(16);
  });

  it('writes the root zone', () => {
    const text = writeZoneFile('', [{ name: '', type: 2, ttl: 1, content: 'a.root-servers.net.' }]);
    expect(text).toBe('$ORIGIN .\n. 1 IN NS a.root-servers.net.\n');
    expect(parseZoneFile(text, '').records.map((r) => r.name)).toEqual(['']);
  });
});
