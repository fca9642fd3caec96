/**
 * dns_lb_answers_total: answers at a load balancer's hostname, counted by the DNS role as they are
 * served over UDP, by zone, load balancer, cascade stage and reason.
 */
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryUdp } from '../../testing/dns-client.ts';
import { freePort } from '../../testing/free-port.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

const ZONES = '/api/v1/dns/zones';
const DOMAIN = 'lb-metrics.example';

describe('dns_lb_answers_total', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    t = await startTestApp({ env: { DNS_PORT: String(port), RRL_RATE: '0' } });
  });
  afterAll(async () => t?.close());

  const ask = async (name: string): Promise<string | undefined> => {
    const q = dnsPacket.encode({ type: 'query', id: 9, questions: [{ type: 'A', name }] });
    return (
      (await queryUdp(q, { host: '127.0.0.1', port, timeoutMs: 2_000 })).decoded as { rcode?: string } | null
    )?.rcode;
  };
  const series = async (): Promise<string[]> =>
    ((await t.request('GET', '/metrics')).text as string)
      .split('\n')
      .filter((l) => l.startsWith('dns_lb_answers_total{'));

  it('counts each answer at a load balancer by cascade hit and reason, and those with no pool to answer', async () => {
    const { token } = await t.signUp();
    const zone = (await t.request('POST', ZONES, { token, body: { domain: DOMAIN } })).body;
    const pool = await t.request('POST', `${ZONES}/${zone.id}/pools`, {
      token,
      body: { name: 'web', members: [{ address: '8.8.8.8' }] },
    });
    const lb = await t.request('POST', `${ZONES}/${zone.id}/load-balancers`, {
      token,
      body: { hostname: 'www', default_pools: [pool.body.id] },
    });
    expect(lb.status).toBe(201);
    // The zone reaches the DNS role through the bus: wait for the first steered answer.
    for (let i = 0; i < 100 && (await ask(`www.${DOMAIN}`)) !== 'NOERROR'; i++)
      await new Promise((r) => setTimeout(r, 50));
    const before = await series();
    const okLine = (n: number) =>
      `dns_lb_answers_total{zone="${DOMAIN}",lb="www.${DOMAIN}",cascade_hit="default",reason="ok"} ${n}`;
    const first = Number(
      before
        .find((l) => l.includes('reason="ok"'))
        ?.split(' ')
        .at(-1),
    );
    expect(first).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 3; i++) expect(await ask(`www.${DOMAIN}`)).toBe('NOERROR');
    expect(await series()).toContain(okLine(first + 3));

    // Its only pool disabled: nothing to answer from (reason no_members, no cascade stage).
    await t.request('PATCH', `${ZONES}/${zone.id}/pools/${pool.body.id}`, {
      token,
      body: { enabled: false },
    });
    const disabled = `dns_lb_answers_total{zone="${DOMAIN}",lb="www.${DOMAIN}",cascade_hit="none",reason="no_members"}`;
    for (let i = 0; i < 100 && !(await series()).some((l) => l.startsWith(disabled)); i++) {
      await ask(`www.${DOMAIN}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const n = Number(
      (await series())
        .find((l) => l.startsWith(disabled))!
        .split(' ')
        .at(-1),
    );
    await ask(`www.${DOMAIN}`);
    await ask(`www.${DOMAIN}`);
    expect(await series()).toContain(`${disabled} ${n + 2}`);
    // The earlier answers stay counted (a counter never goes back).
    expect((await series()).some((l) => l.startsWith(okLine(0).slice(0, -2)))).toBe(true);
  });
});
