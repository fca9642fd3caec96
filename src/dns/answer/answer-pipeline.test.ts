import { describe, expect, it } from 'vitest';
import { createMessageHandler, createOutcome } from '../server/handle-message.ts';
import type { ClientInfo } from '../server/handle-message.ts';
import { exampleStore, L63 } from '../../testing/dns-zone-fixture.ts';
import { buildQuery, expectResponse } from '../../testing/dns-answer-compare.ts';
import type { Expected, QuerySpec } from '../../testing/dns-answer-compare.ts';

const SOA = 'example.com 300 SOA ns1.example.com hostmaster.example.com 1 7200 3600 1209600 300';
const NS1 = ['ns1.example.com 3600 A 192.0.2.53', 'ns1.example.com 3600 AAAA 2001:db8::53'];
const MAIL = ['mail.example.com 3600 A 192.0.2.25', 'mail.example.com 3600 AAAA 2001:db8::25'];
const WWW_A = 'www.example.com 3600 A 192.0.2.80';
const WWW = [WWW_A, 'www.example.com 3600 AAAA 2001:db8::80'];
const DELEG_NS = ['ns.deleg.example.com', 'ns.other.test', 'ns1.example.com', 'outside.example.org'].map(
  (t) => `deleg.example.com 3600 NS ${t}`,
);
const DELEG_GLUE = [
  'ns.deleg.example.com 3600 A 192.0.2.200',
  'ns.deleg.example.com 3600 AAAA 2001:db8::200',
  ...NS1,
];
const REFERRAL: Expected = { rcode: 'NOERROR', aa: false, authority: DELEG_NS, additional: DELEG_GLUE };
const UDP: ClientInfo = { transport: 'udp', address: '192.0.2.1', port: 5353, family: 4 };
const TCP: ClientInfo = { ...UDP, transport: 'tcp' };

