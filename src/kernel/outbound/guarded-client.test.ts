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
