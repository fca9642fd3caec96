/**
 * The mail relay over real HTTP, with a real SMTP server as the MTA (embedded database or
 * PostgreSQL): relay keys and where they are a credential, what a send refuses (with no event),
 * suppressed recipients, the hand-off and its events, a permanent refusal at hand-off, the
 * sending limits driven by the clock, one-click unsubscribe, suppressions, and the embedded
 * default that writes .eml files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../testing/manual-clock.ts';
import type { ServicesModule } from '../services/index.ts';
import {
  mailModule,
  orderRelay,
  RELAY,
  relayEvents,
  relayKey,
  relayWithDomain,
  sendMail,
} from '../../testing/mail-relay-fixture.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../../testing/smtp-receiver.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

const START = Date.UTC(2026, 10, 24, 9, 0, 5);

describe('mail relay: sending over HTTPS with a relay key', () => {
  const clock = new ManualClock(START);
  let mta: SmtpReceiver;
  let t: TestApp;
  let token: string;
  let serviceId: number;
  let key: string;

  beforeAll(async () => {
    mta = await startSmtpReceiver({ hideDsn: false });
    t = await startTestApp({
      clock,
      env: {
        MAIL_RELAY_SMTP_URL: `smtp://127.0.0.1:${mta.port}`,
        MAIL_BOUNCE_DOMAIN: 'bounces.relay.test',
        PUBLIC_API_URL: 'https://api.relay.test',
      },
    });
    token = (await t.signUp()).token;
    ({ serviceId, key } = await relayWithDomain(t, token, 'sender.test'));
  });
  afterAll(async () => {
    await t?.close();
    await mta?.close();
  });
  beforeEach(() => {
    mta.verdict = () => null;
  });

  const settle = () => mailModule(t).queue.idle();
  const received = (queueId: string) =>
    mta.messages.filter((m) => m.raw.toString().includes(`<${queueId.toLowerCase()}@`));

  it('relay keys: shown once, listed without the key, deleted for good; another tenant sees none', async () => {
    const created = await t.request('POST', `${RELAY}/${serviceId}/keys`, { token, body: { label: 'ci' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      label: 'ci',
      key_prefix: created.body.raw_key.slice(0, 18),
      created_at: expect.any(String),
      last_used_at: null,
      raw_key: expect.stringMatching(/^relay_[A-Za-z0-9_-]{40}$/),
    });
    const list = await t.request('GET', `${RELAY}/${serviceId}/keys`, { token });
    expect(list.body.map((k: { label: string }) => k.label)).toEqual(['app', 'ci']);
    expect(JSON.stringify(list.body)).not.toContain(created.body.raw_key);

    const limits = await t.request('GET', '/api/v1/mail/send/limits', {
      headers: { 'x-api-key': created.body.raw_key },
    });
    expect(limits.status).toBe(200);
    expect(
      await t.request('DELETE', `${RELAY}/${serviceId}/keys/${created.body.id}`, { token }),
    ).toMatchObject({
      status: 204,
    });
    const after = await t.request('GET', '/api/v1/mail/send/limits', {
      headers: { 'x-api-key': created.body.raw_key },
    });
    expect([after.status, after.body]).toEqual([401, { detail: 'Invalid relay key' }]);

    const other = (await t.signUp()).token;
    expect((await t.request('GET', `${RELAY}/${serviceId}/keys`, { token: other })).status).toBe(404);
    expect(
      (await t.request('POST', `${RELAY}/${serviceId}/keys`, { token: other, body: { label: 'x' } })).status,
    ).toBe(404);
    expect(
      (await t.request('POST', `${RELAY}/${serviceId}/keys`, { token, body: { label: '' } })).status,
    ).toBe(422);
  });

  it('a relay key is the only credential of the send routes, and no credential anywhere else', async () => {
    const invalid = { detail: 'Invalid relay key' };
    const body = { from: 'app@sender.test', to: ['a@example.net'], subject: 'x', text: 'x' };
    for (const headers of [
      {} as Record<string, string>,
      { authorization: `Bearer ${token}` },
      { 'x-api-key': `org_${'A'.repeat(40)}` },
      { 'x-api-key': `relay_${'A'.repeat(40)}` },
      { 'x-api-key': key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A') },
    ]) {
      const res = await t.request('POST', '/api/v1/mail/send', { body, headers });
      expect([res.status, res.body]).toEqual([401, invalid]);
    }
    const account = await t.request('POST', '/api/v1/mail/send', {
      body,
      headers: { 'x-api-key': `acct_${'A'.repeat(40)}` },
    });
    expect(account.status).toBe(401);
    // A relay key opens nothing else.
    const elsewhere = await t.request('GET', '/api/v1/services/', { headers: { 'x-api-key': key } });
    expect(elsewhere.status).toBe(401);
    expect(
      (await t.request('GET', `${RELAY}/${serviceId}/keys`, { headers: { 'x-api-key': key } })).status,
    ).toBe(401);
  });

  it('sends: 202 with the queue id; handed to the MTA with a VERP return path; accepted event', async () => {
    const res = await sendMail(t, key, {
      from: 'App@Sender.test',
      from_name: 'The App',
      to: ['One@Example.net', 'two@example.net'],
      cc: ['three@example.net'],
      subject: 'Welcome',
      text: 'Hello',
      html: '<p>Hello</p>',
      headers: { 'X-Campaign': 'w1' },
    });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toEqual({
      id: expect.any(Number),
      queue_id: expect.stringMatching(/^[0-9A-F]{16}$/),
      message_id: expect.stringMatching(/^<[0-9a-f]{16}@sender\.test>$/),
      accepted: ['one@example.net', 'two@example.net', 'three@example.net'],
      suppressed: [],
    });
    await settle();
    const [mail] = received(res.body.queue_id);
    expect(mail!.recipients).toEqual(['one@example.net', 'two@example.net', 'three@example.net']);
    expect(mail!.envelopeFrom).toMatch(
      new RegExp(`^bounce\\+${res.body.queue_id.toLowerCase()}-[0-9a-f]{12}@bounces\\.relay\\.test$`),
    );
    const raw = mail!.raw.toString();
    expect(raw).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=sender\.test;/m);
    expect(raw).toContain('X-Campaign: w1');
    expect(raw).not.toMatch(/^List-Unsubscribe/m);
    const events = await relayEvents(t, token, serviceId, `&queue_id=${res.body.queue_id}`);
    expect(events).toEqual([
      {
        id: expect.any(Number),
        event: 'accepted',
        type: 'queue.authenticated-message-queued',
        queue_id: res.body.queue_id,
        message_id: res.body.message_id,
        from: 'app@sender.test',
        to: 'one@example.net',
        response: expect.stringMatching(/^250/),
        occurred_at: '2026-11-24T09:00:05',
      },
    ]);
  });

  it('refuses at submission with no event: unverified sender, bad addresses, too many recipients, too large', async () => {
    const before = (await relayEvents(t, token, serviceId)).length;
    const unverified = await sendMail(t, key, { from: 'app@other.test', to: ['a@example.net'] });
    expect([unverified.status, unverified.body]).toEqual([
      422,
      { detail: 'Sender domain is not verified: other.test' },
    ]);
    const bad = await sendMail(t, key, { from: 'app@sender.test', to: ['a@example.net', 'not an address'] });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'to', 1]);
    const badCc = await sendMail(t, key, { from: 'app@sender.test', to: ['a@example.net'], cc: ['x@'] });
    expect(badCc.body.detail[0].loc).toEqual(['body', 'cc', 0]);
    const badFrom = await sendMail(t, key, { from: 'sender.test', to: ['a@example.net'] });
    expect(badFrom.body.detail[0].loc).toEqual(['body', 'from']);
    const many = await sendMail(t, key, {
      from: 'app@sender.test',
      to: Array.from({ length: 30 }, (_, i) => `to${i}@example.net`),
      cc: Array.from({ length: 21 }, (_, i) => `cc${i}@example.net`),
    });
    expect(many.status).toBe(422);
    expect(many.body.detail[0].loc).toEqual(['body', 'to']);
    const huge = await sendMail(t, key, {
      from: 'app@sender.test',
      to: ['a@example.net'],
      text: 'x'.repeat(10 * 1024 * 1024 + 1),
    });
    expect(huge.status).toBe(413);
    const missing = await sendMail(t, key, { to: ['a@example.net'] });
    expect(missing.status).toBe(422);
    expect((await relayEvents(t, token, serviceId)).length).toBe(before);
  });

  it('one-click unsubscribe by POST and by GET; suppressed recipients are left out and listed', async () => {
    const res = await sendMail(t, key, {
      from: 'news@sender.test',
      to: ['reader@example.net', 'fan@example.net'],
      subject: 'News',
      text: 'Issue 1',
      category: 'newsletter',
    });
    expect(res.status).toBe(202);
    await settle();
    const copies = received(res.body.queue_id);
    // With a category each recipient gets a copy with their own link.
    expect(copies.map((c) => c.recipients)).toEqual([['reader@example.net'], ['fan@example.net']]);
    const links = copies.map((c) => {
      const raw = c.raw.toString().replace(/\r?\n[ \t]+/g, ' ');
      expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
      expect(raw).toMatch(/^DKIM-Signature:[\s\S]*h=[^;]*list-unsubscribe:list-unsubscribe-post/im);
      return /^List-Unsubscribe: <https:\/\/api\.relay\.test(\/api\/v1\/mail\/unsubscribe\/[A-Za-z0-9_-]+)>/m.exec(
        raw,
      )![1]!;
    });
    expect(links[0]).not.toBe(links[1]);

    const post = await t.request('POST', links[0]!, {
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([post.status, post.text]).toEqual([200, '']);
    const get = await t.request('GET', links[1]!);
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toMatch(/^text\/html/);
    expect(get.text).toContain('unsubscribed');
    // Again: harmless.
    expect((await t.request('GET', links[1]!)).status).toBe(200);
    const forged = links[0]!.slice(0, -4) + (links[0]!.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await t.request('GET', forged)).status).toBe(404);
    expect((await t.request('POST', '/api/v1/mail/unsubscribe/nonsense')).status).toBe(404);

    const list = await t.request('GET', `${RELAY}/${serviceId}/suppressions`, { token });
    expect(
      list.body.items.map((s: { address: string; reason: string }) => [s.address, s.reason]).sort(),
    ).toEqual([
      ['fan@example.net', 'unsubscribed'],
      ['reader@example.net', 'unsubscribed'],
    ]);

    const next = await sendMail(t, key, {
      from: 'news@sender.test',
      to: ['Reader@example.net', 'new@example.net'],
      subject: 'News 2',
    });
    expect(next.body).toMatchObject({ accepted: ['new@example.net'], suppressed: ['reader@example.net'] });
    const nobody = await sendMail(t, key, { from: 'news@sender.test', to: ['fan@example.net'] });
    expect([nobody.status, nobody.body]).toEqual([
      202,
      { id: null, queue_id: null, message_id: null, accepted: [], suppressed: ['fan@example.net'] },
    ]);

    expect(
      (await t.request('DELETE', `${RELAY}/${serviceId}/suppressions/Fan@example.net`, { token })).status,
    ).toBe(204);
    expect(
      (await t.request('DELETE', `${RELAY}/${serviceId}/suppressions/fan@example.net`, { token })).status,
    ).toBe(404);
    const again = await sendMail(t, key, { from: 'news@sender.test', to: ['fan@example.net'] });
    expect(again.body.accepted).toEqual(['fan@example.net']);
    const other = (await t.signUp()).token;
    expect((await t.request('GET', `${RELAY}/${serviceId}/suppressions`, { token: other })).status).toBe(404);
    expect((await t.request('GET', `${RELAY}/${serviceId}/suppressions?limit=201`, { token })).status).toBe(
      422,
    );
  });

  it('a permanent refusal at hand-off bounces the recipient (delivery.failed) and suppresses it', async () => {
    mta.verdict = (rcpt) => (rcpt.startsWith('gone@') ? { code: 550, message: '5.1.1 No such user' } : null);
    const res = await sendMail(t, key, {
      from: 'app@sender.test',
      to: ['gone@example.net', 'ok@example.net'],
    });
    await settle();
    const events = await relayEvents(t, token, serviceId, `&queue_id=${res.body.queue_id}`);
    expect(events.map((e) => [e.event, e.type, e.to])).toEqual([
      ['accepted', 'queue.authenticated-message-queued', 'ok@example.net'],
      ['bounced', 'delivery.failed', 'gone@example.net'],
    ]);
    expect(events[1]!.response).toMatch(/^550 5\.1\.1 No such user/);
    const next = await sendMail(t, key, { from: 'app@sender.test', to: ['gone@example.net'] });
    expect(next.body.suppressed).toEqual(['gone@example.net']);
  });

  it('limits: the 61st message in a minute is deferred (queue.rate-limit-exceeded) and sent after the window', async () => {
    const relay2 = await relayWithDomain(t, token, 'burst.test');
    clock.advance(120_000);
    const limits = () =>
      t.request('GET', '/api/v1/mail/send/limits', { headers: { 'x-api-key': relay2.key } });
    expect((await limits()).body).toEqual({
      per_minute: 60,
      per_day: 10000,
      max_recipients: 50,
      sent_last_minute: 0,
      sent_today: 0,
    });
    const ids: string[] = [];
    for (let i = 0; i < 61; i++) {
      if (i === 30) clock.advance(20_000);
      const res = await sendMail(t, relay2.key, { from: 'app@burst.test', to: [`u${i}@example.net`] });
      expect(res.status).toBe(202);
      ids.push(res.body.queue_id);
    }
    await settle();
    const last = ids[60]!;
    expect(received(last).length).toBe(0);
    const held = await relayEvents(t, token, relay2.serviceId, `&queue_id=${last}`);
    expect(held.map((e) => [e.event, e.type, e.to])).toEqual([
      ['deferred', 'queue.rate-limit-exceeded', 'u60@example.net'],
    ]);
    expect((await limits()).body).toMatchObject({ sent_last_minute: 60, sent_today: 60 });
    // The window frees up a minute after the first message: 40 s later here.
    clock.advance(39_000);
    await mailModule(t).queue.runOnce();
    await settle();
    expect(received(last).length).toBe(0);
    clock.advance(1_000);
    await mailModule(t).queue.runOnce();
    await settle();
    expect(received(last).length).toBe(1);
    const after = await relayEvents(t, token, relay2.serviceId, `&queue_id=${last}`);
    expect(after.map((e) => e.event)).toEqual(['deferred', 'accepted']);
  });

  it('limits: a full day holds the message until the next UTC day (queue.quota-exceeded)', async () => {
    const relay3 = await relayWithDomain(t, token, 'daily.test');
    await t.node.runtime.database.db
      .updateTable('mail_relays' as never)
      .set({ per_day: 2 } as never)
      .where('service_id' as never, '=', relay3.serviceId as never)
      .execute();
    const send = (i: number) =>
      sendMail(t, relay3.key, { from: 'app@daily.test', to: [`d${i}@example.net`] });
    await send(1);
    await send(2);
    const third = await send(3);
    await settle();
    expect(received(third.body.queue_id).length).toBe(0);
    const ev = await relayEvents(t, token, relay3.serviceId, `&queue_id=${third.body.queue_id}`);
    expect(ev.map((e) => [e.event, e.type])).toEqual([['deferred', 'queue.quota-exceeded']]);
    const nextDay = Math.ceil((clock.now() + 1) / 86_400_000) * 86_400_000;
    clock.set(nextDay);
    await mailModule(t).queue.runOnce();
    await settle();
    expect(received(third.body.queue_id).length).toBe(1);
  });
});

describe('mail relay: the embedded default without an MTA', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('writes each message as an .eml file in DATA_DIR/mail-out and records accepted (queue.message-queued)', async () => {
    const { token } = await t.signUp();
    const { serviceId, key } = await relayWithDomain(t, token, 'files.test');
    const res = await sendMail(t, key, { from: 'app@files.test', to: ['a@example.net'], subject: 'Saved' });
    expect(res.status).toBe(202);
    await mailModule(t).queue.idle();
    const dir = path.join(t.node.runtime.config.dataDir, 'mail-out');
    const file = readdirSync(dir).find((f) => f.startsWith(res.body.queue_id));
    expect(file).toBe(`${res.body.queue_id}.eml`);
    const raw = readFileSync(path.join(dir, file!), 'utf8');
    expect(raw).toMatch(/^Return-Path: <bounce\+/);
    expect(raw).toContain('Subject: Saved');
    const events = await relayEvents(t, token, serviceId);
    expect(events.map((e) => [e.event, e.type])).toEqual([['accepted', 'queue.message-queued']]);
    // Unused key of another relay: no credential for this one's limits.
    const other = await relayKey(t, token, await orderRelay(t, token));
    expect(
      (await t.request('GET', '/api/v1/mail/send/limits', { headers: { 'x-api-key': other } })).status,
    ).toBe(200);
  });

  it("follows its service's life: suspended → 403, back → sends, cancelled → keys gone and records withdrawn", async () => {
    const { token } = await t.signUp();
    const { serviceId, key, domainView } = await relayWithDomain(t, token, 'life.test');
    const services = t.node.modules.find((m) => m.name === 'services') as ServicesModule;
    const staff = { userId: null, realm: 'staff', ip: null };
    const send = () => sendMail(t, key, { from: 'app@life.test', to: ['a@example.net'] });
    await services.lifecycle.suspend(serviceId, 'Abuse report', staff);
    const suspended = await send();
    expect([suspended.status, suspended.body]).toEqual([403, { detail: 'SMTP relay is not active' }]);
    await services.lifecycle.unsuspend(serviceId, staff);
    expect((await send()).status).toBe(202);

    const dkimName = (domainView.records as { name: string }[])[0]!.name;
    const zones = (await t.request('GET', '/api/v1/dns/zones', { token })).body as {
      id: number;
      domain: string;
    }[];
    const zoneId = zones.find((z) => z.domain === 'life.test')!.id;
    const names = async () =>
      (
        (await t.request('GET', `/api/v1/dns/zones/${zoneId}/records`, { token })).body as { name: string }[]
      ).map((r) => r.name);
    expect(await names()).toContain(dkimName);
    const cancel = await t.request('POST', `/api/v1/services/${serviceId}/cancel`, { token });
    expect(cancel.body.status).toBe('terminated');
    const after = await send();
    expect([after.status, after.body]).toEqual([401, { detail: 'Invalid relay key' }]);
    expect(await names()).not.toContain(dkimName);
    expect((await t.request('GET', `${RELAY}/${serviceId}/domains`, { token })).body[0]).toMatchObject({
      status: 'pending',
      hosted_here: false,
    });
  });
});