const CASES: [string, QuerySpec, Expected][] = [
  ['positive A', { name: 'www.example.com', type: 'A' }, { rcode: 'NOERROR', aa: true, answer: [WWW_A] }],
  [
    'RRset TTL = smallest (RFC 2181 §5.2; Knot uses 120 here)',
    { name: 'www.example.com', type: 'TXT' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: ['www.example.com 60 TXT "short ttl"', 'www.example.com 60 TXT "other ttl"'],
    },
  ],
  ['NODATA', { name: 'www.example.com', type: 'MX' }, { rcode: 'NOERROR', aa: true, authority: [SOA] }],
  ['NXDOMAIN', { name: 'nothere.example.com', type: 'A' }, { rcode: 'NXDOMAIN', aa: true, authority: [SOA] }],
  [
    'empty non-terminal',
    { name: 'ent.example.com', type: 'A' },
    { rcode: 'NOERROR', aa: true, authority: [SOA] },
  ],
  [
    'apex SOA',
    { name: 'example.com', type: 'SOA' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: ['example.com 3600 SOA ns1.example.com hostmaster.example.com 1 7200 3600 1209600 300'],
    },
  ],
  [
    'apex NS + additional',
    { name: 'example.com', type: 'NS' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: ['example.com 3600 NS ns1.example.com', 'example.com 3600 NS ns2.example.net'],
      additional: NS1,
    },
  ],
  [
    'MX + additional',
    { name: 'example.com', type: 'MX' },
    { rcode: 'NOERROR', aa: true, answer: ['example.com 3600 MX 10 mail.example.com'], additional: MAIL },
  ],
  [
    'MX, out-of-zone target ignored',
    { name: 'mx2.example.com', type: 'MX' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: ['mx2.example.com 3600 MX 5 www.example.com', 'mx2.example.com 3600 MX 10 ns.other.test'],
      additional: WWW,
    },
  ],
  [
    'SRV + additional incl. glue',
    { name: 'srv.example.com', type: 'SRV' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: [
        'srv.example.com 3600 SRV 0 0 80 www.example.com',
        'srv.example.com 3600 SRV 1 0 80 ns.deleg.example.com',
      ],
      additional: [...WWW, DELEG_GLUE[0]!, DELEG_GLUE[1]!],
    },
  ],
  [
    'PTR, no additional',
    { name: 'ptr.example.com', type: 'PTR' },
    { rcode: 'NOERROR', aa: true, answer: ['ptr.example.com 3600 PTR www.example.com'] },
  ],
  [
    'CNAME chain',
    { name: 'alias2.example.com', type: 'A' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: [
        'alias2.example.com 3600 CNAME alias.example.com',
        'alias.example.com 3600 CNAME www.example.com',
        WWW_A,
      ],
    },
  ],
  [
    'CNAME query answers the CNAME',
    { name: 'alias.example.com', type: 'CNAME' },
    { rcode: 'NOERROR', aa: true, answer: ['alias.example.com 3600 CNAME www.example.com'] },
  ],
  [
    'CNAME into another served zone is not followed',
    { name: 'ext.example.com', type: 'A' },
    { rcode: 'NOERROR', aa: true, answer: ['ext.example.com 3600 CNAME www.other.test'] },
  ],
  [
    'CNAME into a delegation: referral after it, AA kept',
    { name: 'extsub.example.com', type: 'A' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: ['extsub.example.com 3600 CNAME foo.sub.example.com'],
      authority: ['sub.example.com 3600 NS ns1.sub.example.com'],
      additional: ['ns1.sub.example.com 3600 A 192.0.2.210'],
    },
  ],
  [
    'CNAME loop stops',
    { name: 'loop1.example.com', type: 'A' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: [
        'loop1.example.com 3600 CNAME loop2.example.com',
        'loop2.example.com 3600 CNAME loop1.example.com',
      ],
    },
  ],
  [
    'CNAME to nothing → NXDOMAIN (RFC 6604)',
    { name: 'dangling.example.com', type: 'A' },
    {
      rcode: 'NXDOMAIN',
      aa: true,
      answer: ['dangling.example.com 3600 CNAME nothere.example.com'],
      authority: [SOA],
    },
  ],
  [
    'CNAME chain limit 5',
    { name: 'ch1.example.com', type: 'A' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: [1, 2, 3, 4, 5].map((i) => `ch${i}.example.com 3600 CNAME ch${i + 1}.example.com`),
    },
  ],
  [
    'CNAME to wildcard',
    { name: 'cnwild.example.com', type: 'A' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: ['cnwild.example.com 3600 CNAME x.wild.example.com', 'x.wild.example.com 3600 A 192.0.2.100'],
    },
  ],
  [
    'CNAME to wildcard CNAME',
    { name: 'cnwc.example.com', type: 'A' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: [
        'cnwc.example.com 3600 CNAME foo.wc.example.com',
        'foo.wc.example.com 3600 CNAME www.example.com',
        WWW_A,
      ],
    },
  ],
  [
    'wildcard A',
    { name: 'foo.wild.example.com', type: 'A' },
    { rcode: 'NOERROR', aa: true, answer: ['foo.wild.example.com 3600 A 192.0.2.100'] },
  ],
  [
    'wildcard several labels deep',
    { name: 'zz.foo.wild.example.com', type: 'A' },
    { rcode: 'NOERROR', aa: true, answer: ['zz.foo.wild.example.com 3600 A 192.0.2.100'] },
  ],
  [
    'wildcard NODATA',
    { name: 'foo.wild.example.com', type: 'TXT' },
    { rcode: 'NOERROR', aa: true, authority: [SOA] },
  ],
  [
    'wildcard MX + additional',
    { name: 'foo.wild.example.com', type: 'MX' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: ['foo.wild.example.com 3600 MX 10 mail.example.com'],
      additional: MAIL,
    },
  ],
  [
    'existing name blocks wildcard',
    { name: 'sub.wild.example.com', type: 'A' },
    { rcode: 'NOERROR', aa: true, authority: [SOA] },
  ],
  [
    'empty non-terminal blocks wildcard',
    { name: 'y.wild.example.com', type: 'A' },
    { rcode: 'NOERROR', aa: true, authority: [SOA] },
  ],
  [
    'below an ENT: closest encloser y.wild has no wildcard',
    { name: 'a.y.wild.example.com', type: 'A' },
    { rcode: 'NXDOMAIN', aa: true, authority: [SOA] },
  ],
  [
    'wildcard CNAME followed',
    { name: 'q.wc.example.com', type: 'A' },
    { rcode: 'NOERROR', aa: true, answer: ['q.wc.example.com 3600 CNAME www.example.com', WWW_A] },
  ],
  [
    'wildcard CNAME to nothing',
    { name: 'q.wcd.example.com', type: 'A' },
    {
      rcode: 'NXDOMAIN',
      aa: true,
      answer: ['q.wcd.example.com 3600 CNAME nothere.example.com'],
      authority: [SOA],
    },
  ],
  [
    'wildcard CNAME loop',
    { name: 'a.wl.example.com', type: 'A' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: [
        'a.wl.example.com 3600 CNAME x.y.wl.example.com',
        'x.y.wl.example.com 3600 CNAME x.y.wl.example.com',
      ],
    },
  ],
  [
    'DNAME in zone',
    { name: 'x.dn2.example.com', type: 'A' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: [
        'dn2.example.com 3600 DNAME target.example.com',
        'x.dn2.example.com 3600 CNAME x.target.example.com',
        'x.target.example.com 3600 A 192.0.2.77',
      ],
    },
  ],
  [
    'DNAME out of zone',
    { name: 'a.b.dn.example.com', type: 'A' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: ['dn.example.com 3600 DNAME example.net', 'a.b.dn.example.com 3600 CNAME a.b.example.net'],
    },
  ],
  [
    'DNAME owner answers normally',
    { name: 'dn2.example.com', type: 'A' },
    { rcode: 'NOERROR', aa: true, authority: [SOA] },
  ],
  [
    'DNAME owner, DNAME query',
    { name: 'dn2.example.com', type: 'DNAME' },
    { rcode: 'NOERROR', aa: true, answer: ['dn2.example.com 3600 DNAME target.example.com'] },
  ],
  [
    'DNAME to wildcard',
    { name: 'abc.dnwild.example.com', type: 'A' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: [
        'dnwild.example.com 3600 DNAME wild.example.com',
        'abc.dnwild.example.com 3600 CNAME abc.wild.example.com',
        'abc.wild.example.com 3600 A 192.0.2.100',
      ],
    },
  ],
  [
    'DNAME result too long → YXDOMAIN',
    { name: `${L63}.${L63}.ldn.example.com`, type: 'A' },
    { rcode: 'YXDOMAIN', aa: true, answer: [`ldn.example.com 3600 DNAME ${L63}.${L63}.${L63}.example`] },
  ],
  ['referral at the cut', { name: 'deleg.example.com', type: 'A' }, REFERRAL],
  ['referral below the cut', { name: 'x.deleg.example.com', type: 'AAAA' }, REFERRAL],
  ['NS at the cut is a referral', { name: 'deleg.example.com', type: 'NS' }, REFERRAL],
  ['glue name is a referral', { name: 'ns.deleg.example.com', type: 'A' }, REFERRAL],
  ['ANY at the cut is a referral', { name: 'deleg.example.com', type: 'ANY' }, REFERRAL],
  [
    'DS at the cut: parent NODATA',
    { name: 'deleg.example.com', type: 'DS' },
    { rcode: 'NOERROR', aa: true, authority: [SOA] },
  ],
  [
    'DS at a served child apex: parent answers',
    { name: 'sub.example.com', type: 'DS' },
    { rcode: 'NOERROR', aa: true, authority: [SOA] },
  ],
  [
    'child zone wins',
    { name: 'foo.sub.example.com', type: 'A' },
    { rcode: 'NOERROR', aa: true, answer: ['foo.sub.example.com 300 A 192.0.2.211'] },
  ],
  [
    'child apex NS',
    { name: 'sub.example.com', type: 'NS' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: ['sub.example.com 300 NS ns1.sub.example.com'],
      additional: ['ns1.sub.example.com 300 A 192.0.2.210'],
    },
  ],
  [
    'ANY: lowest type (RFC 8482, Knot)',
    { name: 'example.com', type: 'ANY' },
    { rcode: 'NOERROR', aa: true, answer: ['example.com 3600 A 192.0.2.1'] },
  ],
  [
    'ANY: MX lowest, with additional',
    { name: 'anyt.example.com', type: 'ANY' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: ['anyt.example.com 3600 MX 10 mail.example.com'],
      additional: MAIL,
    },
  ],
  [
    'ANY at CNAME: the CNAME only',
    { name: 'alias.example.com', type: 'ANY' },
    { rcode: 'NOERROR', aa: true, answer: ['alias.example.com 3600 CNAME www.example.com'] },
  ],
  [
    'ANY NXDOMAIN',
    { name: 'nothere.example.com', type: 'ANY' },
    { rcode: 'NXDOMAIN', aa: true, authority: [SOA] },
  ],
  [
    'ANY at wildcard',
    { name: 'foo.wild.example.com', type: 'ANY' },
    { rcode: 'NOERROR', aa: true, answer: ['foo.wild.example.com 3600 A 192.0.2.100'] },
  ],
  [
    'RRSIG on unsigned zone',
    { name: 'www.example.com', type: 'RRSIG' },
    { rcode: 'NOERROR', aa: true, authority: [SOA] },
  ],
  [
    'NSEC on unsigned zone',
    { name: 'www.example.com', type: 'NSEC' },
    { rcode: 'NOERROR', aa: true, authority: [SOA] },
  ],
  ['MAILA → NODATA', { name: 'example.com', type: 253 }, { rcode: 'NOERROR', aa: true, authority: [SOA] }],
  ['MAILB → NODATA', { name: 'example.com', type: 254 }, { rcode: 'NOERROR', aa: true, authority: [SOA] }],
  ['TKEY → NODATA', { name: 'example.com', type: 249 }, { rcode: 'NOERROR', aa: true, authority: [SOA] }],
  [
    'TSIG as qtype → NODATA',
    { name: 'example.com', type: 250 },
    { rcode: 'NOERROR', aa: true, authority: [SOA] },
  ],
  [
    'OPT as qtype → NODATA',
    { name: 'example.com', type: 41 },
    { rcode: 'NOERROR', aa: true, authority: [SOA] },
  ],
  ['AXFR over UDP → NOTIMP', { name: 'example.com', type: 'AXFR' }, { rcode: 'NOTIMP', aa: false }],
  ['IXFR → NOTAUTH', { name: 'example.com', type: 'IXFR' }, { rcode: 'NOTAUTH', aa: false }],
  ['outside every zone → REFUSED', { name: 'foo.bar', type: 'A' }, { rcode: 'REFUSED', aa: false }],
  ['class CH → REFUSED', { name: 'www.example.com', type: 'A', qclass: 3 }, { rcode: 'REFUSED', aa: false }],
  [
    'class NONE → REFUSED',
    { name: 'www.example.com', type: 'A', qclass: 254 },
    { rcode: 'REFUSED', aa: false },
  ],
  [
    'class ANY answered as IN',
    { name: 'www.example.com', type: 'A', qclass: 255 },
    { rcode: 'NOERROR', aa: true, answer: [WWW_A] },
  ],
  [
    'opcode STATUS → NOTIMP',
    { name: 'www.example.com', type: 'A', flags: 2 << 11 },
    { rcode: 'NOTIMP', aa: false },
  ],
  [
    'wildcard delegation (RFC 4592 §4.2): referral with the "*" owner, AA clear',
    { name: 'a.b.wdeleg.example.com', type: 'A' },
    {
      rcode: 'NOERROR',
      aa: false,
      authority: ['*.wdeleg.example.com 3600 NS ns.deleg.example.com'],
      additional: DELEG_GLUE.slice(0, 2),
    },
  ],
  [
    'DNAME, QTYPE CNAME: the synthesized CNAME is the answer, not followed',
    { name: 'a.dn2.example.com', type: 'CNAME' },
    {
      rcode: 'NOERROR',
      aa: true,
      answer: [
        'dn2.example.com 3600 DNAME target.example.com',
        'a.dn2.example.com 3600 CNAME a.target.example.com',
      ],
    },
  ],
  [
    'RRSIG at a CNAME is not followed (Knot)',
    { name: 'alias.example.com', type: 'RRSIG' },
    { rcode: 'NOERROR', aa: true, authority: [SOA] },
  ],
  ['QTYPE 0 → NOTIMP', { name: 'www.example.com', type: 0 }, { rcode: 'NOTIMP', aa: false }],
  ['QTYPE 0 outside any zone → NOTIMP', { name: 'www.example.org', type: 0 }, { rcode: 'NOTIMP', aa: false }],
  ['CH QTYPE 0 → NOTIMP', { name: 'www.example.com', type: 0, qclass: 3 }, { rcode: 'NOTIMP', aa: false }],
  ['CH AXFR → NOTIMP', { name: 'www.example.com', type: 'AXFR', qclass: 3 }, { rcode: 'NOTIMP', aa: false }],
  ['class 4 → REFUSED', { name: 'www.example.com', type: 'A', qclass: 4 }, { rcode: 'REFUSED', aa: false }],
  [
    'IQUERY in class NONE → REFUSED',
    { name: 'www.example.com', type: 'A', qclass: 254, flags: 1 << 11 },
    { rcode: 'REFUSED', aa: false },
  ],
  [
    'IXFR outside any zone → NOTAUTH',
    { name: 'www.example.org', type: 'IXFR' },
    { rcode: 'NOTAUTH', aa: false },
  ],
  [
    'opcode UPDATE, zone section not SOA → FORMERR',
    { name: 'www.example.com', type: 'A', flags: 5 << 11 },
    { rcode: 'FORMERR', aa: false },
  ],
  [
    'opcode UPDATE for a served zone → NOTAUTH (no ACL)',
    { name: 'example.com', type: 'SOA', flags: 5 << 11 },
    { rcode: 'NOTAUTH', aa: false },
  ],
  [
    'opcode NOTIFY → NOTAUTH (no ACL)',
    { name: 'example.com', type: 'SOA', flags: 4 << 11 },
    { rcode: 'NOTAUTH', aa: false },
  ],
];

