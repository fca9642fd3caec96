import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../../kernel/runtime/runtime.ts';
import { startHttpsReceiver, type HttpsReceiver } from '../../../testing/https-receiver.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { ORGS, createOrg } from '../../../testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import type { WebhooksModule } from '../webhooks-module.ts';
import type { WebhooksTables } from '../webhooks-tables.ts';
import type { DeliveryTarget, TargetKind } from '../webhooks-interfaces.ts';
import { MAIL_POLICY, sortedJson } from './retry-policies.ts';

const MIN = 60_000;

describe('the delivery engine: the mail policy', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 23, 12, 0, 17));
  let receiver: HttpsReceiver;
  let t: TestApp;
  let engine: WebhooksModule['engine'];
  const target: DeliveryTarget & { failures: number; disabledAt: number | null } = {
    url: '',
    secret: 'mail-secret-as-text',
    active: true,
    failures: 0,
    disabledAt: null,
  };
  const kind: TargetKind = {
    kind: 'test_mail_webhook',
    policy: MAIL_POLICY,
    find: async () => target,
    recordSuccess: async () => {
      target.failures = 0;
    },
    recordFailure: async () => ++target.failures,
    disable: async (_id, at) => {
      target.disabledAt = at.getTime();
      Object.assign(target, { active: false });
    },
  };
  let nextEvent = 1000;
  const enqueue = (fields: Record<string, unknown>) =>
    engine.enqueue([
      {
        kind: kind.kind,
        targetId: 1,
        eventId: ++nextEvent,
        eventName: String(fields.event),
        body: sortedJson({ id: nextEvent, ...fields }),
      },
    ]);

  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    t = await startTestApp({
      clock,
      env: { OUTBOUND_ALLOW_PRIVATE_TARGETS: 'true', OUTBOUND_CA_FILE: receiver.caFile },
    });
    engine = (t.node.modules.find((m) => m.name === 'webhooks') as WebhooksModule).engine;
    await engine.stop();
    engine.registerTarget(kind);
    Object.assign(target, { url: `${receiver.url}/mail` });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });
  beforeEach(() => {
    receiver.requests.length = 0;
  });

  it('sends compact JSON with keys in alphabetical order, X-Mail-Event and X-Mail-Signature (HMAC of the raw body, secret as text)', async () => {
    receiver.respond = () => ({ status: 200 });
    await enqueue({
      event: 'delivered',
      type: 'delivery.dsn-success',
      to: 'a@example.com',
      from: 'b@example.com',
      queue_id: 'Q1',
      message_id: '<m@x>',
      response: '250 ok',
      occurred_at: '2026-11-23T12:00:17',
    });
    clock.advance(MIN);
    await engine.runOnce();
    expect(receiver.requests).toHaveLength(1);
    const req = receiver.requests[0]!;
    expect(req.body).toBe(
      `{"event":"delivered","from":"b@example.com","id":${nextEvent},"message_id":"<m@x>","occurred_at":"2026-11-23T12:00:17","queue_id":"Q1","response":"250 ok","to":"a@example.com","type":"delivery.dsn-success"}`,
    );
    expect(req.headers['x-mail-event']).toBe('delivered');
    expect(req.headers['x-mail-signature']).toBe(
      createHmac('sha256', Buffer.from(target.secret, 'utf8')).update(req.body).digest('hex'),
    );
    expect(req.headers['content-type']).toBe('application/json');
  });

  it('makes six attempts about 2, 4, 8, 16 and 32 minutes apart, on whole minutes, then no more', async () => {
    receiver.respond = () => ({ status: 500 });
    target.failures = 0;
    await enqueue({ event: 'bounced', type: 'delivery.failed' });
    const start = clock.now();
    // The first attempt waits for the next whole minute (sent about once a minute).
    await engine.runOnce();
    expect(receiver.requests).toHaveLength(0);
    const attempts: number[] = [];
    for (let step = 0; step < 80; step++) {
      clock.advance(MIN);
      await engine.runOnce();
      if (receiver.requests.length > attempts.length) attempts.push(clock.now());
    }
    expect(attempts).toHaveLength(6);
    for (const at of attempts) expect(at % MIN).toBe(start % MIN);
    const gaps = attempts.slice(1).map((at, i) => Math.round((at - attempts[i]!) / MIN));
    expect(gaps).toEqual([2, 4, 8, 16, 32]);
    expect(target.disabledAt).toBeNull();
  });

  it('disables the target after 50 failed attempts in a row, any event, and drops what waits', async () => {
    receiver.respond = () => ({ status: 503 });
    target.failures = 0;
    for (let i = 0; i < 12; i++) await enqueue({ event: 'deferred', type: 'queue.rate-limit-exceeded' });
    for (let step = 0; step < 80 && target.disabledAt === null; step++) {
      clock.advance(MIN);
      await engine.runOnce();
    }
    expect(target.disabledAt).not.toBeNull();
    expect(target.failures).toBe(50);
    expect(receiver.requests).toHaveLength(50);
    const waiting = await tablesOf<WebhooksTables>(t.node.runtime)
      .selectFrom('webhooks_deliveries')
      .select('status')
      .where('target_kind', '=', kind.kind)
      .where('status', '=', 'pending')
      .execute();
    expect(waiting).toEqual([]);
    clock.advance(60 * MIN);
    await engine.runOnce();
    expect(receiver.requests).toHaveLength(50);
  });
});

