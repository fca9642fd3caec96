/**
 * The differential query corpus: qname × qtype × flags, deterministic. Each case has a stable id
 * (used by KNOWN_DIFFERENCES) and the exact bytes sent.
 */
import { buildQuery, CLASS_ANY, CLASS_CH } from './query-wire-builder.ts';
import type { QuerySpec } from './query-wire-builder.ts';

export interface CorpusCase {
  id: string;
  wire: Buffer;
  /** Transports the case is sent over (raw malformed cases may skip TCP). */
  transports: ReadonlyArray<'udp' | 'tcp'>;
}

const T = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  DNAME: 39,
  DS: 43,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  CAA: 257,
  ANY: 255,
  AXFR: 252,
  IXFR: 251,
  TYPE0: 0,
  TYPE65000: 65000,
  NSEC3PARAM: 51,
} as const;
type TypeName = keyof typeof T;

const BASE_TYPES: TypeName[] = ['A', 'AAAA', 'MX', 'TXT', 'NS', 'SOA', 'CNAME', 'ANY', 'DS', 'SRV', 'CAA'];

/** Names probed with every base type. */
const NAMES = [
  'example.com',
  'www.example.com',
  'mail.example.com',
  'nonexistent.example.com',
  'alias.example.com',
  'chain1.example.com',
  'loop1.example.com',
  'self.example.com',
  'dangling.example.com',
  'outside.example.com',
  'cross.example.com',
  'tosub.example.com',
  'todelegated.example.com',
  'foo.wild.example.com',
  'a.b.wild.example.com',
  'wild.example.com',
  'blocked.wild.example.com',
  'x.sub.blocked.wild.example.com',
  'foo.wildcname.example.com',
  'foo.wildchain.example.com',
  'a.wildloop.example.com',
  'c.ent.example.com',
  'b.c.ent.example.com',
  'a.b.c.ent.example.com',
  'ent2.example.com',
  'dname.example.com',
  'www.dname.example.com',
  'a.b.dname2.example.com',
  'child.example.com',
  'host.child.example.com',
  'ns.child.example.com',
  'ext.example.com',
  'mixed.example.com',
  'secure.example.com',
  'a.secure.example.com',
  'sub.example.com',
  'www.sub.example.com',
  'nope.sub.example.com',
  'back.sub.example.com',
  'x.deleg.example.com',
  '_sip._tcp.example.com',
  'example.net',
  'host.example.net',
  'srv.example.net',
  'example.org',
  'www.example.org',
  'com',
  '',
];

const EXTRA_TYPES: ReadonlyArray<[string, TypeName]> = [
  ['example.com', 'DNSKEY'],
  ['example.com', 'RRSIG'],
  ['example.com', 'NSEC'],
  ['www.example.com', 'PTR'],
  ['www.example.com', 'TYPE65000'],
  ['www.example.com', 'TYPE0'],
  ['dname.example.com', 'DNAME'],
  ['www.dname.example.com', 'DNAME'],
  ['example.com', 'AXFR'],
  ['example.com', 'IXFR'],
  ['many.example.com', 'A'],
  ['huge.example.com', 'A'],
  ['bigtxt.example.com', 'TXT'],
];

/** Names in the RFC 4592 §2.2.1 example zone and the DNAME zone, probed with FOCUS_TYPES. */
const RFC_NAMES = [
  // RFC 4592 §2.2.1, every query the RFC discusses, plus the wildcard owner and ENTs themselves.
  'host3.example',
  'foo.bar.example',
  'host1.example',
  'sub.*.example',
  '_telnet._tcp.host1.example',
  'host.subdel.example',
  'ghost.*.example',
  '*.example',
  '_tcp.host1.example',
  'host2.example',
  '_ssh._tcp.host1.example',
  'subdel.example',
  'example',
  'x.sub.*.example',
  // RFC 6672 DNAME at several levels.
  'a.dn.test',
  'x.a.dn.test',
  'zz.a.dn.test',
  'c.x.a.dn.test',
  'h.del.a.dn.test',
  'q.c.dn.test',
  'x.b.d.e.dn.test',
  'ns.d.e.dn.test',
  'cn.dn.test',
  'cn2.dn.test',
  'x.out.dn.test',
  'chainout.dn.test',
  'x.x.b.f.dn.test',
  'q.self.dn.test',
  'toext.dn.test',
  'nx.dn.test',
  'dn.test',
  'x.long.dn.test',
  `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(50)}.long.dn.test`,
  `${'a'.repeat(63)}.${'b'.repeat(63)}.long.dn.test`,
  `${'a'.repeat(63)}.${'b'.repeat(63)}.olong.dn.test`,
  'x.olong.dn.test',
  'x.bigdel.dn.test',
];
const FOCUS_TYPES: TypeName[] = ['A', 'MX', 'TXT', 'CNAME', 'DNAME', 'NS', 'DS', 'ANY', 'RRSIG', 'SRV'];

