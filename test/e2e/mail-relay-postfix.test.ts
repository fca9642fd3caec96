/**
 * The mail relay end to end, with Debian's Postfix as the real MTA: the product hands messages to
 * Postfix, which relays them to a receiving server that accepts some recipients, answers 4xx to
 * one and 5xx to another. The message as received is DKIM-valid against the key the API published
 * over the product's own DNS and carries the one-click headers; Postfix's real DSNs come back to
 * the product's inbound listener (the bounce domain is routed there) and become `delivered`,
 * `deferred` and `bounced` events; a feedback report becomes `complaint`; the bounced and
 * complained addresses are suppressed on the next send.
 */
import dnsPacket from 'dns-packet';
import { dkimVerify } from 'mailauth';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryUdp } from '../../src/testing/dns-client.ts';
import { eventually } from '../../src/testing/eventually.ts';
import { freePorts } from '../../src/testing/free-port.ts';
import { relayEvents, relayWithDomain, sendMail } from '../../src/testing/mail-relay-fixture.ts';
import { startPostfix, type PostfixMta } from '../../src/testing/postfix-mta.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../../src/testing/smtp-receiver.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

const BOUNCES = 'bounces.relay.test';

describe('mail relay through Postfix: DKIM, one-click headers, DSNs and complaints as events', () => {
  let receiver: SmtpReceiver;
  let postfix: PostfixMta;
  let t: TestApp;
  let token: string;
  let serviceId: number;
  let key: string;
  let domainView: Record<string, unknown>;
  let inboundPort: number;

  beforeAll(async () => {
    receiver = await startSmtpReceiver({
      verdict: (rcpt) =>
        rcpt.startsWith('later@')
          ? { code: 450, message: '4.2.1 Mailbox busy, try later' }
          : rcpt.startsWith('gone@')
            ? { code: 550, message: '5.1.1 No such user here' }
            : null,
    });
    [inboundPort] = (await freePorts(1)) as [number];
    postfix = await startPostfix({
      relayHost: '127.0.0.1',
      relayPort: receiver.port,
      transports: { [BOUNCES]: { host: '127.0.0.1', port: inboundPort } },
    });
    t = await startTestApp({
      env: {
        MAIL_RELAY_SMTP_URL: postfix.url,
        MAIL_BOUNCE_DOMAIN: BOUNCES,
        MAIL_INBOUND_PORT: String(inboundPort),
        MAIL_INBOUND_HOST: '127.0.0.1',
        PUBLIC_API_URL: 'https://api.relay.test',
      },
    });
    token = (await t.signUp()).token;
    ({ serviceId, key, domainView } = await relayWithDomain(t, token, 'shop.test'));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await postfix?.close();
    await receiver?.close();
  });

  /** TXT records as our DNS node serves them, in the shape node:dns answers (for the verifier). */
  const txtFromOurDns = async (name: string): Promise<string[][]> => {
    const q = dnsPacket.encode({
      type: 'query',
      id: 9,
      flags: 0,
      questions: [{ type: 'TXT', class: 'IN', name }],
    });
    const res = await queryUdp(q, { host: '127.0.0.1', port: t.node.dns!.udpPort });
    return (res.decoded?.answers ?? [])
      .filter((a) => a.type === 'TXT')
      .map((a) => (a as { data: Buffer[] }).data.map((b) => b.toString()));
  };

  it('delivers a DKIM-valid message with one-click unsubscribe headers; the success DSN becomes delivered', async () => {
    // The key record reaches the DNS node a moment after the domain is added (the bus).
    const dkimName = (domainView.records as { name: string }[])[0]!.name;
    await eventually(async () => expect(await txtFromOurDns(dkimName)).toHaveLength(1));
    const sent = await sendMail(t, key, {
      from: 'orders@shop.test',
      from_name: 'Shop',
      to: ['ok@customer.test'],
      subject: 'Your order',
      text: 'Thank you.\n',
      category: 'orders',
    });
    expect(sent.status, sent.text).toBe(202);
    const mail = await receiver.waitFor((m) => m.raw.includes(sent.body.message_id), 20_000);
    expect(mail.recipients).toEqual(['ok@customer.test']);
    const raw = mail.raw.toString().replace(/\r?\n[ \t]+/g, ' ');
    expect(raw).toMatch(
      /^List-Unsubscribe: <https:\/\/api\.relay\.test\/api\/v1\/mail\/unsubscribe\/[A-Za-z0-9_-]+>\r?$/m,
    );
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    const lookups: string[] = [];
    const verified = await dkimVerify(mail.raw, {
      resolver: async (name: string, type: string) => {
        lookups.push(`${name} ${type}`);
        return txtFromOurDns(name);
      },
    } as never);
    expect(lookups[0]).toMatch(/^rl[a-z2-7]+\._domainkey\.shop\.test TXT$/);
    expect(verified.results.map((r) => [r.status.result, r.signingDomain])).toEqual([['pass', 'shop.test']]);

    const events = await eventually(async () => {
      const list = await relayEvents(t, token, serviceId, `&queue_id=${sent.body.queue_id}`);
      expect(list.map((e) => e.event)).toEqual(['accepted', 'delivered']);
      return list;
    }, 20_000);
    expect(events[1]).toMatchObject({
      type: 'delivery.dsn-success',
      to: 'ok@customer.test',
      from: 'orders@shop.test',
      queue_id: sent.body.queue_id,
      message_id: sent.body.message_id,
    });
  }, 40_000);

  it("Postfix's delay and failure DSNs become deferred and bounced; the bounced address is suppressed", async () => {
    const sent = await sendMail(t, key, {
      from: 'orders@shop.test',
      to: ['fine@customer.test', 'later@customer.test', 'gone@customer.test'],
      subject: 'Three',
      text: 'x',
    });
    expect(sent.status).toBe(202);
    const byEvent = await eventually(async () => {
      const list = await relayEvents(t, token, serviceId, `&queue_id=${sent.body.queue_id}`);
      const got = Object.fromEntries(list.map((e) => [`${e.event} ${e.to}`, e]));
      expect(Object.keys(got)).toEqual(
        expect.arrayContaining([
          'accepted fine@customer.test',
          'delivered fine@customer.test',
          'deferred later@customer.test',
          'bounced gone@customer.test',
        ]),
      );
      return got;
    }, 40_000);
    expect(byEvent['deferred later@customer.test']).toMatchObject({ type: 'delivery.dsn-temp-fail' });
    expect(byEvent['deferred later@customer.test']!.response).toMatch(/450 4\.2\.1 Mailbox busy/);
    expect(byEvent['bounced gone@customer.test']).toMatchObject({ type: 'delivery.dsn-perm-fail' });
    expect(byEvent['bounced gone@customer.test']!.response).toMatch(/550 5\.1\.1 No such user here/);
  }, 60_000);

  it('a feedback report (RFC 5965) at abuse@ becomes a complaint; complained and bounced addresses are then suppressed', async () => {
    const sent = await sendMail(t, key, {
      from: 'orders@shop.test',
      to: ['angry@customer.test'],
      subject: 'Deals',
      text: 'Buy',
    });
    const original = await receiver.waitFor((m) => m.raw.includes(sent.body.message_id), 20_000);
    const headers = original.raw.toString().split(/\r?\n\r?\n/)[0]!;
    const report = [
      'From: feedback@mailbox-provider.test',
      `To: abuse@${BOUNCES}`,
      'Subject: FW: Deals',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=feedback-report; boundary="arf"',
      '',
      '--arf',
      'Content-Type: text/plain',
      '',
      'This is an email abuse report for an email message received from IP 127.0.0.1.',
      '',
      '--arf',
      'Content-Type: message/feedback-report',
      '',
      'Feedback-Type: abuse',
      'User-Agent: SomeGenerator/1.0',
      'Version: 1',
      'Original-Mail-From: <orders@shop.test>',
      'Original-Rcpt-To: <angry@customer.test>',
      'Source-IP: 127.0.0.1',
      '',
      '--arf',
      'Content-Type: text/rfc822-headers',
      '',
      headers,
      '',
      '--arf--',
      '',
    ].join('\r\n');
    const smtp = nodemailer.createTransport({
      host: '127.0.0.1',
      port: inboundPort,
      secure: false,
      ignoreTLS: true,
    });
    await smtp.sendMail({
      envelope: { from: 'feedback@mailbox-provider.test', to: [`abuse@${BOUNCES}`] },
      raw: report,
    });
    smtp.close();
    const complaint = await eventually(async () => {
      const list = await relayEvents(t, token, serviceId, `&queue_id=${sent.body.queue_id}&event=complaint`);
      expect(list).toHaveLength(1);
      return list[0]!;
    }, 10_000);
    expect(complaint).toMatchObject({ type: 'incoming-report.abuse-report', to: 'angry@customer.test' });

    const next = await sendMail(t, key, {
      from: 'orders@shop.test',
      to: ['gone@customer.test', 'angry@customer.test', 'new@customer.test'],
      subject: 'Again',
    });
    expect(next.body).toMatchObject({
      accepted: ['new@customer.test'],
      suppressed: ['gone@customer.test', 'angry@customer.test'],
    });
  }, 40_000);

  it('the inbound listener takes only return paths with a valid token and abuse@', async () => {
    const smtp = nodemailer.createTransport({
      host: '127.0.0.1',
      port: inboundPort,
      secure: false,
      ignoreTLS: true,
    });
    for (const to of [
      `bounce+0123456789abcdef-000000000000@${BOUNCES}`,
      `postmaster@${BOUNCES}`,
      'x@elsewhere.test',
    ]) {
      await expect(
        smtp.sendMail({ envelope: { from: 'a@b.test', to: [to] }, raw: 'Subject: x\r\n\r\nx' }),
      ).rejects.toThrow(/550/);
    }
    smtp.close();
  });
});
