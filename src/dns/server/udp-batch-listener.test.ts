import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import dnsPacket from 'dns-packet';
import { queryUdp } from '../../testing/dns-client.ts';
import { startDnsServer } from './dns-server.ts';
import type { DnsServer } from './dns-server.ts';
import type { DnsHandler } from './listener-options.ts';
import { loadUdpBatchAddon } from './udp-batch-native.ts';

/** Echo with QR set; records the client it saw; ID 0xdead throws. */
const seen: string[] = [];
const echo: DnsHandler = (query, client, out) => {
  if (query[0] === 0xde && query[1] === 0xad) throw new Error('boom');
  seen.push(`${client.transport} ${client.family} ${client.address}`);
  out.kind = 'positive';
  const res = Buffer.from(query);
  res[2] = res[2]! | 0x80;
  return res;
};

function query(id: number): Buffer {
  return dnsPacket.encode({ type: 'query', id, questions: [{ name: 'a.example', type: 'A', class: 'IN' }] });
}

// The addon is optional (native/, built with node-gyp); without it these tests have nothing to test.
describe.skipIf(loadUdpBatchAddon() === null)('native batch UDP (nativeUdp: true)', () => {
  let server: DnsServer;
  beforeAll(async () => {
    server = await startDnsServer({ host: '::', port: 0, handler: echo, rrl: null, nativeUdp: true });
  });
  afterAll(() => server.close());

  it('serves UDP natively on the TCP port, dual stack, with dgram-style client addresses', async () => {
    expect(server.udpPath).toBe('native');
    expect(server.udpPort).toBe(server.tcpPort);
    seen.length = 0;
    const v4 = await queryUdp(query(7), { host: '127.0.0.1', port: server.udpPort });
    expect(v4.response?.readUInt16BE(0)).toBe(7);
    const v6 = await queryUdp(query(8), { host: '::1', port: server.udpPort });
    expect(v6.response?.readUInt16BE(0)).toBe(8);
    expect(seen).toEqual(['udp 4 127.0.0.1', 'udp 6 0:0:0:0:0:0:0:1']);
  });

  it('survives a throwing handler and answers many datagrams in flight', async () => {
    const bad = await queryUdp(Buffer.from([0xde, 0xad, ...query(1).subarray(2)]), {
      host: '127.0.0.1',
      port: server.udpPort,
      timeoutMs: 200,
      retries: 0,
    });
    expect(bad.response).toBeNull();
    const ids = Array.from({ length: 200 }, (_, i) => i + 1);
    const got = await Promise.all(
      ids.map((id) => queryUdp(query(id), { host: '127.0.0.1', port: server.udpPort })),
    );
    expect(got.map((g) => g.response?.readUInt16BE(0))).toEqual(ids);
  });

  it('releases the port on close', async () => {
    const other = await startDnsServer({
      host: '127.0.0.1',
      port: 0,
      handler: echo,
      rrl: null,
      nativeUdp: true,
    });
    const port = other.udpPort;
    await other.close();
    const again = await startDnsServer({
      host: '127.0.0.1',
      port,
      handler: echo,
      rrl: null,
      nativeUdp: true,
    });
    expect((await queryUdp(query(9), { host: '127.0.0.1', port })).response?.readUInt16BE(0)).toBe(9);
    await again.close();
  });
});
