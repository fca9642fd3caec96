import { ZoneStore, parseZoneFile } from '../dns/index.ts';
import type { ZoneData } from '../dns/index.ts';

/** Builds ZoneData from zone-file text (RFC 1035 §5); throws on any parse error. */
export function zoneFromText(id: number, origin: string, text: string, serial = 1): ZoneData {
  const { records, errors } = parseZoneFile(text, origin);
  if (errors.length > 0)
    throw new Error(`zone ${origin}: ${errors.map((e) => `${e.line}: ${e.message}`).join('; ')}`);
  return {
    id,
    domain: origin,
    serial,
    records: records.map(({ name, type, ttl, rdata }) => ({ name, type, ttl, rdata })),
  };
}

/** A store serving the given zone texts ([origin, text] pairs; ids 1, 2, ...). */
export function storeFromTexts(zones: readonly (readonly [string, string])[]): ZoneStore {
  const store = new ZoneStore();
  store.replaceAll(zones.map(([origin, text], i) => zoneFromText(i + 1, origin, text)));
  return store;
}

export const L63 = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
/** The zone used to record Knot DNS 3.2.6 answers (expected values below were copied from kdig). */
export const EXAMPLE_COM = `
$ORIGIN example.com.
$TTL 3600
@ 3600 SOA ns1.example.com. hostmaster.example.com. 1 7200 3600 1209600 300
@ NS ns1
@ NS ns2.example.net.
@ MX 10 mail
@ A 192.0.2.1
@ TXT "apex"
ns1 A 192.0.2.53
ns1 AAAA 2001:db8::53
mail A 192.0.2.25
mail AAAA 2001:db8::25
www A 192.0.2.80
www AAAA 2001:db8::80
www 60 TXT "short ttl"
www 120 TXT "other ttl"
alias CNAME www
alias2 CNAME alias
ext CNAME www.other.test.
extsub CNAME foo.sub.example.com.
loop1 CNAME loop2
loop2 CNAME loop1
dangling CNAME nothere
a.b.ent A 192.0.2.9
*.wild A 192.0.2.100
*.wild MX 10 mail
sub.wild TXT "blocks"
x.y.wild TXT "ent y.wild blocks"
*.wc CNAME www
*.wcd CNAME nothere
dn DNAME example.net.
dn2 DNAME target.example.com.
x.target A 192.0.2.77
deleg NS ns.deleg
deleg NS ns1
deleg NS ns.other.test.
deleg NS outside.example.org.
ns.deleg A 192.0.2.200
ns.deleg AAAA 2001:db8::200
srv SRV 0 0 80 www
srv SRV 1 0 80 ns.deleg
_sip._tcp SRV 0 0 5060 mail
ptr PTR www
mx2 MX 5 www
mx2 MX 10 ns.other.test.
sub NS ns1.sub
ns1.sub A 192.0.2.210
big TXT "${'a'.repeat(240)}"
big TXT "${'b'.repeat(240)}"
big TXT "${'c'.repeat(240)}"
big A 192.0.2.1
hinfo HINFO "cpu" "os"
anyt TXT "x"
anyt AAAA ::1
anyt MX 10 mail
ldn DNAME ${L63}.${L63}.${L63}.example.
cnwild CNAME x.wild
cnwc CNAME foo.wc
dnwild DNAME wild.example.com.
ch1 CNAME ch2
ch2 CNAME ch3
ch3 CNAME ch4
ch4 CNAME ch5
ch5 CNAME ch6
ch6 CNAME ch7
ch7 A 192.0.2.13
*.wl CNAME x.y.wl
*.wdeleg NS ns.deleg
`;
export const SUB_EXAMPLE_COM = `
$ORIGIN sub.example.com.
$TTL 300
@ SOA ns1.sub.example.com. h.sub.example.com. 5 7200 3600 1209600 60
@ NS ns1
ns1 A 192.0.2.210
foo A 192.0.2.211
`;
export const OTHER_TEST = `
$ORIGIN other.test.
$TTL 300
@ SOA ns.other.test. h.other.test. 7 7200 3600 1209600 600
@ NS ns
ns A 198.51.100.1
www A 198.51.100.80
`;

/** example.com, its served child sub.example.com and other.test: the zones behind the Knot recordings. */
export function exampleStore(): ZoneStore {
  return storeFromTexts([
    ['example.com', EXAMPLE_COM],
    ['sub.example.com', SUB_EXAMPLE_COM],
    ['other.test', OTHER_TEST],
  ]);
}