describe('the delivery engine: the outbound guard on', () => {
  let receiver: HttpsReceiver;
  let t: TestApp;
  /** What each name resolves to (the app's resolver): a test moves a name between creation and delivery. */
  const names = new Map<string, string[]>();
  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    t = await startTestApp({
      env: { OUTBOUND_CA_FILE: receiver.caFile },
      resolve: async (host) => {
        const found = names.get(host);
        if (found === undefined)
          throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
        return found;
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('refuses at creation a URL whose host is, or resolves now to, a private or reserved address: 422 naming body.url', async () => {
    const { token } = await t.signUp();
    await createOrg(t, token, 'refused');
    names.set('localhost', ['127.0.0.1', '::1']);
    names.set('inside.example', ['10.1.2.3']);
    names.set('half-inside.example', ['93.184.215.14', '192.168.1.7']);
    names.set('public.example', ['93.184.215.14']);
    for (const url of [
      `${receiver.url}/in`,
      `https://localhost:${receiver.port}/in`,
      'https://[::1]/in',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/in',
      'https://0.0.0.0/in',
      'https://inside.example/in',
      'https://half-inside.example/in',
    ]) {
      const res = await t.request('POST', `${ORGS}/refused/webhooks`, {
        token,
        body: { url, events: ['*'] },
      });
      expect(res.status, url).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'url'], input: url });
      expect(res.body.detail[0].msg, url).toMatch(/private or reserved address/);
    }
    // A public address is taken; so is a name that does not resolve yet (it is judged again at delivery).
    const ok = await t.request('POST', `${ORGS}/refused/webhooks`, {
      token,
      body: { url: 'https://public.example/in', events: ['*'] },
    });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body).toMatchObject({ last_error: null, last_error_at: null });
    const later = await t.request('POST', `${ORGS}/refused/webhooks`, {
      token,
      body: { url: 'https://not-yet.example/in', events: ['*'] },
    });
    expect(later.status, later.text).toBe(201);
    // Changing the URL to a private address is refused the same way.
    const patched = await t.request('PATCH', `${ORGS}/refused/webhooks/${ok.body.id}`, {
      token,
      body: { url: 'https://inside.example/in' },
    });
    expect(patched.status).toBe(422);
    expect(patched.body.detail[0].loc).toEqual(['body', 'url']);
    const hooks = (await t.request('GET', `${ORGS}/refused/webhooks`, { token })).body;
    expect(hooks.map((h: { url: string }) => h.url)).toEqual([
      'https://public.example/in',
      'https://not-yet.example/in',
    ]);
  });

  it('still refuses at delivery a name that moved to a loopback address after creation, and the webhook shows why', async () => {
    const { token } = await t.signUp();
    await createOrg(t, token, 'guarded');
    const engine = (t.node.modules.find((m) => m.name === 'webhooks') as WebhooksModule).engine;
    await engine.stop();
    names.set('moving.example', ['93.184.215.14']);
    const created = await t.request('POST', `${ORGS}/guarded/webhooks`, {
      token,
      body: { url: `https://moving.example:${receiver.port}/in`, events: ['*'] },
    });
    expect(created.status, created.text).toBe(201);
    names.set('moving.example', ['127.0.0.1']);
    await t.request('POST', `${ORGS}/guarded/auth/register`, {
      body: { email: 'guard@example.com', password: 'a long password' },
    });
    await engine.runOnce();
    expect(receiver.requests).toHaveLength(0);
    const rows = await tablesOf<WebhooksTables>(t.node.runtime)
      .selectFrom('webhooks_deliveries')
      .select(['last_error', 'attempts'])
      .where('target_id', '=', created.body.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.attempts).toBe(1);
    expect(rows[0]!.last_error).toMatch(/^forbidden_address/);
    const [hook] = (await t.request('GET', `${ORGS}/guarded/webhooks`, { token })).body;
    expect(hook).toMatchObject({
      failure_count: 1,
      last_error: 'forbidden_address: moving.example is a private or reserved address',
      last_error_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });
});
