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
  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    t = await startTestApp({ env: { OUTBOUND_CA_FILE: receiver.caFile } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('refuses a webhook at https://127.0.0.1/ or at a name resolving to loopback: a failure, nothing sent', async () => {
    const { token } = await t.signUp();
    await createOrg(t, token, 'guarded');
    const engine = (t.node.modules.find((m) => m.name === 'webhooks') as WebhooksModule).engine;
    await engine.stop();
    for (const url of [`${receiver.url}/in`, `https://localhost:${receiver.port}/in`]) {
      await t.request('POST', `${ORGS}/guarded/webhooks`, { token, body: { url, events: ['*'] } });
    }
    await t.request('POST', `${ORGS}/guarded/auth/register`, {
      body: { email: 'guard@example.com', password: 'a long password' },
    });
    await engine.runOnce();
    expect(receiver.requests).toHaveLength(0);
    const rows = await tablesOf<WebhooksTables>(t.node.runtime)
      .selectFrom('webhooks_deliveries')
      .select(['last_error', 'attempts'])
      .execute();
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.attempts).toBe(1);
      expect(r.last_error).toMatch(/^forbidden_address/);
    }
    const hooks = (await t.request('GET', `${ORGS}/guarded/webhooks`, { token })).body;
    expect(hooks.map((h: { failure_count: number }) => h.failure_count)).toEqual([1, 1]);
  });
});