describe('answer pipeline (expected values recorded from Knot DNS 3.2.6)', () => {
  const handle = createMessageHandler(exampleStore());
  const out = createOutcome();
  it.each(CASES)('%s', (_label, spec, expected) => {
    const res = handle(buildQuery(spec), UDP, out);
    const p = expectResponse(res, expected);
    expect(p.questions?.[0]?.name.toLowerCase()).toBe(spec.name.toLowerCase());
  });

  it('AXFR over TCP → NOTAUTH (no transfer ACL, as Knot)', () => {
    expectResponse(handle(buildQuery({ name: 'example.com', type: 'AXFR' }), TCP, out), {
      rcode: 'NOTAUTH',
      aa: false,
    });
  });

  it('fills the outcome', () => {
    handle(buildQuery({ name: 'foo.wild.example.com', type: 'A' }), UDP, out);
    expect(out).toEqual({
      rcode: 0,
      qtype: 1,
      zoneId: 1,
      zoneApex: 'example.com',
      kind: 'wildcard',
      truncated: false,
      cookieValid: false,
      cacheable: true,
      signed: false,
    });
    handle(buildQuery({ name: 'x.deleg.example.com', type: 'A' }), UDP, out);
    expect(out.kind).toBe('referral');
    handle(buildQuery({ name: 'nothere.example.com', type: 'A' }), UDP, out);
    expect(out).toMatchObject({ rcode: 3, kind: 'nxdomain' });
    handle(buildQuery({ name: 'www.example.com', type: 'MX' }), UDP, out);
    expect(out.kind).toBe('nodata');
    handle(buildQuery({ name: 'foo.bar', type: 'A' }), UDP, out);
    expect(out).toMatchObject({ rcode: 5, kind: 'refused', zoneId: -1, zoneApex: '', cacheable: false });
    handle(buildQuery({ name: 'foo.sub.example.com', type: 'A' }), UDP, out);
    expect(out).toMatchObject({ zoneId: 2, zoneApex: 'sub.example.com', kind: 'positive' });
  });

  it('copies RD, never sets RA', () => {
    const res = handle(buildQuery({ name: 'www.example.com', type: 'A', flags: 0x0100 }), UDP, out)!;
    expect(res[2]! & 0x01).toBe(1);
    expect(res[3]! & 0x80).toBe(0);
  });
});
