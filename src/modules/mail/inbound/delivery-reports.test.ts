import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReport } from './delivery-reports.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../test/fixtures/mail');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));
const crlf = (lines: string[]) => Buffer.from(lines.join('\r\n'));

function dsn(statusBlocks: string, original: string[]): Buffer {
  return crlf([
    'From: MAILER-DAEMON@mta.example.net',
    'To: bounce+q1-abc@bounces.example.net',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status;',
    '\tboundary="B1/mta"',
    '',
    '--B1/mta',
    'Content-Type: text/plain',
    '',
    'Report.',
    '',
    '--B1/mta',
    'Content-Type: message/delivery-status',
    '',
    statusBlocks,
    '',
    '--B1/mta',
    'Content-Type: text/rfc822-headers',
    '',
    ...original,
    '',
    '--B1/mta--',
    '',
  ]);
}

function arf(
  feedbackType: string,
  originalPart: string[],
  rcpt = 'Original-Rcpt-To: <Angry@Example.net>',
): Buffer {
  return crlf([
    'From: fbl@provider.example',
    'To: abuse@bounces.example.net',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=feedback-report; boundary="arf"',
    '',
    '--arf',
    'Content-Type: text/plain',
    '',
    'This is an abuse report.',
    '--arf',
    'Content-Type: message/feedback-report',
    '',
    `Feedback-Type: ${feedbackType}`,
    'User-Agent: SomeGenerator/1.0',
    'Version: 1',
    ...(rcpt === '' ? [] : [rcpt]),
    '',
    '--arf',
    ...originalPart,
    '--arf--',
    '',
  ]);
}

