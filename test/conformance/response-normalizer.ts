/**
 * Turns a response message into a comparison-friendly form: header flags and RCODE (incl. the
 * EDNS extended RCODE, RFC 6891 §6.1.3), the question, each section as a sorted list of
 * presentation-like strings with exact TTLs (order within a section is not significant,
 * RFC 2181 §5), and the OPT record separately (version, payload, DO, options).
 */
import dnsPacket from 'dns-packet';

export interface NormalizedResponse {
  id: number;
  opcode: number;
  rcode: number;
  flags: string;
  question: string[];
  answer: string[];
  authority: string[];
  additional: string[];
  edns: null | { version: number; payload: number; do: boolean; z: number; options: string[] };
  /** Set when the bytes do not decode; the hex then stands for the whole message. */
  undecodable?: string;
}

interface AnyRecord {
  name: string;
  type: string;
  class?: string;
  ttl?: number;
  data?: unknown;
  udpPayloadSize?: number;
  extendedRcode?: number;
  ednsVersion?: number;
  flags?: number;
  options?: Array<{ code: number; data?: Buffer }>;
}

function jsonData(data: unknown): string {
  return JSON.stringify(data, (_k, v: unknown) => {
    if (v !== null && typeof v === 'object' && (v as { type?: string }).type === 'Buffer') {
      return `0x${Buffer.from((v as { data: number[] }).data).toString('hex')}`;
    }
    return v;
  });
}

function record(r: AnyRecord): string {
  return `${r.name} ${r.ttl ?? '-'} ${r.class ?? '-'} ${r.type} ${jsonData(r.data)}`;
}

const FLAG_NAMES: Array<[number, string]> = [
  [0x8000, 'qr'],
  [0x0400, 'aa'],
  [0x0200, 'tc'],
  [0x0100, 'rd'],
  [0x0080, 'ra'],
  [0x0040, 'z'],
  [0x0020, 'ad'],
  [0x0010, 'cd'],
];

export function normalizeResponse(buf: Buffer | null): NormalizedResponse | null {
  if (buf === null) return null;
  const base: NormalizedResponse = {
    id: buf.length >= 2 ? buf.readUInt16BE(0) : -1,
    opcode: buf.length >= 3 ? (buf[2]! >> 3) & 0x0f : -1,
    rcode: buf.length >= 4 ? buf[3]! & 0x0f : -1,
    flags:
      buf.length >= 4
        ? FLAG_NAMES.filter(([bit]) => (buf.readUInt16BE(2) & bit) !== 0)
            .map(([, n]) => n)
            .join(' ')
        : '',
    question: [],
    answer: [],
    authority: [],
    additional: [],
    edns: null,
  };
  let p: ReturnType<typeof dnsPacket.decode>;
  try {
    p = dnsPacket.decode(buf);
  } catch {
    return { ...base, undecodable: buf.toString('hex') };
  }
  base.question = (p.questions ?? []).map((q) => `${q.name} ${q.class} ${q.type}`);
  base.answer = ((p.answers ?? []) as AnyRecord[]).map(record).sort();
  base.authority = ((p.authorities ?? []) as AnyRecord[]).map(record).sort();
  const additional = (p.additionals ?? []) as AnyRecord[];
  for (const r of additional) {
    if (r.type === 'OPT') {
      base.rcode |= (r.extendedRcode ?? 0) << 4;
      const flags = r.flags ?? 0;
      base.edns = {
        version: r.ednsVersion ?? 0,
        payload: r.udpPayloadSize ?? 0,
        do: (flags & 0x8000) !== 0,
        z: flags & 0x7fff,
        options: (r.options ?? [])
          .map((o) => `${o.code}:${o.data ? Buffer.from(o.data).toString('hex') : ''}`)
          .sort(),
      };
    } else base.additional.push(record(r));
  }
  base.additional.sort();
  return base;
}

/** Readable rendering for failure messages. */
export function renderResponse(n: NormalizedResponse | null): string {
  if (n === null) return '  (no response)';
  const lines = [`  id=${n.id} opcode=${n.opcode} rcode=${n.rcode} flags=[${n.flags}]`];
  if (n.undecodable) lines.push(`  undecodable: ${n.undecodable}`);
  if (n.edns)
    lines.push(
      `  EDNS v${n.edns.version} payload=${n.edns.payload} do=${n.edns.do} z=${n.edns.z} opts=[${n.edns.options.join(',')}]`,
    );
  for (const s of ['question', 'answer', 'authority', 'additional'] as const)
    for (const r of n[s]) lines.push(`  ${s.slice(0, 3).toUpperCase()} ${r}`);
  return lines.join('\n');
}
