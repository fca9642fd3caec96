/**
 * Raw malformed or unusual query packets (RFC 1035 §4.1 violations and edge cases). Sent as-is
 * over UDP, and over TCP with a correct length prefix (the framing itself is tested elsewhere).
 */
import type { CorpusCase } from './query-corpus.ts';
import { buildQuery, encodeName, optRecord } from './query-wire-builder.ts';

const A = 1;

function q(name = 'www.example.com', edns = true): Buffer {
  return buildQuery({ name, qtype: A, edns: edns ? { payload: 1232 } : null });
}

function withHeader(buf: Buffer, patch: (b: Buffer) => void): Buffer {
  const b = Buffer.from(buf);
  patch(b);
  return b;
}

function header(qd: number, an = 0, ns = 0, ar = 0, flags = 0): number[] {
  return [0xab, 0xcd, flags >> 8, flags & 255, 0, qd, 0, an, 0, ns, 0, ar];
}

const question = [...encodeName('www.example.com'), 0, 1, 0, 1];

/** Header with the given flags and QDCOUNT 1, ANCOUNT `an`, then the question "example.com SOA". */
function notifyOrUpdate(flagsHi: number, an: number): number[] {
  return [0xab, 0xcd, flagsHi, 0, 0, 1, 0, an, 0, 0, 0, 0, ...encodeName('example.com'), 0, 6, 0, 1];
}

/** A record owned by the name at offset 12 (pointer), TTL 60. */
function rr(type: number, cls: number, rdata: readonly number[]): number[] {
  return [0xc0, 12, type >> 8, type & 255, cls >> 8, cls & 255, 0, 0, 0, 60, 0, rdata.length, ...rdata];
}

/** As rr() with an explicit class. */
function rrc(type: number, cls: number, rdata: readonly number[]): number[] {
  return rr(type, cls, rdata);
}

/** A record owned by the root name. */
function rrRoot(type: number, cls: number, rdata: readonly number[]): number[] {
  return [0, ...rr(type, cls, rdata).slice(2)];
}

/** SOA RDATA (RFC 1035 §3.3.13): MNAME and RNAME as pointers to offset 12, five 32-bit fields. */
const SOA_RDATA = [0xc0, 12, 0xc0, 12, ...Array<number>(20).fill(1)];