describe('delivery reports (RFC 3464 DSNs, RFC 5965 feedback reports) as events', () => {
  it("reads Postfix's own DSNs: relayed → delivered, delayed → deferred, failed → bounced", async () => {
    const relayed = await parseReport(fixture('postfix-dsn-relayed.eml'));
    expect(relayed).toEqual({
      kind: 'dsn',
      envelopeId: 'Q1',
      originalMessageId: '<m1@s.test>',
      originalHeaders: expect.objectContaining({ subject: 'hi', 'return-path': '<bounce+tok1@bounce.test>' }),
      events: [
        {
          event: 'delivered',
          type: 'delivery.dsn-success',
          recipient: 'ok@x.test',
          response: '250 OK: message queued',
        },
      ],
    });
    expect((await parseReport(fixture('postfix-dsn-delayed.eml')))!.events).toEqual([
      {
        event: 'deferred',
        type: 'delivery.dsn-temp-fail',
        recipient: 'later@x.test',
        response: '450 4.2.1 busy',
      },
    ]);
    expect((await parseReport(fixture('postfix-dsn-failed.eml')))!.events).toEqual([
      {
        event: 'bounced',
        type: 'delivery.dsn-perm-fail',
        recipient: 'gone@x.test',
        response: '550 5.1.1 gone',
      },
    ]);
  });

  it('reads one event per recipient block, folded fields and address types included', async () => {
    const report = await parseReport(
      dsn(
        [
          'Reporting-MTA: dns; mta.example.net',
          'Original-Envelope-Id: 0011AABB',
          '',
          'Final-Recipient: rfc822; A@Example.net',
          'Action: failed',
          'Status: 5.2.2',
          'Diagnostic-Code: smtp; 552 5.2.2 Mailbox full,',
          '    try later',
          '',
          'Final-Recipient: RFC822; b@example.net',
          'Action: delivered',
          'Status: 2.0.0',
          '',
          'Final-Recipient: rfc822; c@example.net',
          'Action: Delayed',
          'Status: 4.4.1',
        ].join('\r\n'),
        ['From: app@shop.example', 'To: a@example.net', 'Message-ID: <x1@shop.example>', 'Subject: s'],
      ),
    );
    expect(report).toMatchObject({
      kind: 'dsn',
      envelopeId: '0011AABB',
      originalMessageId: '<x1@shop.example>',
    });
    expect(report!.events).toEqual([
      {
        event: 'bounced',
        type: 'delivery.dsn-perm-fail',
        recipient: 'a@example.net',
        response: '552 5.2.2 Mailbox full, try later',
      },
      {
        event: 'delivered',
        type: 'delivery.dsn-success',
        recipient: 'b@example.net',
        response: 'delivered 2.0.0',
      },
      {
        event: 'deferred',
        type: 'delivery.dsn-temp-fail',
        recipient: 'c@example.net',
        response: 'Delayed 4.4.1',
      },
    ]);
  });

  it('a bounce of a bounce is delivery.double-bounce', async () => {
    const report = await parseReport(
      dsn(
        'Reporting-MTA: dns; mx.example.org\r\n\r\nFinal-Recipient: rfc822; x@example.org\r\nAction: failed\r\nStatus: 5.1.1',
        [
          'From: MAILER-DAEMON@mta.example.net',
          'To: x@example.org',
          'Content-Type: multipart/report; report-type=delivery-status; boundary="inner"',
          'Message-ID: <bounce1@mta.example.net>',
        ],
      ),
    );
    expect(report!.events).toEqual([
      {
        event: 'bounced',
        type: 'delivery.double-bounce',
        recipient: 'x@example.org',
        response: 'failed 5.1.1',
      },
    ]);
  });

  it('feedback reports: abuse, fraud, auth-failure are complaints; not-spam is none', async () => {
    const headers = [
      'Content-Type: text/rfc822-headers',
      '',
      'From: app@shop.example',
      'To: angry@example.net',
      'Message-ID: <deal1@shop.example>',
      'Subject: Deals',
      '',
    ];
    const abuse = await parseReport(arf('abuse', headers));
    expect(abuse).toMatchObject({ kind: 'arf', envelopeId: null, originalMessageId: '<deal1@shop.example>' });
    expect(abuse!.events).toEqual([
      {
        event: 'complaint',
        type: 'incoming-report.abuse-report',
        recipient: 'angry@example.net',
        response: 'Feedback-Type: abuse; User-Agent: SomeGenerator/1.0',
      },
    ]);
    expect((await parseReport(arf('fraud', headers)))!.events[0]!.type).toBe('incoming-report.fraud-report');
    expect((await parseReport(arf('auth-failure', headers)))!.events[0]!.type).toBe(
      'incoming-report.auth-failure-report',
    );
    expect((await parseReport(arf('not-spam', headers)))!.events).toEqual([]);
    // The whole original as message/rfc822, and no Original-Rcpt-To: the original's To names the recipient.
    const whole = await parseReport(
      arf(
        'abuse',
        [
          'Content-Type: message/rfc822',
          'Content-Disposition: inline',
          '',
          'From: app@shop.example',
          'To: "A Person" <Person@Example.net>',
          'Message-ID: <deal2@shop.example>',
          '',
          'Body',
          '',
        ],
        '',
      ),
    );
    expect(whole).toMatchObject({ originalMessageId: '<deal2@shop.example>' });
    expect(whole!.events[0]!.recipient).toBe('person@example.net');
  });

  it('anything else is no report, and nothing throws', async () => {
    expect(await parseReport(crlf(['From: a@b.example', 'Subject: hello', '', 'Just mail.']))).toBeNull();
    expect(
      await parseReport(
        crlf(['Content-Type: multipart/report; report-type=delivery-status', '', 'no boundary']),
      ),
    ).toBeNull();
    expect(await parseReport(Buffer.from([0xff, 0x00, 0xfe, 0x0a, 0x0d, 0x3a]))).toBeNull();
    expect(await parseReport(Buffer.alloc(0))).toBeNull();
    const noStatus = crlf([
      'Content-Type: multipart/report; report-type=delivery-status; boundary=x',
      '',
      '--x',
      'Content-Type: text/plain',
      '',
      'nothing',
      '--x--',
    ]);
    expect(await parseReport(noStatus)).toBeNull();
  });
});
