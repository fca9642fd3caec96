/**
 * Asks the parent's DS RRset of a zone through a resolver (DNSSEC_PARENT_RESOLVER, host:port; a
 * recursive resolver, or the parent's authoritative server, which answers DS from the parent side
 * of the cut, RFC 4035 §3.1.4.1) and tells whether it holds a given DS, with the RRset's TTL. UDP
 * with RD set, retried over TCP when the answer is truncated (RFC 7766).
 */
import dgram from 'node:dgram';
import { getServers } from 'node:dns';
import net from 'node:net';
import dnsPacket from 'dns-packet';

const TIMEOUT_MS = 3_000;

export interface ResolverAddress {
  readonly host: string;
  readonly port: number;
}

/** `host:port` or `[v6]:port`; a bare host means port 53. Null when unparsable. */
export function parseResolverAddress(text: string): ResolverAddress | null {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(text) ?? /^([^:]+)(?::(\d+))?$/.exec(text);
  if (m === null || net.isIP(m[1]!) === 0) return null;
  const port = m[2] === undefined ? 53 : Number(m[2]);
  return port >= 1 && port <= 65535 ? { host: m[1]!, port } : null;
}

/** The system's first resolver (resolv.conf), else 127.0.0.1:53. */
export function systemResolver(): ResolverAddress {
  const first = getServers()[0];
  const parsed = first === undefined ? null : parseResolverAddress(net.isIPv6(first) ? `[${first}]` : first);
  return parsed ?? { host: '127.0.0.1', port: 53 };
}

/** A DS as compared: key tag, algorithm, digest type, digest (hex). */
export function dsKey(rdata: Uint8Array): string {
  const b = Buffer.from(rdata);
  return `${b.readUInt16BE(0)} ${b[2]} ${b[3]} ${b.subarray(4).toString('hex')}`;
}

interface DecodedDs {
  keyTag: number;
  algorithm: number;
  digestType: number;
  digest: Buffer;
}

function exchangeUdp(query: Buffer, to: ResolverAddress): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket(net.isIPv6(to.host) ? 'udp6' : 'udp4');
    const timer = setTimeout(() => finish(new Error('parent DS query timed out')), TIMEOUT_MS);
    function finish(error: Error | null, answer?: Buffer): void {
      clearTimeout(timer);
      socket.close();
      if (error !== null) reject(error);
      else resolve(answer!);
    }
    socket.on('error', (e) => finish(e));
    socket.on('message', (msg) => {
      if (msg.length >= 2 && msg.readUInt16BE(0) === query.readUInt16BE(0)) finish(null, msg);
    });
    socket.send(query, to.port, to.host);
  });
}

function exchangeTcp(query: Buffer, to: ResolverAddress): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(to.port, to.host);
    let got = Buffer.alloc(0);
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error('parent DS query timed out')));
    socket.on('connect', () => {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(query.length);
      socket.write(Buffer.concat([len, query]));
    });
    socket.on('data', (d: Buffer) => {
      got = Buffer.concat([got, d]);
      if (got.length >= 2 && got.length >= 2 + got.readUInt16BE(0)) {
        socket.end();
        resolve(got.subarray(2, 2 + got.readUInt16BE(0)));
      }
    });
    socket.on('error', reject);
  });
}

/**
 * The parent's answer for `domain` DS: whether it holds `wanted` (dsKey form), and the RRset's TTL.
 * Null when it does not hold it (or there is no DS RRset). Throws when the resolver does not answer.
 */
export async function lookupParentDs(
  domain: string,
  wanted: string,
  resolver: ResolverAddress,
): Promise<{ ttlS: number } | null> {
  const query = dnsPacket.encode({
    type: 'query',
    id: Math.floor(Math.random() * 0xffff),
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ type: 'DS', name: domain }],
  });
  let answer = await exchangeUdp(query, resolver);
  if ((answer[2]! & 0x02) !== 0) answer = await exchangeTcp(query, resolver);
  const decoded = dnsPacket.decode(answer);
  const name = domain.toLowerCase().replace(/\.$/, '');
  for (const rr of decoded.answers ?? []) {
    if (rr.type !== 'DS' || rr.name.toLowerCase().replace(/\.$/, '') !== name) continue;
    const ds = rr.data as unknown as DecodedDs;
    if (`${ds.keyTag} ${ds.algorithm} ${ds.digestType} ${ds.digest.toString('hex')}` === wanted) {
      return { ttlS: rr.ttl ?? 0 };
    }
  }
  return null;
}