export function buildMalformedCorpus(): CorpusCase[] {
  const raw: Array<[string, Buffer | number[], ReadonlyArray<'udp' | 'tcp'>?]> = [
    ['empty datagram', [], ['udp']],
    ['5 bytes', [0xab, 0xcd, 0, 0, 0]],
    ['header only, QDCOUNT 0', header(0)],
    ['header only, QDCOUNT 1', header(1)],
    ['QDCOUNT 0 with a question present', [...header(0), ...question]],
    ['QDCOUNT 0, trailing bytes', [...header(0), 1, 2, 3]],
    ['QDCOUNT 0, ANCOUNT 1, question bytes', [...header(0, 1), ...question]],
    ['QDCOUNT 0 with OPT', [...header(0, 0, 0, 1), ...optRecord({ payload: 1232 })]],
    ['QDCOUNT 0 with OPT and trailing bytes', [...header(0, 0, 0, 1), ...optRecord({ payload: 1232 }), 1, 2]],
    ['IQUERY header only', header(0, 0, 0, 0, 0x0800)],
    ['STATUS header only with OPT', [...header(0, 0, 0, 1, 0x1000), ...optRecord({ payload: 1232 })]],
    ['NOTIFY header only', header(0, 0, 0, 0, 0x2000)],
    ['UPDATE header only', header(0, 0, 0, 0, 0x2800)],
    ['opcode 15 header only', header(0, 0, 0, 0, 0x7800)],
    ['IQUERY with trailing bytes', [...header(1, 0, 0, 0, 0x0800), ...question, 7]],
    ['QDCOUNT 2, one question', [...header(2), ...question]],
    ['QDCOUNT 2, two questions', [...header(2), ...question, ...question]],
    ['QR set', withHeader(q(), (b) => (b[2] = b[2]! | 0x80))],
    ['TC set in query', withHeader(q(), (b) => (b[2] = b[2]! | 0x02))],
    ['Z bit set', withHeader(q(), (b) => (b[3] = b[3]! | 0x40))],
    ['trailing garbage', Buffer.concat([q('www.example.com', false), Buffer.from([1, 2, 3, 4, 5])])],
    ['trailing garbage after OPT', Buffer.concat([q(), Buffer.from([0xff, 0xff])])],
    ['question without qtype/qclass', [...header(1), ...encodeName('www.example.com')]],
    ['question with qtype only', [...header(1), ...encodeName('www.example.com'), 0, 1]],
    ['label length 64', [...header(1), 64, ...Buffer.alloc(64, 0x61), 0, 0, 1, 0, 1]],
    ['label type 0x40 (extended)', [...header(1), 0x41, 0, 0, 1, 0, 1]],
    ['label type 0x80 (reserved)', [...header(1), 0x81, 0x61, 0, 0, 1, 0, 1]],
    ['label runs past end', [...header(1), 10, 0x61, 0x62]],
    ['compression pointer to itself', [...header(1), 0xc0, 12, 0, 1, 0, 1]],
    ['compression pointer forward', [...header(1), 0xc0, 18, 0, 1, 0, 1, 0]],
    ['compression pointer into header', [...header(1), 0xc0, 2, 0, 1, 0, 1]],
    ['compression loop of two', [...header(1), 1, 0x61, 0xc0, 15, 0xc0, 12, 0, 1, 0, 1]],
    [
      'valid pointer in question to earlier label? (none before)',
      [...header(1), 3, 0x77, 0x77, 0x77, 0xc0, 12, 0, 1, 0, 1],
    ],
    [
      'name longer than 255',
      [
        ...header(1),
        ...Array.from({ length: 5 }, () => [63, ...Buffer.alloc(63, 0x62)]).flat(),
        0,
        0,
        1,
        0,
        1,
      ],
    ],
    ['ANCOUNT 1 with no answer', [...header(1, 1), ...question]],
    ['ARCOUNT 1 with no record', [...header(1, 0, 0, 1), ...question]],
    [
      'NSCOUNT 1 with a record',
      [...header(1, 0, 1), ...question, 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 1, 2, 3, 4],
    ],
    [
      'two OPT records',
      [...header(1, 0, 0, 2), ...question, ...optRecord({ payload: 1232 }), ...optRecord({ payload: 1232 })],
    ],
    [
      'OPT with non-root owner',
      [...header(1, 0, 0, 1), ...question, 1, 0x61, ...optRecord({ payload: 1232 }).slice(1)],
    ],
    ['OPT rdata length past end', [...header(1, 0, 0, 1), ...question, 0, 0, 41, 4, 0xd0, 0, 0, 0, 0, 0, 9]],
    [
      'OPT option length past rdata',
      [...header(1, 0, 0, 1), ...question, 0, 0, 41, 4, 0xd0, 0, 0, 0, 0, 0, 4, 0, 10, 0, 8],
    ],
    ['OPT payload 0', [...header(1, 0, 0, 1), ...question, ...optRecord({ payload: 0 })]],
    ['OPT payload 65535', [...header(1, 0, 0, 1), ...question, ...optRecord({ payload: 65535 })]],
    ['OPT in authority section', [...header(1, 0, 1, 0), ...question, ...optRecord({ payload: 1232 })]],
    [
      'OPT extended rcode set in query',
      [...header(1, 0, 0, 1), ...question, 0, 0, 41, 4, 0xd0, 7, 0, 0, 0, 0, 0],
    ],
    ['qclass NONE', [...header(1), ...encodeName('www.example.com'), 0, 1, 0, 254]],
    ['qclass 0', [...header(1), ...encodeName('www.example.com'), 0, 1, 0, 0]],
    ['qtype OPT', [...header(1), ...encodeName('www.example.com'), 0, 41, 0, 1]],
    ['qtype MAILB', [...header(1), ...encodeName('www.example.com'), 0, 253, 0, 1]],
    ['qtype 0 no EDNS', [...header(1), ...encodeName('www.example.com'), 0, 0, 0, 1]],
    ['qtype 0 class CH', [...header(1), ...encodeName('www.example.com'), 0, 0, 0, 3]],
    ['qtype 65535', [...header(1), ...encodeName('www.example.com'), 0xff, 0xff, 0, 1]],
    [
      'opcode UPDATE with zone section',
      [0xab, 0xcd, 0x28, 0, 0, 1, 0, 0, 0, 0, 0, 0, ...encodeName('example.com'), 0, 6, 0, 1],
    ],
    ['UPDATE with zone section and a prerequisite', [...notifyOrUpdate(0x28, 1), ...rr(255, 255, [])]],
    ['NOTIFY with an SOA answer', [...notifyOrUpdate(0x24, 1), ...rr(6, 1, SOA_RDATA)]],
    ['NOTIFY with an empty-RDATA SOA answer', [...notifyOrUpdate(0x24, 1), ...rr(6, 1, [])]],
    ['query with an empty-RDATA A in additional', [...header(1, 0, 0, 1), ...question, ...rr(1, 1, [])]],
    [
      'query with a 5-byte A in authority',
      [...header(1, 0, 1, 0), ...question, ...rr(1, 1, [1, 2, 3, 4, 5])],
    ],
    ['query with an empty-RDATA A in class CH', [...header(1, 0, 0, 1), ...question, ...rrc(1, 3, [])]],
    ['query with an empty-RDATA unknown type', [...header(1, 0, 0, 1), ...question, ...rr(65000, 1, [])]],
    ['query with an empty-RDATA DS', [...header(1, 0, 0, 1), ...question, ...rr(43, 1, [])]],
    ['query with a 1-byte TXT', [...header(1, 0, 0, 1), ...question, ...rr(16, 1, [5])]],
    ['query with a short RRSIG', [...header(1, 0, 0, 1), ...question, ...rr(46, 1, [0, 1, 2, 3])]],
    ['query with an NS whose name runs out', [...header(1, 0, 0, 1), ...question, ...rr(2, 1, [5, 0x61])]],
    [
      'QDCOUNT 0, record counts larger than the message',
      [...header(0, 0, 2, 1), ...optRecord({ payload: 1232 })],
    ],
    ['QDCOUNT 1, record counts larger than the message', [...header(1, 0x20, 0, 0x0b), ...question]],
    ['QDCOUNT 0, empty-RDATA DS then trailing bytes', [...header(0, 0, 0, 1), ...rrRoot(43, 1, []), 0, 0]],
    ['query with a valid A in answer', [...header(1, 1, 0, 0), ...question, ...rr(1, 1, [1, 2, 3, 4])]],
    [
      'NOTIFY for a served zone',
      [0xab, 0xcd, 0x24, 0, 0, 1, 0, 0, 0, 0, 0, 0, ...encodeName('example.com'), 0, 6, 0, 1],
    ],
    ['root query no EDNS', [...header(1), 0, 0, 2, 0, 1]],
    [
      'binary label bytes',
      [...header(1), 4, 0x00, 0xff, 0x2e, 0x41, ...encodeName('example.com'), 0, 1, 0, 1],
    ],
    [
      'escaped dot inside a label',
      [...header(1), 5, 0x61, 0x2e, 0x77, 0x77, 0x77, ...encodeName('example.com'), 0, 1, 0, 1],
    ],
  ];
  return raw.map(([id, bytes, transports]) => ({
    id: `raw: ${id}`,
    wire: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes),
    transports: transports ?? ['udp', 'tcp'],
  }));
}
