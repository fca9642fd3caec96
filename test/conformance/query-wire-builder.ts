/**
 * Builds query messages byte by byte (RFC 1035 §4.1, RFC 6891 §6.1 OPT) so that tests control
 * every bit: opcode, flags, class, EDNS version/payload/DO and options, and mixed-case names.
 */

export interface EdnsSpec {
  payload: number;
  version?: number;
  do?: boolean;
  /** [code, data] pairs (RFC 6891 §6.1.2). */
  options?: ReadonlyArray<readonly [number, Uint8Array]>;
}

export interface QuerySpec {
  id?: number;
  name: string;
  qtype: number;
  qclass?: number;
  opcode?: number;
  rd?: boolean;
  cd?: boolean;
  ad?: boolean;
  edns?: EdnsSpec | null;
}

export const CLASS_IN = 1;
export const CLASS_CH = 3;
export const CLASS_ANY = 255;
const TYPE_OPT = 41;

export function encodeName(name: string): number[] {
  const out: number[] = [];
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  if (trimmed.length > 0)
    for (const label of trimmed.split('.')) {
      const bytes = Buffer.from(label, 'latin1');
      out.push(bytes.length, ...bytes);
    }
  out.push(0);
  return out;
}

export function optRecord(e: EdnsSpec): number[] {
  const rdata: number[] = [];
  for (const [code, data] of e.options ?? [])
    rdata.push(code >> 8, code & 255, data.length >> 8, data.length & 255, ...data);
  return [
    0,
    0,
    TYPE_OPT,
    e.payload >> 8,
    e.payload & 255,
    0, // extended RCODE
    e.version ?? 0,
    e.do ? 0x80 : 0,
    0,
    rdata.length >> 8,
    rdata.length & 255,
    ...rdata,
  ];
}

export function buildQuery(q: QuerySpec): Buffer {
  const id = q.id ?? 0x1234;
  const flags1 = ((q.opcode ?? 0) << 3) | (q.rd ? 1 : 0);
  const flags2 = (q.ad ? 0x20 : 0) | (q.cd ? 0x10 : 0);
  const hasEdns = q.edns !== undefined && q.edns !== null;
  const qclass = q.qclass ?? CLASS_IN;
  const bytes = [
    id >> 8,
    id & 255,
    flags1,
    flags2,
    0,
    1,
    0,
    0,
    0,
    0,
    0,
    hasEdns ? 1 : 0,
    ...encodeName(q.name),
    q.qtype >> 8,
    q.qtype & 255,
    qclass >> 8,
    qclass & 255,
  ];
  if (hasEdns) bytes.push(...optRecord(q.edns!));
  return Buffer.from(bytes);
}
