import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress, isAllowedTarget } from '../../net/address-class.ts';
import { startHttpsReceiver, type HttpsReceiver } from '../../testing/https-receiver.ts';
import { OUTBOUND_MAX_BODY_BYTES, OutboundClient, OutboundError } from './guarded-client.ts';

const publicOnly = (address: string) => {
  const cls = classifyAddress(address);
  return cls !== null && isAllowedTarget(cls, false);
};

async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'sent';
  } catch (e) {
    return e instanceof OutboundError ? e.reason : `other: ${String(e)}`;
  }
}

describe('the guarded outbound client', () => {
  let receiver: HttpsReceiver;
  beforeAll(async () => {
    receiver = await startHttpsReceiver();
  });
  afterAll(async () => receiver?.close());

  it('refuses loopback, private and reserved destinations before connecting, by address or by name', async () => {
    const client = new OutboundClient({ isAllowedAddress: publicOnly, caFile: receiver.caFile });
    try {
      expect(await reason(client.post(`https://127.0.0.1:${receiver.port}/`, '{}', {}))).toBe(
        'forbidden_address',
      );
      expect(await reason(client.post(`https://localhost:${receiver.port}/`, '{}', {}))).toBe(
        'forbidden_address',
      );
      expect(await reason(client.post('https://[::1]/', '{}', {}))).toBe('forbidden_address');
      expect(await reason(client.post('https://[::ffff:10.0.0.1]/', '{}', {}))).toBe('forbidden_address');
      expect(await reason(client.post('https://169.254.169.254/latest/meta-data', '{}', {}))).toBe(
        'forbidden_address',
      );
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await client.close();
    }
  });

  it('checks what a name resolves to at connect time: a name that turns private (DNS rebinding) is refused', async () => {
    let answers = ['93.184.216.34'];
    const client = new OutboundClient({ isAllowedAddress: publicOnly, resolve: async () => answers });
    try {
      answers = ['10.1.2.3'];
      expect(await reason(client.post('https://rebinding.example/', '{}', {}))).toBe('forbidden_address');
      answers = ['93.184.216.34', '192.168.1.1'];
      expect(await reason(client.post('https://mixed.example/', '{}', {}))).toBe('forbidden_address');
    } finally {
      await client.close();
    }
  });

  it('judges a URL before it is saved as a request would: the host, or every address its name has now', async () => {
    const names: Record<string, string[]> = {
      'inside.example': ['10.1.2.3'],
      'mixed.example': ['93.184.216.34', '192.168.1.1'],
      'public.example': ['93.184.216.34'],
    };
    const client = new OutboundClient({
      isAllowedAddress: publicOnly,
      resolve: async (host) => {
        const found = names[host];
        if (found === undefined) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
        return found;
      },
    });
    const judged = async (url: string) => {
      const refused = await client.refusal(url);
      return refused === null ? null : `${refused.reason}: ${refused.message}`;
    };
    try {
      expect(await judged('https://127.0.0.1:8443/hook')).toBe(
        'forbidden_address: 127.0.0.1 is a private or reserved address',
      );
      expect(await judged('https://[::ffff:10.0.0.1]/')).toBe(
        'forbidden_address: ::ffff:a00:1 is a private or reserved address',
      );
      expect(await judged('https://inside.example/')).toBe(
        'forbidden_address: inside.example resolves to a private or reserved address (10.1.2.3)',
      );
      expect(await judged('https://mixed.example/')).toBe(
        'forbidden_address: mixed.example resolves to a private or reserved address (192.168.1.1)',
      );
      expect(await judged('http://public.example/')).toBe('scheme: only https:// URLs are called');
      // Public, or not resolvable yet: not refused here (the connect-time check stays).
      expect(await judged('https://public.example/')).toBeNull();
      expect(await judged('https://not-yet.example/')).toBeNull();
    } finally {
      await client.close();
    }
  });

  it('calls only https://, follows no redirect, reads at most 64 KiB, trusts a CA only when told', async () => {
    const allowLocal = new OutboundClient({ isAllowedAddress: () => true, caFile: receiver.caFile });
    const untrusting = new OutboundClient({ isAllowedAddress: () => true });
    try {
      expect(await reason(allowLocal.post(`http://127.0.0.1:${receiver.port}/`, '{}', {}))).toBe('scheme');
      receiver.respond = () => ({ status: 302, headers: { location: 'https://10.0.0.1/' } });
      const redirect = await allowLocal.post(`${receiver.url}/r`, '{}', {});
      expect(redirect.status).toBe(302);
      expect(receiver.requests).toHaveLength(1);
      receiver.respond = () => ({ status: 200, body: 'x'.repeat(200_000) });
      const big = await allowLocal.post(`${receiver.url}/big`, '{"a":1}', {
        'content-type': 'application/json',
      });
      expect(big.body.length).toBe(OUTBOUND_MAX_BODY_BYTES);
      expect(receiver.requests[1]!.body).toBe('{"a":1}');
      expect(await reason(untrusting.post(`${receiver.url}/`, '{}', {}))).toBe('tls');
    } finally {
      await allowLocal.close();
      await untrusting.close();
      receiver.respond = () => ({ status: 200 });
    }
  });
});

describe('the guarded outbound client: downloads', () => {
  it('streams a GET within its byte limit, refuses a larger one and a loopback destination', async () => {
    const { createServer } = await import('node:http');
    const body = Buffer.alloc(5000, 7);
    const server = createServer((_req, res) => res.writeHead(200).end(body));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/file.jar`;
    const open = new OutboundClient({ isAllowedAddress: () => true, allowHttp: true });
    const guarded = new OutboundClient({ isAllowedAddress: publicOnly, allowHttp: true });
    try {
      const chunks: Buffer[] = [];
      const res = await open.download(url, (c) => void chunks.push(c), { maxBytes: 5000, timeoutMs: 5000 });
      expect([res.status, res.bytes, Buffer.concat(chunks).equals(body)]).toEqual([200, 5000, true]);
      expect(await reason(open.download(url, () => {}, { maxBytes: 4999, timeoutMs: 5000 }))).toBe(
        'too_large',
      );
      expect(await reason(guarded.download(url, () => {}, { maxBytes: 5000, timeoutMs: 5000 }))).toBe(
        'forbidden_address',
      );
      const https = new OutboundClient({ isAllowedAddress: () => true });
      expect(await reason(https.download(url, () => {}, { maxBytes: 5000, timeoutMs: 5000 }))).toBe('scheme');
    } finally {
      await open.close();
      await guarded.close();
      await new Promise<void>((done) => server.close(() => done()));
    }
  });
});
