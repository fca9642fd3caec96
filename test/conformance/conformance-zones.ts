/**
 * Zones served identically by Knot and by our engine in the differential test. Each covers
 * answer-logic corners: delegations (glue in and out of bailiwick, RFC 1034 §4.3.2 step 3b),
 * wildcards incl. a wildcard CNAME and a blocked wildcard (RFC 4592 §2.2), empty non-terminals
 * (RFC 4592 §2.2.2), CNAME chains, loops and dangling targets (RFC 1034 §3.6.2), DNAME
 * (RFC 6672), MX/SRV with in-zone targets (additional-section processing, RFC 1035 §3.3.9,
 * RFC 2782), TXT, CAA, truncation-sized RRsets, a DS at a cut (RFC 4035 §3.1.4.1) and a served
 * child zone.
 */

export interface ConformanceZone {
  id: number;
  domain: string;
  text: string;
}

function manyA(owner: string, count: number, third: number): string {
  return Array.from({ length: count }, (_, i) => `${owner} A 10.${third}.${i >> 8}.${(i & 255) + 1}`).join(
    '\n',
  );
}

const DS_DIGEST = 'A'.repeat(64);

export const EXAMPLE_COM = `$ORIGIN example.com.
$TTL 3600
@ 86400 IN SOA ns1.example.com. hostmaster.example.com. 2024010101 7200 3600 1209600 300
@ NS ns1
@ NS ns2.example.net.
@ A 192.0.2.1
@ AAAA 2001:db8::1
@ MX 10 mail
@ MX 20 mail.example.net.
@ TXT "v=spf1 -all"
@ CAA 0 issue "letsencrypt.org"
@ CAA 128 tbs "critical"
ns1 A 192.0.2.53
ns1 AAAA 2001:db8::53
mail A 192.0.2.25
mail AAAA 2001:db8::25
www 300 A 192.0.2.80
www 300 AAAA 2001:db8::80
www TXT "hello world" "second string"
www MX 5 mail
_sip._tcp SRV 10 60 5060 sip
_sip._tcp SRV 20 0 5061 sip.example.net.
sip A 192.0.2.60
alias CNAME www
chain1 CNAME chain2
chain2 CNAME chain3
chain3 600 CNAME www
loop1 CNAME loop2
loop2 CNAME loop1
self CNAME self
dangling CNAME nothere
outside CNAME www.example.org.
cross CNAME www.example.net.
tosub CNAME www.sub
todelegated CNAME host.child
*.wild A 192.0.2.99
*.wild TXT "wildcard text"
blocked.wild AAAA 2001:db8::99
sub.blocked.wild A 192.0.2.98
*.wildcname CNAME www
*.wildchain CNAME alias
*.wildloop CNAME x.wildloop
a.b.c.ent A 192.0.2.7
x.ent2 TXT "ent"
dname DNAME example.net.
dname2 DNAME nowhere.example.com.
${manyA('many', 40, 1)}
${manyA('huge', 100, 2)}
bigtxt TXT "${'x'.repeat(250)}" "${'y'.repeat(250)}" "${'z'.repeat(250)}"
child NS ns.child
child NS ns2.child
ns.child A 192.0.2.100
ns.child AAAA 2001:db8::100
ns2.child A 192.0.2.103
ext NS ns1.example.net.
ext NS ns.somewhere.org.
mixed NS ns.mixed
mixed NS ns1.example.net.
ns.mixed A 192.0.2.102
secure NS ns.secure
ns.secure A 192.0.2.104
secure DS 12345 13 2 ${DS_DIGEST}
sub NS ns1.sub
ns1.sub A 192.0.2.110
sub DS 54321 13 2 ${DS_DIGEST}
*.deleg NS ns.child
`;

export const SUB_EXAMPLE_COM = `$ORIGIN sub.example.com.
$TTL 600
@ IN SOA ns1.sub.example.com. hostmaster.sub.example.com. 5 3600 600 86400 60
@ NS ns1
ns1 A 192.0.2.110
www A 192.0.2.111
www AAAA 2001:db8::111
* TXT "sub wildcard"
back CNAME www.example.com.
`;

