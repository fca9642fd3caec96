import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningNode } from '../../src/apps/node.ts';
import { ORGS, createOrg } from '../../src/testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

const shared = process.env.DATABASE_URL !== undefined && process.env.REDIS_URL !== undefined;

/** Two API processes on one PostgreSQL and Redis: what one does to a key, the other sees. */
describe.skipIf(!shared)('organization keys across two API processes', () => {
  let t: TestApp;
  let peer: RunningNode;
  let token: string;
  beforeAll(async () => {
    // Loopback exempt from the per-IP limits: this test sends 4,000 requests from one address.
    t = await startTestApp({ env: { ROLE: 'api', LIMITS_EXEMPT: '127.0.0.0/8,::1' } });
    peer = await t.startPeer({ ROLE: 'api' });
    ({ token } = await t.signUp());
    await createOrg(t, token, 'two-proc');
    await t.request('PATCH', `${ORGS}/two-proc/settings`, { token, body: { commerce_enabled: true } });
  }, 60_000);
  afterAll(async () => {
    await peer?.stop();
    await t?.close();
  });

  const viaPeer = (path: string, key: string) =>
    fetch(`${peer.apiUrl}${ORGS}/two-proc/commerce/${path}`, { headers: { 'X-API-Key': key } }).then(
      (r) => r.status,
    );
  const viaFirst = (path: string, key: string) =>
    t
      .request('GET', `${ORGS}/two-proc/commerce/${path}`, { headers: { 'X-API-Key': key } })
      .then((r) => r.status);

  it('refuses a key revoked on one process on the other within 10 s', async () => {
    const key = (
      await t.request('POST', `${ORGS}/two-proc/api-keys`, {
        token,
        body: { label: 'k', permissions: { scopes: ['commerce:*'] } },
      })
    ).body;
    expect(await viaPeer('orders', key.raw_key)).toBe(200); // the peer now holds it in memory
    const revokedAt = Date.now();
    await t.request('DELETE', `${ORGS}/two-proc/api-keys/${key.id}`, { token });
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 10_000) {
      status = await viaPeer('orders', key.raw_key);
      if (status === 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(10_000);
  });

  it('counts the hourly limit across processes: 4,000 pass, the 4,001st answers 429', async () => {
    const key = (
      await t.request('POST', `${ORGS}/two-proc/api-keys`, {
        token,
        body: { label: 'busy', permissions: { scopes: ['commerce:*'] } },
      })
    ).body;
    const statuses: number[] = [];
    for (let sent = 0; sent < 4000; sent += 100) {
      const batch = Array.from({ length: 100 }, (_, i) =>
        ((sent + i) % 2 === 0 ? viaFirst : viaPeer)('events', key.raw_key),
      );
      statuses.push(...(await Promise.all(batch)));
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(await viaPeer('events', key.raw_key)).toBe(429);
    const res = await t.request('GET', `${ORGS}/two-proc/commerce/events`, {
      headers: { 'X-API-Key': key.raw_key },
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3600');
  }, 120_000);
});
