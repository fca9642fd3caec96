import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../../kernel/runtime/runtime.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { ORGS, PASSWORD, addMember, createOrg } from '../../../testing/org-fixture.ts';
import { startHttpsReceiver, type HttpsReceiver } from '../../../testing/https-receiver.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import type { WebhooksModule } from '../webhooks-module.ts';
import type { WebhooksTables } from '../webhooks-tables.ts';
import { webhookSecretContext } from './org-webhooks-service.ts';

const MIN = 60_000;

describe('organization webhooks: routes and deliveries', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 23, 12));
  let receiver: HttpsReceiver;
  let t: TestApp;
  let engine: WebhooksModule['engine'];
  let owner: { token: string; email: string };
  let issuedAt = 0;
  let orgId: number;
  /** The owner's access token, signed in again when the moved clock has expired it. */
  const tok = async (): Promise<string> => {
    if (clock.now() - issuedAt > 10 * MIN) {
      const login = await t.request('POST', '/api/v1/auth/login', {
        body: { email: owner.email, password: PASSWORD },
      });
      owner = { ...owner, token: login.body.access_token };
      issuedAt = clock.now();
    }
    return owner.token;
  };
  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    t = await startTestApp({
      clock,
      env: { OUTBOUND_ALLOW_PRIVATE_TARGETS: 'true', OUTBOUND_CA_FILE: receiver.caFile },
    });
    engine = (t.node.modules.find((m) => m.name === 'webhooks') as WebhooksModule).engine;
    await engine.stop(); // the tests drive it: one round per step, on the manual clock
    owner = await t.signUp();
    issuedAt = clock.now();
    orgId = (await createOrg(t, owner.token, 'hooked')).id;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });
  beforeEach(() => {
    receiver.requests.length = 0;
    receiver.respond = () => ({ status: 200 });
  });

  const hook = async (body: Record<string, unknown>) => {
    const res = await t.request('POST', `${ORGS}/hooked/webhooks`, {
      token: await tok(),
      body: { url: `${receiver.url}/in`, events: ['*'], ...body },
    });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: number };
  };
  const register = (email: string) =>
    t.request('POST', `${ORGS}/hooked/auth/register`, { body: { email, password: 'a long password' } });
  const secretOf = async (id: number): Promise<string> => {
    const row = await tablesOf<WebhooksTables>(t.node.runtime)
      .selectFrom('webhooks')
      .select('secret')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return t.node.runtime.sealer.openText(row.secret, webhookSecretContext(orgId));
  };
  const webhook = async (id: number) =>
    (await t.request('GET', `${ORGS}/hooked/webhooks`, { token: await tok() })).body.find(
      (w: { id: number }) => w.id === id,
    );
  const remove = async (id: number) =>
    t.request('DELETE', `${ORGS}/hooked/webhooks/${id}`, { token: await tok() });

  it('creates, lists, changes and deletes webhooks with their answer fields; never the secret', async () => {
    const created = await t.request('POST', `${ORGS}/hooked/webhooks`, {
      token: await tok(),
      body: {
        url: 'https://hooks.example.net/in',
        events: ['customer.created', 'service.cancelled', 'commerce.order.placed'],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      url: 'https://hooks.example.net/in',
      events: ['customer.created', 'service.cancelled', 'commerce.order.placed'],
      is_active: true,
      failure_count: 0,
      last_triggered_at: null,
      last_error: null,
      last_error_at: null,
      created_at: expect.any(String),
    });
    expect(JSON.stringify(created.body)).not.toMatch(/secret/);
    const id = created.body.id as number;
    const patched = await t.request('PATCH', `${ORGS}/hooked/webhooks/${id}`, {
      token: await tok(),
      body: { events: ['*'], is_active: false },
    });
    expect(patched.body).toMatchObject({ id, events: ['*'], is_active: false });
    for (const body of [
      { url: 'http://hooks.example.net/in', events: ['*'] },
      { url: `https://x.example/${'a'.repeat(1020)}`, events: ['*'] },
      { url: 'https://x.example/', events: [] },
      { url: 'https://x.example/', events: ['customer.deleted'] },
      { url: 'https://x.example/', events: ['*', 'nope'] },
    ]) {
      const res = await t.request('POST', `${ORGS}/hooked/webhooks`, { token: await tok(), body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
    }
    const del = await remove(id);
    expect(del.body).toEqual({ id, deleted: true });
    expect((await remove(id)).body).toEqual({ detail: 'Webhook not found' });
    expect(
      (
        await t.request('PATCH', `${ORGS}/hooked/webhooks/${id}`, {
          token: await tok(),
          body: { is_active: true },
        })
      ).status,
    ).toBe(404);
    // Another organization's webhook, and a member's call.
    const other = await t.signUp();
    await createOrg(t, other.token, 'other-hooks');
    const theirs = (
      await t.request('POST', `${ORGS}/other-hooks/webhooks`, {
        token: other.token,
        body: { url: 'https://x.example/', events: ['*'] },
      })
    ).body;
    expect((await remove(theirs.id)).status).toBe(404);
    const member = await t.signUp();
    await addMember(t, await tok(), 'hooked', member.email, 'member');
    expect((await t.request('GET', `${ORGS}/hooked/webhooks`, { token: member.token })).status).toBe(403);
    expect(
      (
        await t.request('POST', `${ORGS}/hooked/webhooks`, {
          token: member.token,
          body: { url: 'https://x.example/', events: ['*'] },
        })
      ).status,
    ).toBe(403);
  });

  it('delivers customer.created after a storefront registration: the envelope, the headers, a signature that verifies', async () => {
    const w = await hook({ events: ['customer.created'] });
    const star = await hook({ events: ['*'] });
    const elsewhere = await hook({ events: ['invoice.paid'] });
    const reg = await register('first-customer@example.com');
    await engine.runOnce();
    expect(receiver.requests).toHaveLength(2);
    const req = receiver.requests[0]!;
    const body = JSON.parse(req.body);
    expect(body).toEqual({
      id: expect.any(Number),
      event: 'customer.created',
      occurred_at: new Date(clock.now()).toISOString(),
      data: { customer_id: reg.body.id, email: 'first-customer@example.com' },
    });
    expect(req.body).toBe(JSON.stringify(body)); // compact
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-webhook-event']).toBe('customer.created');
    expect(req.headers['x-webhook-id']).toBe(String(body.id));
    const [, t0, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(req.headers['x-webhook-signature']))!;
    const secrets = [await secretOf(w.id), await secretOf(star.id)];
    expect(
      secrets.some((s) => createHmac('sha256', s).update(`${t0}.${req.body}`).digest('hex') === v1),
    ).toBe(true);
    expect(Number(t0)).toBe(Math.floor(clock.now() / 1000));
    expect((await webhook(w.id)).last_triggered_at).toBe(new Date(clock.now()).toISOString());
    for (const id of [w.id, star.id, elsewhere.id]) await remove(id);
  });

  it('retries 1, 5, 30 and 120 minutes after each failure, five attempts in all', async () => {
    const w = await hook({});
    receiver.respond = () => ({ status: 500 });
    await register('retry@example.com');
    const times: number[] = [];
    await engine.runOnce();
    times.push(clock.now());
    for (const gap of [1, 5, 30, 120]) {
      clock.advance(gap * MIN - 1000);
      await engine.runOnce();
      expect(receiver.requests, `not before ${gap} min`).toHaveLength(times.length);
      clock.advance(1000);
      await engine.runOnce();
      expect(receiver.requests).toHaveLength(times.length + 1);
      times.push(clock.now());
    }
    clock.advance(24 * 60 * MIN);
    await engine.runOnce();
    expect(receiver.requests).toHaveLength(5);
    expect(new Set(receiver.requests.map((r) => r.headers['x-webhook-id'])).size).toBe(1);
    expect(await webhook(w.id)).toMatchObject({
      is_active: true,
      failure_count: 5,
      last_error: 'HTTP 500',
      last_error_at: new Date(times[4]!).toISOString(),
    });
    await remove(w.id);
  });

  it('turns a webhook off when a fifth attempt fails with 10 failures in a row; PATCH is_active true resumes it', async () => {
    const w = await hook({});
    receiver.respond = () => ({ status: 503 });
    await register('off-1@example.com');
    await register('off-2@example.com');
    for (let i = 0; i < 5; i++) {
      await engine.runOnce();
      clock.advance(121 * MIN);
    }
    expect(receiver.requests).toHaveLength(10);
    expect(await webhook(w.id)).toMatchObject({ is_active: false, failure_count: 10 });
    // Off: new events are not sent to it.
    await register('off-3@example.com');
    await engine.runOnce();
    expect(receiver.requests).toHaveLength(10);
    receiver.respond = () => ({ status: 204 });
    const on = await t.request('PATCH', `${ORGS}/hooked/webhooks/${w.id}`, {
      token: await tok(),
      body: { is_active: true },
    });
    expect(on.body).toMatchObject({ is_active: true, failure_count: 0 });
    await register('on-again@example.com');
    await engine.runOnce();
    expect(receiver.requests).toHaveLength(11);
    expect(JSON.parse(receiver.requests[10]!.body).data.email).toBe('on-again@example.com');
    expect(await webhook(w.id)).toMatchObject({ is_active: true, failure_count: 0 });
    await remove(w.id);
  });

  it('counts a redirect (never followed), a 500, a refused connection and a timeout as failures', async () => {
    const target = await startHttpsReceiver();
    try {
      const w = await hook({});
      const answers = [{ status: 302, headers: { location: `${target.url}/elsewhere` } }, { status: 500 }];
      let n = 0;
      receiver.respond = () => answers[n++] ?? { status: 200 };
      await register('fail-kinds@example.com');
      await engine.runOnce();
      clock.advance(1 * MIN);
      await engine.runOnce();
      expect(receiver.requests).toHaveLength(2);
      expect(target.requests).toHaveLength(0); // the redirect was not followed
      expect(await webhook(w.id)).toMatchObject({ failure_count: 2 });
      // Refused: point it where nothing listens.
      const closed = await startHttpsReceiver();
      const dead = closed.url;
      await closed.close();
      await t.request('PATCH', `${ORGS}/hooked/webhooks/${w.id}`, {
        token: await tok(),
        body: { url: `${dead}/in` },
      });
      clock.advance(5 * MIN);
      await engine.runOnce();
      expect(await webhook(w.id)).toMatchObject({ failure_count: 3 });
      // A timeout: an answer after 11 s.
      await t.request('PATCH', `${ORGS}/hooked/webhooks/${w.id}`, {
        token: await tok(),
        body: { url: `${receiver.url}/slow` },
      });
      receiver.respond = () => ({ status: 200, delayMs: 11_000 });
      clock.advance(30 * MIN);
      await engine.runOnce();
      expect(await webhook(w.id)).toMatchObject({ failure_count: 4, last_triggered_at: null });
      await remove(w.id);
    } finally {
      await target.close();
    }
  }, 30_000);

  it('stops a deleted webhook’s deliveries at once', async () => {
    const w = await hook({});
    receiver.respond = () => ({ status: 500 });
    await register('deleted-hook@example.com');
    await engine.runOnce();
    await remove(w.id);
    clock.advance(MIN);
    await engine.runOnce();
    expect(receiver.requests).toHaveLength(1);
  });

  it('reports deliveries on /metrics', async () => {
    const metrics = await t.request('GET', '/metrics');
    expect(metrics.text).toMatch(/webhook_deliveries_total\{policy="org",outcome="success"\} \d+/);
    expect(metrics.text).toMatch(/webhook_deliveries_total\{policy="org",outcome="failure"\} \d+/);
    expect(metrics.text).toMatch(/webhook_deliveries_total\{policy="org",outcome="gave_up"\} \d+/);
    expect(metrics.text).toMatch(/webhook_pending \d+/);
    expect(metrics.text).toMatch(/webhook_delivery_duration_seconds_count \d+/);
  });
});