export const EXAMPLE_NET = `$ORIGIN example.net.
$TTL 7200
@ IN SOA ns1.example.net. hostmaster.example.net. 1 3600 600 86400 120
@ NS ns1
@ NS ns2
ns1 A 198.51.100.1
ns2 A 198.51.100.2
ns2 AAAA 2001:db8:5::2
www A 198.51.100.80
mail A 198.51.100.25
sip A 198.51.100.60
host CNAME www.example.com.
srv SRV 0 0 443 www
`;

/** RFC 4592 §2.2.1 example zone, verbatim apart from the SOA/SRV RDATA the RFC elides. */
export const RFC4592_EXAMPLE = `$ORIGIN example.
$TTL 3600
example.                 3600 IN  SOA   ns.example.com. hostmaster.example. 1 7200 3600 1209600 900
example.                 3600     NS    ns.example.com.
example.                 3600     NS    ns.example.net.
*.example.               3600     TXT   "this is a wildcard"
*.example.               3600     MX    10 host1.example.
sub.*.example.           3600     TXT   "this is not a wildcard"
host1.example.           3600     A     192.0.2.1
_ssh._tcp.host1.example. 3600     SRV   10 60 22 host1.example.
_ssh._tcp.host2.example. 3600     SRV   10 60 22 host2.example.
subdel.example.          3600     NS    ns.example.com.
subdel.example.          3600     NS    ns.example.net.
`;

const LONG_LABEL = 'd'.repeat(63);

/**
 * DNAME at several levels (RFC 6672): to an existing in-zone subtree, to a nonexistent in-zone
 * target, to the apex, to itself, out of zone, DNAME → DNAME, CNAMEs
 * into a DNAME, a delegation inside the target, a target that makes names too long (§2.2 YXDOMAIN).
 * Also a negative TTL where the SOA TTL is below MINIMUM (RFC 2308 §3), and a referral with more
 * glue than fits in 512 bytes.
 */
export const DN_TEST = `$ORIGIN dn.test.
$TTL 3600
@ 30 IN SOA ns.dn.test. hostmaster.dn.test. 7 7200 3600 1209600 3600
@ NS ns
ns A 192.0.2.1
a DNAME b.dn.test.
b A 192.0.2.2
x.b A 192.0.2.3
x.b TXT "x under b"
c.x.b CNAME x.b.dn.test.
del.b NS ns.del.b
ns.del.b A 192.0.2.4
c DNAME nonexist.dn.test.
d.e DNAME dn.test.
cn CNAME x.a.dn.test.
cn2 CNAME nothere.a.dn.test.
out DNAME example.org.
chainout CNAME x.out.dn.test.
f DNAME a.dn.test.
self DNAME self.dn.test.
toext CNAME www.example.com.
long DNAME ${LONG_LABEL}.${LONG_LABEL}.dn.test.
olong DNAME ${LONG_LABEL}.${LONG_LABEL}.${LONG_LABEL}.example.
${Array.from({ length: 13 }, (_, i) => `bigdel NS ns${i}.${'n'.repeat(40)}.bigdel`).join('\n')}
${Array.from({ length: 13 }, (_, i) => `ns${i}.${'n'.repeat(40)}.bigdel A 192.0.2.${i + 10}\nns${i}.${'n'.repeat(40)}.bigdel AAAA 2001:db8::${i + 10}`).join('\n')}
`;

export const CONFORMANCE_ZONES: readonly ConformanceZone[] = [
  { id: 1, domain: 'example.com', text: EXAMPLE_COM },
  { id: 2, domain: 'sub.example.com', text: SUB_EXAMPLE_COM },
  { id: 3, domain: 'example.net', text: EXAMPLE_NET },
  { id: 4, domain: 'example', text: RFC4592_EXAMPLE },
  { id: 5, domain: 'dn.test', text: DN_TEST },
];
