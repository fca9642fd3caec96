import type { MailContext } from '../mail-context.ts';
import type { MessageRow } from '../mail-tables.ts';
import type { MailEventRecorder } from '../events/mail-event-recorder.ts';
import type { MessagesRepository } from '../sending/messages-repository.ts';
import { queueIdOf } from '../sending/return-path.ts';
import { parseReport, type ReportEvent } from './delivery-reports.ts';

/** What became of one received report. */
export type IntakeOutcome = 'recorded' | 'not_a_report' | 'unmatched';

/**
 * Turns a report received at a return path or at the abuse address into events of the message it
 * is about. A DSN (RFC 3464) is matched by the VERP token of the address it came to, else by its
 * Original-Envelope-Id (our queue id, RFC 3461 ENVID); a feedback report (RFC 5965) by the
 * Message-ID of the original inside it. Reports that match nothing are dropped (and counted).
 */
export class ReportIntake {
  private readonly outcomes;

  constructor(
    private readonly ctx: MailContext,
    private readonly recorder: MailEventRecorder,
    private readonly messages: MessagesRepository,
  ) {
    this.outcomes = ctx.metrics.counter(
      'mail_inbound_reports_total',
      'Reports received by the inbound listener, by kind and outcome.',
      ['kind', 'outcome'],
    );
  }

  async receive(raw: Buffer, recipients: readonly string[]): Promise<IntakeOutcome> {
    const report = await parseReport(raw);
    if (report === null) {
      this.outcomes.inc({ kind: 'none', outcome: 'not_a_report' });
      return 'not_a_report';
    }
    const message = await this.match(recipients, report.envelopeId, report.originalMessageId);
    if (message === null || report.events.length === 0) {
      this.outcomes.inc({ kind: report.kind, outcome: 'unmatched' });
      return 'unmatched';
    }
    const single = message.recipients.length === 1 ? message.recipients[0]! : null;
    await this.recorder.recordNow(
      report.events.map((e: ReportEvent) => ({
        serviceId: Number(message.service_id),
        messageRef: Number(message.id),
        event: e.event,
        type: e.type,
        queueId: message.queue_id,
        messageId: message.message_id,
        from: message.from_addr,
        to: e.recipient ?? single,
        response: e.response,
      })),
    );
    this.outcomes.inc({ kind: report.kind, outcome: 'recorded' });
    return 'recorded';
  }

  private async match(
    recipients: readonly string[],
    envelopeId: string | null,
    originalMessageId: string | null,
  ): Promise<MessageRow | null> {
    for (const rcpt of recipients) {
      const queueId = queueIdOf(this.ctx.sealer, rcpt, this.ctx.settings.bounceDomain);
      if (queueId !== null) {
        const found = await this.messages.byQueueId(queueId);
        if (found !== null) return found;
      }
    }
    if (envelopeId !== null && /^[0-9A-F]{16}$/i.test(envelopeId.trim())) {
      const found = await this.messages.byQueueId(envelopeId.trim().toUpperCase());
      if (found !== null) return found;
    }
    if (originalMessageId !== null) return this.messages.byMessageId(originalMessageId.trim());
    return null;
  }
}
