import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import dnsPacket from 'dns-packet';
import { queryTcpMany, queryUdp } from '../../testing/dns-client.ts';
import { startDnsServer } from './dns-server.ts';
import type { DnsServer } from './dns-server.ts';
import type { DnsHandler } from './listener-options.ts';
import { createQueryStats } from './query-stats.ts';
import type { QueryStatsRow } from './query-stats.ts';
import { createResponseRateLimiter } from './response-rate-limit.ts';

/** Echo handler: the query with QR set; a query whose ID is 0xdead makes it throw. */
const echo: DnsHandler = (query, client, out) => {
  if (query.length < 12) return null;
  if (query[0] === 0xde && query[1] === 0xad) throw new Error('boom');
  out.kind = 'positive';
  out.zoneId = 1;
  out.zoneApex = 'example.com';
  out.qtype = 1;
  out.rcode = 0;
  const res = Buffer.from(query);
  res[2] = res[2]! | 0x80;
  // Echo the transport in the Z bit area of byte 3's high nibble for the tests below.
  res[3] = client.transport === 'tcp' ? 0x40 : 0x00;
  return res;
};

function query(id: number, name = 'www.example.com'): Buffer {
  return dnsPacket.encode({ type: 'query', id, questions: [{ name, type: 'A', class: 'IN' }] });
}

function closedPromptly(port: number, host: string, write?: Buffer): Promise<'closed'> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ port, host });
    s.on('error', reject);
    s.on('connect', () => {
      if (write) s.write(write);
    });
    s.on('close', () => resolve('closed'));
  });
}

describe('startDnsServer (dual stack on ::, port 0)', () => {
  let server: DnsServer;
  const batches: QueryStatsRow[][] = [];
  const stats = createQueryStats({ sink: { flush: (b) => batches.push(b) } });
  beforeAll(async () => {
    server = await startDnsServer({
      host: '::',
      port: 0,
      handler: echo,
      rrl: { rate: 0 },
      stats,
      limits: { tcpIdleTimeoutMs: 200, maxTcpConnectionsPerClient: 3 },
    });
  });
  afterAll(() => server.close());

  it('uses one port for UDP and TCP', () => {
    expect(server.udpPort).toBeGreaterThan(0);
    expect(server.tcpPort).toBe(server.udpPort);
  });

  it.each(['127.0.0.1', '::1'])('answers UDP and TCP over %s', async (host) => {
    const u = await queryUdp(query(7), { host, port: server.udpPort });
    expect(u.response?.readUInt16BE(0)).toBe(7);
    expect(u.response![3]).toBe(0x00);
    const [t] = await queryTcpMany([query(8)], { host, port: server.tcpPort });
    expect(t?.readUInt16BE(0)).toBe(8);
    expect(t![3]).toBe(0x40);
  });

  it('answers pipelined queries in one write and byte-by-byte', async () => {
    const qs = [1, 2, 3, 4].map((i) => query(i, `n${i}.example.com`));
    const res = await queryTcpMany(qs, { host: '127.0.0.1', port: server.tcpPort });
    expect(res.map((r) => r.readUInt16BE(0))).toEqual([1, 2, 3, 4]);

    const framed = Buffer.concat(
      qs.map((q) => Buffer.concat([Buffer.from([q.length >> 8, q.length & 255]), q])),
    );
    const got = await new Promise<number[]>((resolve, reject) => {
      const ids: number[] = [];
      let buf = Buffer.alloc(0);
      const s = net.connect({ port: server.tcpPort, host: '127.0.0.1' }, async () => {
        for (const b of framed) await new Promise<void>((r) => s.write(Buffer.from([b]), () => r()));
      });
      s.on('error', reject);
      s.on('data', (d: Buffer) => {
        buf = Buffer.concat([buf, d]);
        while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
          ids.push(buf.readUInt16BE(2));
          buf = buf.subarray(2 + buf.readUInt16BE(0));
        }
        if (ids.length === 4) {
          s.destroy();
          resolve(ids);
        }
      });
    });
    expect(got).toEqual([1, 2, 3, 4]);
  });

  it('closes a connection with a malformed length prefix', async () => {
    expect(await closedPromptly(server.tcpPort, '127.0.0.1', Buffer.from([0, 0]))).toBe('closed');
    expect(await closedPromptly(server.tcpPort, '127.0.0.1', Buffer.from([0, 5, 1, 2, 3, 4, 5]))).toBe(
      'closed',
    );
  });

  it('closes idle connections after the configured timeout', async () => {
    const start = Date.now();
    expect(await closedPromptly(server.tcpPort, '127.0.0.1')).toBe('closed');
    expect(Date.now() - start).toBeGreaterThanOrEqual(150);
  });

  it('closes connections over the per-client cap at once', async () => {
    const held = await Promise.all(
      [0, 1, 2].map(
        () =>
          new Promise<net.Socket>((resolve) => {
            const s = net.connect({ port: server.tcpPort, host: '127.0.0.1' }, () => resolve(s));
          }),
      ),
    );
    // The server sees them once accepted: wait for one round-trip on each.
    for (const s of held) s.write(Buffer.concat([Buffer.from([0, 33]), query(99)]));
    await Promise.all(held.map((s) => new Promise((r) => s.once('data', r))));
    const start = Date.now();
    expect(await closedPromptly(server.tcpPort, '127.0.0.1')).toBe('closed');
    expect(Date.now() - start).toBeLessThan(150);
    for (const s of held) s.destroy();
  });

  it('survives a throwing handler on UDP and TCP', async () => {
    expect(
      (await queryUdp(query(0xdead), { host: '127.0.0.1', port: server.udpPort, timeoutMs: 100, retries: 0 }))
        .response,
    ).toBeNull();
    const res = await queryTcpMany([query(0xdead), query(9)], {
      host: '127.0.0.1',
      port: server.tcpPort,
      expect: 1,
    });
    expect(res.map((r) => r.readUInt16BE(0))).toEqual([9]);
    expect(
      (await queryUdp(query(10), { host: '127.0.0.1', port: server.udpPort })).response?.readUInt16BE(0),
    ).toBe(10);
  });

  it('feeds the query stats', () => {
    stats.flush();
    expect(batches.at(-1)?.[0]?.byType.A).toBeGreaterThan(0);
  });
});

