/**
 * Mail webhooks over real HTTP, delivered by the one delivery engine to a local HTTPS receiver
 * with its own CA, the clock moved by the test: the routes and their limits, and for each
 * recorded event a request with the exact body (compact JSON, keys in alphabetical order,
 * `occurred_at` without zone), a verifiable `X-Mail-Signature`, `X-Mail-Event`; subscriptions,
 * `suppressed` never sent, a webhook hears only later events, failure counts, the 50-failure
 * disable and a delete that drops what waits.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHttpsReceiver, type HttpsReceiver } from '../../../testing/https-receiver.ts';
import { mailModule, orderRelay, RELAY } from '../../../testing/mail-relay-fixture.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import type { WebhooksModule } from '../../webhooks/index.ts';
import type { NewMailEvent } from '../events/mail-event-recorder.ts';

const MIN = 60_000;

describe('mail webhooks', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 24, 10, 0, 17));
  let receiver: HttpsReceiver;
  let t: TestApp;
  let token: string;
  let email: string;
  let signedInAt = 0;
  let serviceId: number;
  let engine: WebhooksModule['engine'];

  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    t = await startTestApp({
      clock,
      env: { OUTBOUND_ALLOW_PRIVATE_TARGETS: 'true', OUTBOUND_CA_FILE: receiver.caFile },
    });
    engine = (t.node.modules.find((m) => m.name === 'webhooks') as WebhooksModule).engine;
    await engine.stop();
    ({ token, email } = await t.signUp());
    signedInAt = clock.now();
    serviceId = await orderRelay(t, token);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });
  beforeEach(() => {
    receiver.requests.length = 0;
    receiver.respond = () => ({ status: 200 });
  });

  const create = (body: unknown, relay = serviceId, as = token) =>
    t.request('POST', `${RELAY}/${relay}/webhooks`, { token: as, body });
  const list = async (relay = serviceId) => {
    const res = await t.request('GET', `${RELAY}/${relay}/webhooks`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body as Record<string, unknown>[];
  };
  const record = (relay: number, fields: Partial<NewMailEvent> = {}) =>
    mailModule(t).recordEvents([
      {
        serviceId: relay,
        messageRef: null,
        event: 'delivered',
        type: 'delivery.dsn-success',
        queueId: '00112233445566AA',
        messageId: '<00112233445566aa@shop.test>',
        from: 'Orders@Shop.test',
        to: 'Reader@Example.net',
        response: 'smtp; 250 2.0.0 Ok',
        ...fields,
      },
    ]);
  /** Runs the engine minute by minute (requests go out on whole minutes). */
  const minutes = async (n: number) => {
    for (let i = 0; i < n; i++) {
      clock.advance(MIN);
      await engine.runOnce();
    }
    // Access tokens live 15 minutes of the moved clock.
    if (clock.now() - signedInAt > 10 * MIN) {
      token = await t.signIn(email);
      signedInAt = clock.now();
    }
  };

  it('creates with its answer fields and the secret once; lists without it; checks the URL; another tenant sees nothing', async () => {
    const res = await create({
      url: 'https://hooks.example.net/mail',
      events: ['bounced', 'nope', 'complaint'],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      url: 'https://hooks.example.net/mail',
      events: ['bounced', 'complaint'],
      enabled: true,
      failure_count: 0,
      last_status: null,
      last_delivered_at: null,
      last_error: null,
      last_error_at: null,
      created_at: '2026-11-24T10:00:17.000Z',
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    for (const events of [undefined, [], ['nope', 'other']]) {
      const all = await create({ url: 'https://hooks.example.net/all', ...(events ? { events } : {}) });
      expect(all.body.events).toEqual([
        'accepted',
        'delivered',
        'deferred',
        'bounced',
        'complaint',
        'suppressed',
      ]);
    }
    const listed = await list();
    expect(listed).toHaveLength(4);
    expect(JSON.stringify(listed)).not.toContain(res.body.secret);
    expect(Object.keys(listed[0]!).sort()).toEqual(
      [
        'created_at',
        'enabled',
        'events',
        'failure_count',
        'id',
        'last_delivered_at',
        'last_error',
        'last_error_at',
        'last_status',
        'url',
      ].sort(),
    );
    for (const url of [
      'http://hooks.example.net/x',
      'https:/',
      'ftp://hooks.example.net',
      `https://${'a'.repeat(1020)}`,
    ]) {
      const bad = await create({ url });
      expect(bad.status, url).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['body', 'url']);
    }
    const other = (await t.signUp()).token;
    expect((await t.request('GET', `${RELAY}/${serviceId}/webhooks`, { token: other })).status).toBe(404);
    expect((await create({ url: 'https://x.example.net/h' }, serviceId, other)).status).toBe(404);
    for (const w of listed)
      expect((await t.request('DELETE', `${RELAY}/${serviceId}/webhooks/${w.id}`, { token })).status).toBe(
        204,
      );
    expect(
      (await t.request('DELETE', `${RELAY}/${serviceId}/webhooks/${listed[0]!.id}`, { token })).status,
    ).toBe(404);
  });

  it('sends one event per request: exact body, verifiable signature, only to subscribers, never `suppressed`', async () => {
    const relay = await orderRelay(t, token);
    const all = (await create({ url: `${receiver.url}/all` }, relay)).body;
    const bouncesOnly = (await create({ url: `${receiver.url}/bounces`, events: ['bounced'] }, relay)).body;
    await create({ url: `${receiver.url}/suppressed`, events: ['suppressed'] }, relay);
    const [row] = await record(relay);
    await minutes(1);
    expect(receiver.requests.map((r) => r.path)).toEqual(['/all']);
    const req = receiver.requests[0]!;
    expect(req.body).toBe(
      `{"event":"delivered","from":"orders@shop.test","id":${row!.id},"message_id":"<00112233445566aa@shop.test>","occurred_at":"2026-11-24T10:00:17","queue_id":"00112233445566AA","response":"smtp; 250 2.0.0 Ok","to":"reader@example.net","type":"delivery.dsn-success"}`,
    );
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-mail-event']).toBe('delivered');
    const expected = createHmac('sha256', Buffer.from(all.secret, 'utf8')).update(req.body).digest();
    const got = Buffer.from(String(req.headers['x-mail-signature']), 'hex');
    expect(got.length === expected.length && timingSafeEqual(got, expected)).toBe(true);

    receiver.requests.length = 0;
    const [bounce] = await record(relay, {
      event: 'bounced',
      type: 'delivery.dsn-perm-fail',
      to: 'gone@example.net',
    });
    await minutes(1);
    expect(receiver.requests.map((r) => r.path).sort()).toEqual(['/all', '/bounces']);
    const toBounces = receiver.requests.find((r) => r.path === '/bounces')!;
    expect(JSON.parse(toBounces.body)).toMatchObject({
      id: bounce!.id,
      event: 'bounced',
      to: 'gone@example.net',
    });
    expect(toBounces.headers['x-mail-signature']).toBe(
      createHmac('sha256', bouncesOnly.secret).update(toBounces.body).digest('hex'),
    );
    // A bounce suppresses its recipient.
    const suppressions = await t.request('GET', `${RELAY}/${relay}/suppressions`, { token });
    expect(suppressions.body.items.map((s: { address: string }) => s.address)).toEqual(['gone@example.net']);

    // A webhook made now hears only what is recorded from now on.
    receiver.requests.length = 0;
    const [before] = await record(relay);
    await create({ url: `${receiver.url}/late` }, relay);
    const [after] = await record(relay);
    await minutes(1);
    const late = receiver.requests.filter((r) => r.path === '/late').map((r) => JSON.parse(r.body).id);
    expect(late).toEqual([after!.id]);
    expect(
      receiver.requests
        .filter((r) => r.path === '/all')
        .map((r) => JSON.parse(r.body).id)
        .sort(),
    ).toEqual([before!.id, after!.id].sort());
    expect((await list(relay)).find((w) => w.url === `${receiver.url}/all`)).toMatchObject({
      failure_count: 0,
      last_status: 200,
      last_delivered_at: expect.any(String),
    });
  });

  it('tries an event six times, about 2, 4, 8, 16 and 32 minutes apart, then no more', async () => {
    const relay = await orderRelay(t, token);
    await create({ url: `${receiver.url}/down`, events: ['complaint'] }, relay);
    receiver.respond = () => ({ status: 502 });
    await record(relay, { event: 'complaint', type: 'incoming-report.abuse-report' });
    const at: number[] = [];
    for (let step = 0; step < 80; step++) {
      await minutes(1);
      if (receiver.requests.length > at.length) at.push(clock.now());
    }
    expect(receiver.requests.map((r) => r.body)).toEqual(Array(6).fill(receiver.requests[0]!.body));
    expect(at.slice(1).map((x, i) => Math.round((x - at[i]!) / MIN))).toEqual([2, 4, 8, 16, 32]);
    expect((await list(relay))[0]).toMatchObject({ enabled: true, failure_count: 6, last_status: 502 });
  });

  it('counts failures per attempt, resets on success, disables for good after 50 in a row; delete drops what waits', async () => {
    const relay = await orderRelay(t, token);
    const hook = (await create({ url: `${receiver.url}/flaky` }, relay)).body;
    receiver.respond = () => ({ status: 500 });
    await record(relay);
    // First attempt at the next whole minute; the second 2 minutes after it.
    await minutes(2);
    const failed = (await list(relay))[0]!;
    expect(failed).toMatchObject({
      enabled: true,
      failure_count: 1,
      last_status: 500,
      last_error: 'HTTP 500',
    });
    expect(failed.last_error_at).toBe(new Date(clock.now() - MIN).toISOString());
    receiver.respond = () => ({ status: 204 });
    await minutes(2);
    // The latest failure stays readable after a success (its time tells them apart).
    expect((await list(relay))[0]).toMatchObject({
      enabled: true,
      failure_count: 0,
      last_status: 204,
      last_error: 'HTTP 500',
      last_error_at: failed.last_error_at,
    });

    receiver.respond = () => ({ status: 503 });
    receiver.requests.length = 0;
    for (let i = 0; i < 12; i++) await record(relay, { event: 'deferred', type: 'delivery.dsn-temp-fail' });
    for (let step = 0; step < 90 && (await list(relay))[0]!.enabled === true; step++) await minutes(1);
    expect((await list(relay))[0]).toMatchObject({ enabled: false, failure_count: 50, last_status: 503 });
    expect(receiver.requests).toHaveLength(50);
    await record(relay);
    await minutes(60);
    expect(receiver.requests).toHaveLength(50);

    // Ten per relay, disabled ones counted.
    for (let i = 0; i < 9; i++)
      expect((await create({ url: `${receiver.url}/n${i}` }, relay)).status).toBe(201);
    const eleventh = await create({ url: `${receiver.url}/n11` }, relay);
    expect([eleventh.status, eleventh.body]).toEqual([422, { detail: 'Limit of 10 webhooks per service' }]);
    expect((await t.request('DELETE', `${RELAY}/${relay}/webhooks/${hook.id}`, { token })).status).toBe(204);

    // Deleting drops its waiting events: nothing is sent to it after.
    receiver.respond = () => ({ status: 200 });
    receiver.requests.length = 0;
    const doomed = (await list(relay))[0]!;
    await record(relay);
    expect((await t.request('DELETE', `${RELAY}/${relay}/webhooks/${doomed.id}`, { token })).status).toBe(
      204,
    );
    await minutes(2);
    expect(receiver.requests.filter((r) => r.path === new URL(String(doomed.url)).pathname)).toEqual([]);
    expect(receiver.requests).toHaveLength(8);
  });
});

describe('mail webhooks: the outbound guard on', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      resolve: async (host) => {
        const found = { 'inside.example': ['172.16.0.9'], 'public.example': ['93.184.215.14'] }[host];
        if (found === undefined)
          throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
        return found;
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a URL whose host is, or resolves now to, a private or reserved address: 422 naming body.url', async () => {
    const { token } = await t.signUp();
    const relay = await orderRelay(t, token);
    for (const url of ['https://127.0.0.1/hook', 'https://[fd00::1]/hook', 'https://inside.example/hook']) {
      const res = await t.request('POST', `${RELAY}/${relay}/webhooks`, { token, body: { url } });
      expect(res.status, url).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'url'], input: url });
      expect(res.body.detail[0].msg, url).toMatch(/private or reserved address/);
    }
    const ok = await t.request('POST', `${RELAY}/${relay}/webhooks`, {
      token,
      body: { url: 'https://public.example/hook' },
    });
    expect(ok.status, ok.text).toBe(201);
  });
});
