/**
 * The services registry over real HTTP (embedded database or PostgreSQL): ordering the free DNS
 * hosting plan through its provisioner, what cannot be ordered and why, zones of a service within
 * its max_zones, the list's filters and paging, cancelling, events, another tenant's service,
 * organization services, and the storefront.free_order budget.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../kernel/runtime/runtime.ts';
import { addMember, createOrg, storefrontCustomer } from '../../testing/org-fixture.ts';
import type { ServicesModule } from './index.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

const DNS_FREE = { product_id: 1, pricing_id: 1 };
const SERVICES = '/api/v1/services';

describe('services registry', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let domains = 0;
  beforeAll(async () => {
    t = await startTestApp({ env: { ROLE: 'api' } });
    alice = (await t.signUp()).token;
    bob = (await t.signUp()).token;
  });
  afterAll(async () => t?.close());

  const order = (token: string, body: unknown) => t.request('POST', `${SERVICES}/order`, { token, body });
  const get = (token: string, path: string) => t.request('GET', `${SERVICES}${path}`, { token });
  const zone = (token: string, service_id?: number) =>
    t.request('POST', '/api/v1/dns/zones', {
      token,
      body: {
        domain: `svc${++domains}-${Date.now().toString(36)}.example`,
        ...(service_id ? { service_id } : {}),
      },
    });

  it('orders the free DNS hosting plan: active through its provisioner, with its events', async () => {
    const res = await order(alice, { ...DNS_FREE, label: 'My DNS' });
    expect(res.status, res.text).toBe(201);
    const { invoice_id, ...view } = res.body;
    expect(invoice_id).toBeNull();
    expect(view).toEqual({
      id: expect.any(Number),
      service_id: res.body.id,
      ref: `svc_${res.body.id}`,
      label: 'My DNS',
      status: 'active',
      status_reason: null,
      product_id: 1,
      product_name: 'DNS Hosting Free',
      module_name: 'dns_hosting',
      resource_type: 'dns',
      pricing_id: 1,
      billing_cycle: 'free',
      price: 0,
      currency: 'EUR',
      location_code: null,
      org_id: null,
      customer_id: null,
      config: { max_zones: 3 },
      created_at: expect.any(String),
      updated_at: expect.any(String),
      next_due_date: null,
      activated_at: expect.any(String),
      terminated_at: null,
    });
    expect((await get(alice, `/svc_${res.body.id}`)).body).toEqual(view);
    expect((await get(alice, `/${res.body.id}`)).body.id).toBe(res.body.id);
    const events = (await get(alice, `/svc_${res.body.id}/events`)).body;
    expect(events.map((e: { type: string }) => e.type)).toEqual(['activated', 'provisioning', 'ordered']);
    expect(events[2]).toEqual({
      id: expect.any(Number),
      type: 'ordered',
      message: 'Ordered DNS Hosting Free (free)',
      created_at: expect.any(String),
    });
  });

  it('orders a priced plan: pending, with an unpaid invoice, provisioned once it is paid', async () => {
    const carol = (await t.signUp()).token;
    const priced = await order(carol, { product_id: 2, pricing_id: 2 });
    expect(priced.status, priced.text).toBe(201);
    expect(priced.body).toMatchObject({ status: 'pending', price: 4, invoice_id: expect.any(Number) });
    const events = (await get(carol, `/${priced.body.id}/events`)).body.map((e: { type: string }) => e.type);
    expect(events).toEqual(['invoiced', 'ordered']);
    const paid = await t.request('POST', `/api/v1/billing/invoices/${priced.body.invoice_id}/pay`, {
      token: carol,
      body: { method: 'card' },
    });
    expect(paid.status, paid.text).toBe(200);
    expect((await get(carol, `/${priced.body.id}`)).body.status).toBe('active');
  });

  it('refuses what cannot be ordered, saying why, and creates nothing', async () => {
    const before = (await get(alice, '/')).body.length;
    const tooMany = await order(alice, { ...DNS_FREE, config: { max_zones: 9, colour: 'red' } });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual([
      'body.config.colour',
      'body.config.max_zones',
    ]);
    const wrongPrice = await order(alice, { product_id: 1, pricing_id: 2 });
    expect([wrongPrice.status, wrongPrice.body.detail[0].loc]).toEqual([422, ['body', 'pricing_id']]);
    for (const product_id of [14, 999]) {
      const gone = await order(alice, { product_id, pricing_id: 20 });
      expect([gone.status, gone.body]).toEqual([404, { detail: 'Product not found' }]);
    }
    // Containers have no provisioner yet, object storage no gateway here: the order's 409 says what
    // the catalogue says.
    for (const [product_id, pricing_id, reason] of [
      [20, 21, 'not_provisioned_yet'],
      [40, 24, 'not_configured'],
    ] as const) {
      const refused = await order(alice, { product_id, pricing_id });
      expect([refused.status, refused.body]).toEqual([
        409,
        { detail: `Product cannot be ordered now: ${reason}` },
      ]);
      expect((await t.request('GET', `/api/v1/products/${product_id}`)).body).toMatchObject({
        is_orderable_now: false,
        availability_reason: reason,
      });
    }
    expect((await order(alice, { product_id: 1 })).status).toBe(422);
    expect((await get(alice, '/')).body.length).toBe(before);
  });

  it('holds at most max_zones zones of the service; another account cannot use it', async () => {
    const svc = (await order(alice, { ...DNS_FREE, config: { max_zones: 2 } })).body;
    for (let i = 0; i < 2; i++) {
      const z = await zone(alice, svc.id);
      expect(z.status, z.text).toBe(201);
      expect(z.body.service_id).toBe(svc.id);
    }
    const third = await zone(alice, svc.id);
    expect([third.status, third.body]).toEqual([403, { detail: 'Zone limit reached (2)' }]);
    const notBobs = await zone(bob, svc.id);
    expect([notBobs.status, notBobs.body]).toEqual([404, { detail: 'Service not found' }]);
    // Cancelled (a free plan ends at once): the zones stay, counted against no service.
    const cancelled = await t.request('POST', `${SERVICES}/svc_${svc.id}/cancel`, { token: alice });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'terminated', terminated_at: expect.any(String) });
    const types = (await get(alice, `/${svc.id}/events`)).body.map((e: { type: string }) => e.type);
    expect(types.slice(0, 2)).toEqual(['terminated', 'cancel_requested']);
    const zones = (await t.request('GET', '/api/v1/dns/zones', { token: alice })).body;
    expect(zones.filter((z: { service_id: number | null }) => z.service_id === svc.id)).toEqual([]);
    const again = await t.request('POST', `${SERVICES}/${svc.id}/cancel`, { token: alice });
    expect([again.status, again.body]).toEqual([409, { detail: 'Service is already cancelled' }]);
    const inactive = await zone(alice, svc.id);
    expect([inactive.status, inactive.body]).toEqual([409, { detail: 'Service is not active' }]);
  });

  it('lists newest first, filters by status and resource_type (else 422), pages by limit/offset', async () => {
    const all = (await get(alice, '/')).body;
    expect(all.length).toBeGreaterThanOrEqual(2);
    const ids = all.map((s: { id: number }) => s.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const status = async (s: string) =>
      (await get(alice, `/?status=${s}`)).body.map((x: { status: string }) => x.status);
    expect(new Set(await status('active'))).toEqual(new Set(['active']));
    expect(new Set(await status('terminated'))).toEqual(new Set(['terminated']));
    for (const s of ['pending', 'provisioning', 'suspended', 'pending_termination', 'failed', 'bogus'])
      expect(await status(s)).toEqual([]);
    for (const word of ['vps', 'cloud_compute', 'container', 'ip', 'floating_ip', 'mail', 'smtp_relay']) {
      const res = await get(alice, `/?resource_type=${word}`);
      expect([res.status, res.body]).toEqual([200, []]);
    }
    const bad = await get(alice, '/?resource_type=dns');
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      error: 'invalid_resource_type',
      allowed: ['vps', 'cloud_compute', 'container', 'ip', 'floating_ip', 'mail', 'smtp_relay'],
    });
    expect((await get(alice, '/?whatever=1')).body.length).toBe(all.length);
    expect((await get(alice, '/?limit=500')).status).toBe(200);
    for (const q of ['limit=501', 'limit=0', 'offset=-1'])
      expect((await get(alice, `/?${q}`)).status).toBe(422);
    expect((await get(alice, '/?limit=1&offset=1')).body.map((s: { id: number }) => s.id)).toEqual([ids[1]]);
    const page = await get(alice, `/${ids[0]}/events?page=1&limit=200`);
    expect(page.status).toBe(200);
    expect((await get(alice, `/${ids[0]}/events?limit=201`)).status).toBe(422);
  });

  it("another account's service is a 404 everywhere", async () => {
    const svc = (await order(alice, DNS_FREE)).body;
    for (const path of [`/${svc.id}`, `/svc_${svc.id}`, `/${svc.id}/events`]) {
      const res = await get(bob, path);
      expect([res.status, res.body]).toEqual([404, { detail: 'Service not found' }]);
    }
    const cancel = await t.request('POST', `${SERVICES}/${svc.id}/cancel`, { token: bob });
    expect(cancel.status).toBe(404);
    expect((await get(bob, '/')).body.map((s: { id: number }) => s.id)).not.toContain(svc.id);
    expect((await get(alice, '/svc_x')).status).toBe(404);
  });

  it("organization services: members read, owner and admin order and cancel; the org's outbox hears service.ordered", async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const slug = `svc-org-${Date.now().toString(36)}`;
    await createOrg(t, owner.token, slug);
    await addMember(t, owner.token, slug, member.email, 'member');
    const denied = await order(member.token, { ...DNS_FREE, org_slug: slug });
    expect(denied.status).toBe(403);
    expect((await order(bob, { ...DNS_FREE, org_slug: slug })).status).toBe(404);
    const svc = await order(owner.token, { ...DNS_FREE, org_slug: slug });
    expect(svc.status, svc.text).toBe(201);
    expect(svc.body.org_id).toEqual(expect.any(Number));
    expect((await get(member.token, `/${svc.body.id}`)).status).toBe(200);
    expect(
      (await t.request('POST', `${SERVICES}/${svc.body.id}/cancel`, { token: member.token })).status,
    ).toBe(403);
    const outbox = await tablesOf<{ events: { name: string; org_id: number; payload: unknown } }>(
      t.node.runtime,
    )
      .selectFrom('events')
      .select(['name', 'org_id', 'payload'])
      .where('name', '=', 'service.ordered')
      .where('org_id', '=', svc.body.org_id)
      .execute();
    expect(outbox).toHaveLength(1);
    const payload =
      typeof outbox[0]!.payload === 'string' ? JSON.parse(outbox[0]!.payload) : outbox[0]!.payload;
    expect(payload).toEqual({ service_id: svc.body.id, customer_id: null, product_id: 1 });
  });

  it("ordering and cancelling for an organization (org_slug) are in the organization's audit log", async () => {
    const owner = await t.signUp();
    const admin = await t.signUp();
    const slug = `svc-audit-${Date.now().toString(36)}`;
    await createOrg(t, owner.token, slug);
    const adminUserId = (await addMember(t, owner.token, slug, admin.email, 'admin')).user_id;
    const members = await t.request('GET', `/api/v1/orgs/${slug}/members`, { token: owner.token });
    const ownerUserId = (members.body as { user_id: number; role: string }[]).find(
      (m) => m.role === 'owner',
    )!.user_id;
    const svc = (await order(owner.token, { ...DNS_FREE, org_slug: slug })).body;
    // The account's own service is not the organization's business.
    const own = (await order(owner.token, DNS_FREE)).body;
    expect((await t.request('POST', `${SERVICES}/${svc.id}/cancel`, { token: admin.token })).status).toBe(
      200,
    );
    expect((await t.request('POST', `${SERVICES}/${own.id}/cancel`, { token: owner.token })).status).toBe(
      200,
    );
    const log = await t.request('GET', `/api/v1/orgs/${slug}/audit-log`, { token: owner.token });
    expect(log.status, log.text).toBe(200);
    const services = (log.body as { action: string }[]).filter((e) => e.action.startsWith('services.'));
    expect(services).toEqual([
      expect.objectContaining({
        org_id: svc.org_id,
        actor_user_id: adminUserId,
        actor_realm: 'main',
        action: 'services.service.cancel',
        resource_type: 'service',
        resource_id: String(svc.id),
      }),
      expect.objectContaining({
        org_id: svc.org_id,
        actor_user_id: ownerUserId,
        actor_realm: 'main',
        action: 'services.service.order',
        resource_type: 'service',
        resource_id: String(svc.id),
      }),
    ]);
  });

  it('suspension through the lifecycle interface: status, events, audit entry, and the webhooks of its organization', async () => {
    const lifecycle = (t.node.modules.find((m) => m.name === 'services') as ServicesModule).lifecycle;
    const owner = await t.signUp();
    const slug = `svc-susp-${Date.now().toString(36)}`;
    await createOrg(t, owner.token, slug);
    const svc = (await order(owner.token, { ...DNS_FREE, org_slug: slug })).body;
    const staff = { userId: null, realm: 'staff', ip: '192.0.2.9' };
    const suspended = await lifecycle.suspend(svc.id, 'Abuse report 123', staff);
    expect(suspended).toMatchObject({ status: 'suspended', status_reason: 'Abuse report 123' });
    expect((await get(owner.token, `/${svc.id}`)).body.status).toBe('suspended');
    await expect(lifecycle.suspend(svc.id, 'again', staff)).rejects.toThrow('Service is not active');
    const back = await lifecycle.unsuspend(svc.id, staff);
    expect(back).toMatchObject({ status: 'active', status_reason: null });
    const types = (await get(owner.token, `/${svc.id}/events`)).body.map((e: { type: string }) => e.type);
    expect(types.slice(0, 2)).toEqual(['unsuspended', 'suspended']);
    const db = tablesOf<{
      events: { name: string; org_id: number };
      audit_log: { id: number; action: string; resource_id: string; actor_realm: string };
    }>(t.node.runtime);
    const sent = await db
      .selectFrom('events')
      .select('name')
      .where('org_id', '=', svc.org_id)
      .orderBy('name')
      .execute();
    expect(sent.map((e) => e.name)).toEqual(['service.ordered', 'service.suspended', 'service.unsuspended']);
    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'actor_realm'])
      .where('resource_id', '=', String(svc.id))
      .where('action', 'like', 'services.service.%')
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'services.service.order', actor_realm: 'main' },
      { action: 'services.service.suspend', actor_realm: 'staff' },
      { action: 'services.service.unsuspend', actor_realm: 'staff' },
    ]);
  });

  it("owners and admins order for one of the organization's customers: customer_id on the service, service.ordered and the invoice", async () => {
    const owner = await t.signUp();
    const admin = await t.signUp();
    const slug = `svc-cust-${Date.now().toString(36)}`;
    const org = await createOrg(t, owner.token, slug);
    await addMember(t, owner.token, slug, admin.email, 'admin');
    const ann = await storefrontCustomer(t, slug, `ann-${slug}@example.com`);
    const free = await order(admin.token, { ...DNS_FREE, org_slug: slug, customer_id: ann.id });
    expect(free.status, free.text).toBe(201);
    expect(free.body).toMatchObject({
      status: 'active',
      org_id: org.id,
      customer_id: ann.id,
      invoice_id: null,
    });
    const priced = await order(owner.token, {
      product_id: 2,
      pricing_id: 2,
      org_slug: slug,
      customer_id: ann.id,
    });
    expect(priced.status, priced.text).toBe(201);
    expect(priced.body).toMatchObject({ status: 'pending', org_id: org.id, customer_id: ann.id });
    const db = tablesOf<{
      events: { id: number; name: string; org_id: number; payload: unknown };
      services: { id: number; user_id: number };
      billing_invoice_lines: { invoice_id: number; service_id: number };
    }>(t.node.runtime);
    const line = await db
      .selectFrom('billing_invoice_lines')
      .select('invoice_id')
      .where('service_id', '=', priced.body.id)
      .executeTakeFirst();
    expect(Number(line?.invoice_id)).toBe(priced.body.invoice_id);
    // The ordering member's account holds it.
    const holder = await db
      .selectFrom('services')
      .select('user_id')
      .where('id', '=', free.body.id)
      .executeTakeFirst();
    const members = await t.request('GET', `/api/v1/orgs/${slug}/members`, { token: owner.token });
    const adminMember = (members.body as { user_id: number; role: string }[]).find(
      (m) => m.role === 'admin',
    )!;
    expect(Number(holder?.user_id)).toBe(adminMember.user_id);
    const outbox = await db
      .selectFrom('events')
      .select('payload')
      .where('name', '=', 'service.ordered')
      .where('org_id', '=', org.id)
      .orderBy('id')
      .execute();
    const payloads = outbox.map((e) => (typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload));
    expect(payloads).toEqual([
      { service_id: free.body.id, customer_id: ann.id, product_id: 1 },
      { service_id: priced.body.id, customer_id: ann.id, product_id: 2 },
    ]);
  });

  it('customer_id needs org_slug and a customer of that organization (422 naming it), a plain member is 403; nothing is made', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const slug = `svc-c422-${Date.now().toString(36)}`;
    await createOrg(t, owner.token, slug);
    await createOrg(t, owner.token, `${slug}-b`);
    await addMember(t, owner.token, slug, member.email, 'member');
    const ann = await storefrontCustomer(t, slug, `ann-${slug}@example.com`);
    const stranger = await storefrontCustomer(t, `${slug}-b`, `bo-${slug}@example.com`);
    const before = (await get(owner.token, '/')).body.length;
    const refused = async (body: Record<string, unknown>) => {
      const res = await order(owner.token, { ...DNS_FREE, ...body });
      expect(res.status, res.text).toBe(422);
      expect(res.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual(['body.customer_id']);
      return res.body.detail[0].msg as string;
    };
    expect(await refused({ customer_id: ann.id })).toBe('Needs org_slug, the customer’s organization');
    expect(await refused({ org_slug: slug, customer_id: stranger.id })).toBe(
      'Not a customer of this organization',
    );
    expect(await refused({ org_slug: slug, customer_id: 987654321 })).toBe(
      'Not a customer of this organization',
    );
    expect((await order(owner.token, { ...DNS_FREE, org_slug: slug, customer_id: 0 })).status).toBe(422);
    const plain = await order(member.token, { ...DNS_FREE, org_slug: slug, customer_id: ann.id });
    expect(plain.status).toBe(403);
    expect((await get(owner.token, '/')).body.length).toBe(before);
  });

  it('the 13th free order in 10 minutes answers 429 in the budget shape', async () => {
    const carol = (await t.signUp()).token;
    for (let i = 0; i < 12; i++) expect((await order(carol, DNS_FREE)).status).toBe(201);
    const over = await order(carol, DNS_FREE);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      detail: {
        error: 'rate_limited',
        message: 'Too many requests for this action. Please wait and try again.',
        action: 'storefront.free_order',
        retry_after_seconds: 600,
      },
    });
    expect(over.headers.get('retry-after')).toBe('600');
  });
});