describe('startDnsServer (IPv4 only on 0.0.0.0, with RRL)', () => {
  let server: DnsServer;
  let t = 0;
  beforeAll(async () => {
    const rrl = createResponseRateLimiter({ rate: 1, slip: 2, exempt: [], now: () => t });
    server = await startDnsServer({ host: '0.0.0.0', port: 0, handler: echo, rrl });
  });
  afterAll(() => server.close());

  it('does not listen on IPv6', async () => {
    await expect(
      new Promise((resolve, reject) => {
        const s = net.connect({ port: server.tcpPort, host: '::1' }, () => resolve(s.destroy()));
        s.on('error', reject);
      }),
    ).rejects.toThrow();
  });

  it('rate-limits UDP (send, drop, slip) but never TCP', async () => {
    const opts = { host: '127.0.0.1', port: server.udpPort, timeoutMs: 150, retries: 0 };
    const first = await queryUdp(query(1), opts);
    expect(first.response).not.toBeNull();
    expect(first.response![2]! & 0x02).toBe(0);
    expect((await queryUdp(query(2), opts)).response).toBeNull();
    const slipped = await queryUdp(query(3), opts);
    expect(slipped.response).not.toBeNull();
    expect(slipped.response![2]! & 0x02).toBe(0x02);
    expect(slipped.response?.readUInt16BE(4)).toBe(1);
    const tcp = await queryTcpMany([query(4), query(5), query(6)], {
      host: '127.0.0.1',
      port: server.tcpPort,
    });
    expect(tcp).toHaveLength(3);
    t += 1000;
    expect((await queryUdp(query(7), opts)).response?.readUInt16BE(0)).toBe(7);
  });
});