/** Reserved, meta and unusual QTYPEs (RFC 6895 §3.1). */
const ODD_QTYPES = [3, 4, 41, 62, 128, 200, 249, 250, 253, 254, 256, 32768, 65280, 65534, 65535];

function ecs(family: number, source: number, scope: number, address: number[]): Uint8Array {
  return new Uint8Array([family >> 8, family & 255, source, scope, ...address]);
}

interface Variant {
  tag: string;
  spec: Partial<QuerySpec>;
}

const EDNS_DEFAULT = { payload: 1232 };
const VARIANTS: Variant[] = [
  { tag: 'edns1232', spec: { edns: EDNS_DEFAULT } },
  { tag: 'noedns', spec: { edns: null } },
  { tag: 'edns512+do', spec: { edns: { payload: 512, do: true } } },
  { tag: 'edns4096', spec: { edns: { payload: 4096 } } },
  { tag: 'edns-v1', spec: { edns: { payload: 1232, version: 1 } } },
  { tag: 'rd', spec: { rd: true, edns: EDNS_DEFAULT } },
  { tag: 'cd+ad', spec: { cd: true, ad: true, edns: EDNS_DEFAULT } },
  { tag: 'edns100', spec: { edns: { payload: 100 } } },
];

/** Mixed case à la 0x20 (deterministic: alternate letters upper-cased). */
function mixCase(name: string): string {
  let up = false;
  return name.replace(/[a-z]/g, (c) => {
    up = !up;
    return up ? c.toUpperCase() : c;
  });
}

function make(id: string, spec: QuerySpec): CorpusCase {
  return { id, wire: buildQuery(spec), transports: ['udp', 'tcp'] };
}

