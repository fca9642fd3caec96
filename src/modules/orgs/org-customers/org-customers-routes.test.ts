import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../../kernel/runtime/runtime.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { ORGS, PASSWORD, addMember, createOrg } from '../../../testing/org-fixture.ts';
import { startHttpsReceiver, type HttpsReceiver } from '../../../testing/https-receiver.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import type { WebhooksModule } from '../../webhooks/index.ts';

/** The one column set this test writes: bulk customers for the list's sizes. */
interface CustomerTable {
  identity_customers: { org_id: number; email: string; password_hash: string; created_at: Date };
}

describe('organization customers', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 23, 12));
  let receiver: HttpsReceiver;
  let t: TestApp;
  let engine: WebhooksModule['engine'];
  let owner: { token: string };
  let member: { token: string; email: string };
  let orgId: number;
  const list = (query: string, token = owner.token) =>
    t.request('GET', `${ORGS}/resell/customers${query}`, { token });

  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    t = await startTestApp({
      clock,
      env: { OUTBOUND_ALLOW_PRIVATE_TARGETS: 'true', OUTBOUND_CA_FILE: receiver.caFile },
    });
    engine = (t.node.modules.find((m) => m.name === 'webhooks') as WebhooksModule).engine;
    await engine.stop(); // one delivery round per step, driven by the test
    owner = await t.signUp();
    member = await t.signUp();
    orgId = (await createOrg(t, owner.token, 'resell')).id;
    await addMember(t, owner.token, 'resell', member.email, 'member');
    await createOrg(t, owner.token, 'other');
    // 205 customers made at one instant (ties broken on id), straight into the table: the list's sizes.
    const at = new Date(Date.UTC(2026, 10, 1));
    await tablesOf<CustomerTable>(t.node.runtime)
      .insertInto('identity_customers')
      .values(
        Array.from({ length: 205 }, (_, i) => ({
          org_id: orgId,
          email: `bulk${String(i).padStart(3, '0')}@example.test`,
          password_hash: 'x',
          created_at: at,
        })),
      )
      .execute();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('an admin adds a customer: 201, customer.created on the webhook; a plain member is 403', async () => {
    const hook = await t.request('POST', `${ORGS}/resell/webhooks`, {
      token: owner.token,
      body: { url: `${receiver.url}/in`, events: ['customer.created'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const added = await t.request('POST', `${ORGS}/resell/customers`, {
      token: owner.token,
      body: { email: 'Alice@Example.test', password: PASSWORD },
    });
    expect(added.status, added.text).toBe(201);
    expect(added.body).toEqual({
      id: expect.any(Number),
      email: 'Alice@Example.test',
      created_at: expect.any(String),
    });
    const again = await t.request('POST', `${ORGS}/resell/customers`, {
      token: owner.token,
      body: { email: 'alice@example.test', password: PASSWORD },
    });
    expect(again.status).toBe(409);
    const byMember = await t.request('POST', `${ORGS}/resell/customers`, {
      token: member.token,
      body: { email: 'bob@example.test', password: PASSWORD },
    });
    expect(byMember.status).toBe(403);
    await engine.runOnce();
    const events = receiver.requests.map((r) => JSON.parse(r.body));
    const created = events.find((e) => e.event === 'customer.created' || e.type === 'customer.created');
    expect(created, JSON.stringify(events)).toBeDefined();
    expect(JSON.stringify(created)).toContain(`"customer_id":${added.body.id}`);
    // the new customer signs in to the storefront with the password the admin set
    const login = await t.request('POST', `${ORGS}/resell/auth/login`, {
      body: { email: 'alice@example.test', password: PASSWORD },
    });
    expect(login.status, login.text).toBe(200);

    const one = await t.request('GET', `${ORGS}/resell/customers/${added.body.id}`, { token: member.token });
    expect(one.status).toBe(200);
    expect(one.body.email).toBe('Alice@Example.test');
    const elsewhere = await t.request('GET', `${ORGS}/other/customers/${added.body.id}`, {
      token: owner.token,
    });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.text).toContain('Customer not found');
  });

  it('lists newest first, ties on id; 50 by default, 200 at most, 201 and 0 are 422', async () => {
    const first = await list('', member.token);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(50);
    expect(first.body[0].email).toBe('Alice@Example.test'); // the newest
    const bulk = first.body.slice(1).map((c: { id: number }) => c.id);
    expect(bulk).toEqual([...bulk].sort((a, b) => b - a)); // same instant: newest id first
    expect((await list('?limit=200')).body).toHaveLength(200);
    const over = await list('?limit=201');
    expect([over.status, over.body.detail[0].loc]).toEqual([422, ['query', 'limit']]);
    expect((await list('?limit=0')).status).toBe(422);
    const next = await list('?limit=50&offset=50');
    expect(next.body[0].id).toBe(bulk[48] - 1);
    expect((await list('?offset=1000')).body).toEqual([]);
  });

  it('with_total answers items, total, limit, offset and counts ignoring q; q matches the email', async () => {
    const all = await list('?with_total=true&limit=10&offset=5');
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(['counts', 'items', 'limit', 'offset', 'total']);
    expect(all.body).toMatchObject({ total: 206, limit: 10, offset: 5, counts: { all: 206 } });
    expect(all.body.items).toHaveLength(10);
    const found = await list('?with_total=true&q=BULK19');
    expect(found.body.total).toBe(10);
    expect(found.body.counts).toEqual({ all: 206 });
    expect(found.body.items.every((c: { email: string }) => c.email.startsWith('bulk19'))).toBe(true);
    // LIKE's wildcards are searched as themselves
    expect((await list('?with_total=true&q=%25')).body.total).toBe(0);
    expect((await list('?with_total=true&q=_')).body.total).toBe(0);
    // another organization sees none of them
    const other = await t.request('GET', `${ORGS}/other/customers?with_total=true`, { token: owner.token });
    expect(other.body).toMatchObject({ total: 0, counts: { all: 0 } });
  });
});
