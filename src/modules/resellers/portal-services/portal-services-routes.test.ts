/**
 * The organization's portal over real HTTP (embedded database or PostgreSQL): a storefront
 * customer orders free and priced plans (held by the organization's owner, named for the
 * customer; `order.created` at a real webhook receiver), retries with an Idempotency-Key, pages
 * through their services, never sees another customer's, and reads eventually or strongly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../../kernel/runtime/runtime.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { ORGS, addMember, createOrg, storefrontCustomer } from '../../../testing/org-fixture.ts';
import { startHttpsReceiver, type HttpsReceiver } from '../../../testing/https-receiver.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import type { WebhooksModule } from '../../webhooks/index.ts';

const DNS_FREE = { product_id: 1, pricing_id: 1 };
const DNS_PRICED = { product_id: 2, pricing_id: 2 };
const T0 = Date.UTC(2026, 10, 29, 9);

type Customer = { id: number; token: string };
type Service = {
  id: number;
  status: string;
  org_id: number;
  customer_id: number;
  invoice_id?: number | null;
};

describe('the portal: a storefront customer orders and reads services the organization holds for them', () => {
  const clock = new ManualClock(T0);
  let receiver: HttpsReceiver;
  let t: TestApp;
  let engine: WebhooksModule['engine'];
  let owner: { token: string; email: string };
  let member: { token: string; email: string };
  let orgId: number;
  let ownerUserId: number;
  let ann: Customer;
  let bob: Customer;
  let carl: Customer;
  let customers = 0;
  const portal = (slug = 'portal') => `${ORGS}/${slug}/portal/services`;
  const newCustomer = (slug = 'portal') => storefrontCustomer(t, slug, `c${++customers}@example.com`);
  const order = (c: Customer, body: unknown, headers?: Record<string, string>) =>
    t.request('POST', `${portal()}/order`, { token: c.token, body, ...(headers ? { headers } : {}) });
  const ordered = async (c: Customer, body: unknown): Promise<Service> => {
    const res = await order(c, body);
    expect(res.status, res.text).toBe(201);
    return res.body as Service;
  };
  const list = async (c: Customer, query = '') => {
    const res = await t.request('GET', `${portal()}${query}`, { token: c.token });
    expect(res.status, res.text).toBe(200);
    return (res.body as Service[]).map((s) => s.id);
  };
  const db = () =>
    tablesOf<{
      services: { id: number; user_id: number };
      events: { id: number; name: string; org_id: number; payload: unknown };
    }>(t.node.runtime);

  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    t = await startTestApp({
      clock,
      env: {
        OUTBOUND_ALLOW_PRIVATE_TARGETS: 'true',
        OUTBOUND_CA_FILE: receiver.caFile,
        // The paging test orders 200-odd services on a clock that stands still: past the proxy's burst.
        LIMITS_EXEMPT: '127.0.0.0/8,::1',
      },
    });
    engine = (t.node.modules.find((m) => m.name === 'webhooks') as WebhooksModule).engine;
    await engine.stop(); // one delivery round per step, driven by the test
    owner = await t.signUp();
    member = await t.signUp();
    orgId = (await createOrg(t, owner.token, 'portal')).id;
    await createOrg(t, owner.token, 'portal-other');
    await addMember(t, owner.token, 'portal', member.email, 'member');
    const members = await t.request('GET', `${ORGS}/portal/members`, { token: owner.token });
    ownerUserId = (members.body as { user_id: number; role: string }[]).find(
      (m) => m.role === 'owner',
    )!.user_id;
    const hook = await t.request('POST', `${ORGS}/portal/webhooks`, {
      token: owner.token,
      body: { url: `${receiver.url}/in`, events: ['order.created'] },
    });
    expect(hook.status, hook.text).toBe(201);
    ann = await newCustomer();
    bob = await newCustomer();
    carl = await newCustomer('portal-other');
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('orders a free and a priced plan: held by the owner for the customer; order.created at the webhook', async () => {
    const free = await ordered(ann, { ...DNS_FREE, label: 'Ann DNS' });
    expect(free).toMatchObject({
      status: 'active',
      label: 'Ann DNS',
      org_id: orgId,
      customer_id: ann.id,
      invoice_id: null,
    });
    const priced = await ordered(ann, DNS_PRICED);
    expect(priced).toMatchObject({ status: 'pending', org_id: orgId, customer_id: ann.id });
    expect(priced.invoice_id).toEqual(expect.any(Number));
    const line = await tablesOf<{ billing_invoice_lines: { invoice_id: number; service_id: number } }>(
      t.node.runtime,
    )
      .selectFrom('billing_invoice_lines')
      .select('invoice_id')
      .where('service_id', '=', priced.id)
      .execute();
    expect(line.map((l) => Number(l.invoice_id))).toContain(priced.invoice_id);
    const holders = await db()
      .selectFrom('services')
      .select(['id', 'user_id'])
      .where('id', 'in', [free.id, priced.id])
      .execute();
    expect(holders.map((h) => Number(h.user_id))).toEqual([ownerUserId, ownerUserId]);

    await engine.runOnce();
    const heard = receiver.requests.map((r) => JSON.parse(r.body) as { event: string; data: unknown });
    expect(heard.map((e) => e.event)).toEqual(['order.created', 'order.created']);
    // The customer's own order is not a member's: no `service.ordered` is recorded for it.
    const memberOrders = await db()
      .selectFrom('events')
      .select('name')
      .where('org_id', '=', orgId)
      .where('name', '=', 'service.ordered')
      .execute();
    expect(memberOrders).toEqual([]);
    expect(heard.map((e) => e.data)).toEqual([
      { service_id: free.id, customer_id: ann.id, product_id: 1, invoice_id: null },
      { service_id: priced.id, customer_id: ann.id, product_id: 2, invoice_id: priced.invoice_id },
    ]);

    // Every member sees the organization's services, each naming its customer.
    const seen = await t.request('GET', '/api/v1/services/', { token: member.token });
    const mine = (seen.body as Service[]).filter((s) => s.id === free.id || s.id === priced.id);
    expect(mine.map((s) => [s.id, s.org_id, s.customer_id])).toEqual([
      [priced.id, orgId, ann.id],
      [free.id, orgId, ann.id],
    ]);
  });

  it('refuses a body outside the order, an unknown plan, and tokens of another realm or organization', async () => {
    const extra = await order(ann, { ...DNS_FREE, org_slug: 'portal' });
    expect(extra.status).toBe(422);
    const forCustomer = await order(ann, { ...DNS_FREE, customer_id: bob.id });
    expect(forCustomer.status).toBe(422);
    expect((await order(ann, { product_id: 999, pricing_id: 1 })).status).toBe(404);
    const member_ = await t.request('POST', `${portal()}/order`, { token: owner.token, body: DNS_FREE });
    expect(member_.status).toBe(401);
    const otherOrg = await t.request('POST', `${portal()}/order`, { token: carl.token, body: DNS_FREE });
    expect(otherOrg.status).toBe(401);
    expect((await t.request('GET', portal(), { token: carl.token })).status).toBe(401);
    expect((await t.request('GET', portal('portal-other'), { token: ann.token })).status).toBe(401);
    expect((await t.request('GET', portal())).status).toBe(401);
  });

  it('the same Idempotency-Key twice is one service; another body with it is 409; another customer’s key is theirs', async () => {
    const dora = await newCustomer();
    const key = { 'idempotency-key': 'portal-order-1' };
    const first = await order(dora, DNS_PRICED, key);
    const again = await order(dora, DNS_PRICED, key);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect(await list(dora)).toEqual([first.body.id]);
    expect((await order(dora, DNS_FREE, key)).status).toBe(409);
    const eve = await newCustomer();
    const hers = await order(eve, DNS_PRICED, key);
    expect(hers.status, hers.text).toBe(201);
    expect(hers.body.id).not.toBe(first.body.id);
    expect(await list(dora)).toEqual([first.body.id]);
  });

  it('pages newest first by page/per_page 50/200, ties broken on id; 201 or page 0 is 422; status filters', async () => {
    const fay = await newCustomer();
    clock.advance(60_000);
    const ids: number[] = [];
    for (let i = 0; i < 201; i++) ids.push((await ordered(fay, DNS_PRICED)).id);
    // Ordered at the same instant: newest id first. One ordered "earlier" (an older created_at,
    // a higher id) comes last.
    clock.set(T0);
    const older = (await ordered(fay, DNS_FREE)).id;
    clock.set(T0 + 60_000);
    const newestFirst = [...ids].reverse();
    expect(await list(fay)).toEqual(newestFirst.slice(0, 50));
    expect(await list(fay, '?page=2')).toEqual(newestFirst.slice(50, 100));
    expect(await list(fay, '?per_page=200')).toEqual(newestFirst.slice(0, 200));
    expect(await list(fay, '?per_page=200&page=2')).toEqual([newestFirst[200], older]);
    expect(await list(fay, '?per_page=3&page=68')).toEqual([older]);
    expect(await list(fay, '?status=active')).toEqual([older]);
    expect(await list(fay, '?status=terminated')).toEqual([]);
    for (const q of ['per_page=201', 'per_page=0', 'page=0', 'status=bogus', 'consistency=maybe']) {
      const res = await t.request('GET', `${portal()}?${q}`, { token: fay.token });
      expect(res.status, q).toBe(422);
    }
  });

  it('never shows another customer’s service: absent from the list, 404 on read', async () => {
    const anns = await ordered(ann, DNS_FREE);
    const bobs = await ordered(bob, DNS_FREE);
    const read = (c: Customer, id: number) => t.request('GET', `${portal()}/${id}`, { token: c.token });
    const own = await read(ann, anns.id);
    expect([own.status, own.body.id, own.body.customer_id]).toEqual([200, anns.id, ann.id]);
    const cross = await read(bob, anns.id);
    expect([cross.status, cross.body]).toEqual([404, { detail: 'Service not found' }]);
    expect(await list(bob)).toEqual([bobs.id]);
    expect(await list(ann)).not.toContain(bobs.id);
    // The organization's own service (no customer) is no customer's.
    const orgs = await t.request('POST', '/api/v1/services/order', {
      token: owner.token,
      body: { ...DNS_FREE, org_slug: 'portal' },
    });
    expect((await read(ann, orgs.body.id)).status).toBe(404);
    expect((await read(carl, anns.id)).status).toBe(401);
  });

  it('an eventual read may answer a few seconds old; a strong read always reads the database', async () => {
    const gil = await newCustomer();
    expect(await list(gil, '?consistency=eventual')).toEqual([]);
    const svc = await ordered(gil, DNS_FREE);
    expect(await list(gil, '?consistency=eventual')).toEqual([]);
    expect(await list(gil, '?consistency=strong')).toEqual([svc.id]);
    expect(await list(gil)).toEqual([svc.id]);
    const svc2 = await ordered(gil, DNS_FREE);
    // The strong read refreshed what an eventual one may answer; the new order is not in it yet.
    expect(await list(gil, '?consistency=eventual')).toEqual([svc.id]);
    clock.advance(5_000);
    expect(await list(gil, '?consistency=eventual')).toEqual([svc2.id, svc.id]);
  });

  it('free plans count against each customer’s own storefront.free_order budget', async () => {
    const hal = await newCustomer();
    const ivy = await newCustomer();
    for (let i = 0; i < 12; i++) await ordered(hal, DNS_FREE);
    const over = await order(hal, DNS_FREE);
    expect(over.status).toBe(429);
    expect(over.body.detail).toMatchObject({ action: 'storefront.free_order' });
    expect((await order(hal, DNS_PRICED)).status).toBe(201);
    expect((await order(ivy, DNS_FREE)).status).toBe(201);
  });

  it('suspending a customer’s service names the customer in service.suspended and service.unsuspended', async () => {
    const svc = await ordered(ann, DNS_FREE);
    for (const step of ['suspend', 'unsuspend']) {
      const res = await t.request('POST', `${ORGS}/portal/services/${svc.id}/${step}`, {
        token: owner.token,
        body: {},
      });
      expect(res.status, res.text).toBe(200);
    }
    const sent = await db()
      .selectFrom('events')
      .select(['name', 'payload'])
      .where('org_id', '=', orgId)
      .where('name', 'in', ['service.suspended', 'service.unsuspended'])
      .orderBy('id')
      .execute();
    const payloads = sent.map((e) => ({
      name: e.name,
      data: typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload,
    }));
    expect(payloads).toEqual([
      { name: 'service.suspended', data: { service_id: svc.id, customer_id: ann.id } },
      { name: 'service.unsuspended', data: { service_id: svc.id, customer_id: ann.id } },
    ]);
  });
});