export function buildQueryCorpus(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  const show = (n: string): string => (n === '' ? '.' : n);
  for (const name of NAMES)
    for (const t of BASE_TYPES)
      cases.push(make(`${show(name)} ${t} edns1232`, { name, qtype: T[t], edns: EDNS_DEFAULT }));
  for (const [name, t] of EXTRA_TYPES)
    cases.push(make(`${show(name)} ${t} edns1232`, { name, qtype: T[t], edns: EDNS_DEFAULT }));
  for (const name of RFC_NAMES)
    for (const t of FOCUS_TYPES)
      cases.push(make(`${name} ${t} edns1232`, { name, qtype: T[t], edns: EDNS_DEFAULT }));
  for (const name of ['x.a.dn.test', 'nx.dn.test', 'host3.example', 'x.bigdel.dn.test'])
    cases.push(make(`${name} NSEC edns1232`, { name, qtype: T.NSEC, edns: EDNS_DEFAULT }));
  for (const name of ['alias.example.com', 'chain1.example.com', 'foo.wildcname.example.com'])
    for (const t of ['RRSIG', 'NSEC', 'NSEC3PARAM'] as const)
      cases.push(make(`${name} ${t} edns1232`, { name, qtype: T[t], edns: EDNS_DEFAULT }));
  // Reserved/meta QTYPEs in, below and outside a served zone, and in class CH.
  for (const qtype of ODD_QTYPES)
    cases.push(
      make(`www.example.com TYPE${qtype} edns1232`, { name: 'www.example.com', qtype, edns: EDNS_DEFAULT }),
    );
  for (const qtype of [0, 251, 252, 253, 255])
    for (const name of ['example.org', 'x.deleg.example.com', 'nonexistent.example.com'])
      cases.push(make(`${name} TYPE${qtype} noedns`, { name, qtype, edns: null }));
  for (const qtype of [0, 1, 16, 251, 252, 255])
    cases.push(
      make(`version.bind TYPE${qtype} class-CH`, {
        name: 'version.bind',
        qtype,
        qclass: CLASS_CH,
        edns: EDNS_DEFAULT,
      }),
    );
  // RFC 2308 §3 negative TTL (SOA TTL 30 < MINIMUM 3600 in dn.test) and RFC 8482 ANY.
  for (const name of ['nx.dn.test', 'nonexistent.sub.example.com', 'nope.example.net', 'host3.example'])
    cases.push(make(`${name} AAAA noedns`, { name, qtype: T.AAAA, edns: null }));
  // EDNS payload edge values (RFC 6891 §6.2.5) on answers of every size, and referral glue truncation.
  for (const payload of [0, 511, 512, 513, 1232, 1233, 4096, 65535])
    for (const [name, t] of [
      ['huge.example.com', 'A'],
      ['bigtxt.example.com', 'TXT'],
      ['x.bigdel.dn.test', 'A'],
      ['many.example.com', 'A'],
      ['www.example.com', 'A'],
    ] as const)
      cases.push(make(`${name} ${t} payload${payload}`, { name, qtype: T[t], edns: { payload } }));
  for (const name of ['x.bigdel.dn.test', 'x.deleg.example.com'])
    cases.push(make(`${name} A noedns`, { name, qtype: T.A, edns: null }));
  // 0x20 mixed case where the answer compresses against the question (RFC 1035 §4.1.4).
  for (const [name, t] of [
    ['www.example.com', 'MX'],
    ['example.com', 'NS'],
    ['_sip._tcp.example.com', 'SRV'],
    ['alias.example.com', 'A'],
    ['x.a.dn.test', 'A'],
    ['foo.wild.example.com', 'TXT'],
    ['host3.example', 'MX'],
    ['x.deleg.example.com', 'A'],
    ['nonexistent.example.com', 'A'],
    ['todelegated.example.com', 'A'],
  ] as const) {
    const mixed = mixCase(name);
    cases.push(make(`${mixed} ${t} 0x20`, { name: mixed, qtype: T[t], edns: EDNS_DEFAULT }));
    cases.push(
      make(`${name.toUpperCase()} ${t} upper`, { name: name.toUpperCase(), qtype: T[t], edns: EDNS_DEFAULT }),
    );
  }
  // Flag variants on a representative subset of (name, type).
  const subset: Array<[string, TypeName]> = [
    ['www.example.com', 'A'],
    ['example.com', 'MX'],
    ['nonexistent.example.com', 'A'],
    ['www.example.com', 'TXT'],
    ['host.child.example.com', 'A'],
    ['foo.wildcname.example.com', 'A'],
    ['www.dname.example.com', 'A'],
    ['many.example.com', 'A'],
    ['huge.example.com', 'A'],
    ['bigtxt.example.com', 'TXT'],
    ['example.com', 'ANY'],
    ['example.org', 'A'],
    ['sub.example.com', 'DS'],
    ['chain1.example.com', 'A'],
  ];
  for (const [name, t] of subset)
    for (const v of VARIANTS.slice(1))
      cases.push(make(`${name} ${t} ${v.tag}`, { name, qtype: T[t], ...v.spec }));
  for (const [name, t] of subset) {
    const mixed = mixCase(name);
    cases.push(make(`${mixed} ${t} edns1232`, { name: mixed, qtype: T[t], edns: EDNS_DEFAULT }));
  }
  // Classes and opcodes (RFC 1035 §4.1.1; RFC 6895 §2.2).
  for (const [tag, qclass] of [
    ['CH', CLASS_CH],
    ['ANY', CLASS_ANY],
    ['CLASS4', 4],
  ] as const) {
    cases.push(
      make(`www.example.com A class-${tag}`, {
        name: 'www.example.com',
        qtype: T.A,
        qclass,
        edns: EDNS_DEFAULT,
      }),
    );
    cases.push(
      make(`version.bind TXT class-${tag}`, {
        name: 'version.bind',
        qtype: T.TXT,
        qclass,
        edns: EDNS_DEFAULT,
      }),
    );
  }
  for (const opcode of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
    cases.push(
      make(`www.example.com A opcode-${opcode}`, {
        name: 'www.example.com',
        qtype: T.A,
        opcode,
        edns: EDNS_DEFAULT,
      }),
    );
  // NOTIFY (RFC 1996) and UPDATE (RFC 2136) without ACLs; IQUERY/STATUS; per class.
  for (const opcode of [1, 2, 4, 5])
    for (const [tag, name, qtype, qclass, edns] of [
      ['apex-SOA', 'example.com', T.SOA, 1, null],
      ['apex-SOA-edns', 'example.com', T.SOA, 1, EDNS_DEFAULT],
      ['apex-A', 'example.com', T.A, 1, null],
      ['unserved-SOA', 'example.org', T.SOA, 1, null],
      ['child-SOA', 'sub.example.com', T.SOA, 1, null],
      ['nx-SOA', 'nonexistent.example.com', T.SOA, 1, null],
      ['class-ANY', 'example.com', T.SOA, CLASS_ANY, null],
      ['class-CH', 'example.com', T.SOA, CLASS_CH, null],
      ['class-NONE', 'example.com', T.SOA, 254, null],
      ['class-4', 'example.com', T.SOA, 4, null],
      ['TYPE0', 'example.com', 0, 1, EDNS_DEFAULT],
    ] as const)
      cases.push(make(`opcode-${opcode} ${tag}`, { name, qtype, qclass, opcode, edns }));
  // EDNS options (RFC 6891 §6.1.2): NSID request, a cookie, an unknown option, client subnet.
  const opts: Array<[string, number, Uint8Array]> = [
    ['nsid', 3, new Uint8Array(0)],
    ['cookie', 10, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])],
    ['unknown-opt', 65001, new Uint8Array([9, 9])],
    ['ecs', 8, new Uint8Array([0, 1, 24, 0, 192, 0, 2])],
    // RFC 7871 §6/§7.2.1: echoed with SCOPE 0 for unsteered answers; invalid → FORMERR.
    ['ecs-v4-32', 8, ecs(1, 32, 0, [192, 0, 2, 1])],
    ['ecs-v4-src0', 8, ecs(1, 0, 0, [])],
    ['ecs-v6-56', 8, ecs(2, 56, 0, [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0x12])],
    ['ecs-v6-src0', 8, ecs(2, 0, 0, [])],
    [
      'ecs-v6-128',
      8,
      ecs(
        2,
        128,
        0,
        Array.from({ length: 16 }, (_, i) => i),
      ),
    ],
    ['ecs-v4-scope-set', 8, ecs(1, 24, 16, [198, 51, 100])],
    ['ecs-v4-extra-bits', 8, ecs(1, 20, 0, [198, 51, 100])],
    ['ecs-bad-family', 8, ecs(3, 24, 0, [192, 0, 2])],
    ['ecs-family0', 8, ecs(0, 0, 0, [])],
    ['ecs-v4-src33', 8, ecs(1, 33, 0, [192, 0, 2, 1, 0])],
    ['ecs-v4-short-addr', 8, ecs(1, 24, 0, [192, 0])],
    ['ecs-v4-long-addr', 8, ecs(1, 8, 0, [192, 0, 2, 1, 9])],
    ['ecs-truncated', 8, new Uint8Array([0, 1, 24])],
    ['padding', 12, new Uint8Array(16)],
  ];
  for (const [tag, code, data] of opts)
    cases.push(
      make(`www.example.com A opt-${tag}`, {
        name: 'www.example.com',
        qtype: T.A,
        edns: { payload: 1232, options: [[code, data]] },
      }),
    );
  // ECS on other answer kinds and outside served zones.
  for (const [name, t] of [
    ['nonexistent.example.com', 'A'],
    ['host.child.example.com', 'A'],
    ['foo.wild.example.com', 'A'],
    ['example.org', 'A'],
    ['x.a.dn.test', 'A'],
  ] as const)
    cases.push(
      make(`${name} ${t} opt-ecs`, {
        name,
        qtype: T[t],
        edns: { payload: 1232, options: [[8, ecs(1, 24, 0, [192, 0, 2])]] },
      }),
    );
  // BADVERS (RFC 6891 §6.1.3) still echoes a Client Subnet option (Knot).
  cases.push(
    make('www.example.com A opt-ecs-edns-v1', {
      name: 'www.example.com',
      qtype: T.A,
      edns: { payload: 1232, version: 1, options: [[8, ecs(1, 24, 0, [192, 0, 2])]] },
    }),
  );
  // 0x20 case in a zone with a one-label apex: which copy of a name a compression pointer reaches
  // shows in the letter case of SOA RDATA names.
  for (const [name, t] of [
    ['ExAmPlE', 'SOA'],
    ['host1.examPle', 'RRSIG'],
    ['NoThErE.ExAmPlE', 'A'],
  ] as const)
    cases.push(make(`${name} ${t} 0x20-tld`, { name, qtype: T[t], edns: EDNS_DEFAULT }));
  cases.push(
    make('www.example.com A opt-ecs-twice', {
      name: 'www.example.com',
      qtype: T.A,
      edns: {
        payload: 1232,
        options: [
          [8, ecs(1, 24, 0, [192, 0, 2])],
          [8, ecs(2, 48, 0, [0x20, 1, 0xd, 0xb8, 0, 1])],
        ],
      },
    }),
  );
  cases.push(
    make('huge.example.com A opt-ecs-edns512', {
      name: 'huge.example.com',
      qtype: T.A,
      edns: { payload: 512, options: [[8, ecs(2, 56, 0, [0x20, 1, 0xd, 0xb8, 0, 0, 0x12])]] },
    }),
  );
  return cases;
}
