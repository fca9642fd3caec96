import dnsPacket from 'dns-packet';
import type { Answer, Packet } from 'dns-packet';
import { expect } from 'vitest';
import { typeFromText } from '../dns/index.ts';

export interface QuerySpec {
  name: string;
  type: string | number;
  qclass?: number;
  id?: number;
  /** Second header word; default 0 (RD clear). */
  flags?: number;
  /** Add an OPT RR: payload size, DO bit, version, raw options. */
  edns?: { size?: number; do?: boolean; version?: number; options?: { code: number; data: Buffer }[] };
}

function encodeName(name: string): Buffer {
  const parts = name === '' || name === '.' ? [] : name.replace(/\.$/, '').split('.');
  return Buffer.concat([
    ...parts.map((p) => Buffer.concat([Buffer.from([p.length]), Buffer.from(p, 'latin1')])),
    Buffer.from([0]),
  ]);
}

/** Encodes a query by hand (dns-packet cannot set every field we need, e.g. EDNS version). */
export function buildQuery(spec: QuerySpec): Buffer {
  const type = typeof spec.type === 'number' ? spec.type : typeFromText(spec.type)!;
  const h = Buffer.alloc(12);
  h.writeUInt16BE(spec.id ?? 0x1234, 0);
  h.writeUInt16BE(spec.flags ?? 0, 2);
  h.writeUInt16BE(1, 4);
  h.writeUInt16BE(spec.edns ? 1 : 0, 10);
  const q = Buffer.alloc(4);
  q.writeUInt16BE(type, 0);
  q.writeUInt16BE(spec.qclass ?? 1, 2);
  const parts = [h, encodeName(spec.name), q];
  if (spec.edns) {
    const opts = Buffer.concat(
      (spec.edns.options ?? []).map((o) => {
        const b = Buffer.alloc(4);
        b.writeUInt16BE(o.code, 0);
        b.writeUInt16BE(o.data.length, 2);
        return Buffer.concat([b, o.data]);
      }),
    );
    const opt = Buffer.alloc(11);
    opt.writeUInt16BE(41, 1);
    opt.writeUInt16BE(spec.edns.size ?? 4096, 3);
    opt[6] = spec.edns.version ?? 0;
    opt[7] = spec.edns.do ? 0x80 : 0;
    opt.writeUInt16BE(opts.length, 9);
    parts.push(opt, opts);
  }
  return Buffer.concat(parts);
}

function rdataText(a: Answer): string {
  const d = (a as { data?: unknown }).data;
  switch (a.type) {
    case 'MX': {
      const m = d as { preference: number; exchange: string };
      return `${m.preference} ${m.exchange}`;
    }
    case 'SRV': {
      const s = d as { priority: number; weight: number; port: number; target: string };
      return `${s.priority} ${s.weight} ${s.port} ${s.target}`;
    }
    case 'SOA': {
      const s = d as {
        mname: string;
        rname: string;
        serial: number;
        refresh: number;
        retry: number;
        expire: number;
        minimum: number;
      };
      return `${s.mname} ${s.rname} ${s.serial} ${s.refresh} ${s.retry} ${s.expire} ${s.minimum}`;
    }
    case 'TXT':
      return (d as Buffer[]).map((b) => JSON.stringify(b.toString('latin1'))).join(' ');
    default:
      return typeof d === 'string' ? d : Buffer.isBuffer(d) ? d.toString('hex') : JSON.stringify(d);
  }
}

/** "owner ttl TYPE rdata" with a lower-case owner and no trailing dots. */
export function rrText(a: Answer): string {
  if (a.type === 'OPT') return 'OPT';
  return `${a.name.toLowerCase()} ${(a as { ttl?: number }).ttl} ${a.type} ${rdataText(a)}`;
}

export interface Expected {
  rcode: string;
  aa?: boolean;
  tc?: boolean;
  answer?: string[];
  authority?: string[];
  additional?: string[];
}

export function decode(buf: Buffer): Packet & { rcode?: string } {
  return dnsPacket.decode(buf) as Packet & { rcode?: string };
}

/** Compares rcode, flags and each section regardless of order within the section (OPT excluded). */
export function expectResponse(buf: Buffer | null, exp: Expected): Packet {
  expect(buf).not.toBeNull();
  const p = decode(buf!);
  expect(p.rcode).toBe(exp.rcode);
  const flags = p.flags ?? 0;
  if (exp.aa !== undefined) expect((flags & 0x400) !== 0, 'AA').toBe(exp.aa);
  if (exp.tc !== undefined) expect((flags & 0x200) !== 0, 'TC').toBe(exp.tc);
  const sec = (list: Answer[] | undefined): string[] =>
    (list ?? [])
      .filter((a) => a.type !== 'OPT')
      .map(rrText)
      .sort();
  expect({ answer: sec(p.answers), authority: sec(p.authorities), additional: sec(p.additionals) }).toEqual({
    answer: [...(exp.answer ?? [])].sort(),
    authority: [...(exp.authority ?? [])].sort(),
    additional: [...(exp.additional ?? [])].sort(),
  });
  return p;
}
