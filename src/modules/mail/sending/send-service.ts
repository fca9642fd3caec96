import { randomBytes } from 'node:crypto';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { MailContext } from '../mail-context.ts';
import { senderNotVerified } from '../mail-errors.ts';
import type { RelayRow } from '../mail-tables.ts';
import type { MailEventRecorder } from '../events/mail-event-recorder.ts';
import { RelaysRepository } from '../relays/relays-repository.ts';
import { SuppressionsRepository } from '../suppressions/suppressions-repository.ts';
import type { OutgoingSpec } from './message-composer.ts';
import { MessagesRepository } from './messages-repository.ts';
import type { OutgoingQueue, SigningKeys } from './outgoing-queue.ts';
import { customHeaders, mailbox, type SendBody } from './send-body.ts';
import { nextSlot, usage } from './send-limits.ts';

export interface SendAnswer {
  /** null when every recipient was suppressed: nothing was queued. */
  readonly id: number | null;
  readonly queue_id: string | null;
  readonly message_id: string | null;
  readonly accepted: string[];
  readonly suppressed: string[];
}

export interface LimitsAnswer {
  readonly per_minute: number;
  readonly per_day: number;
  readonly max_recipients: number;
  readonly sent_last_minute: number;
  readonly sent_today: number;
}

/**
 * POST /mail/send and GET /mail/send/limits. A message is checked (addresses, recipient count,
 * a verified sending domain: refusals make no event), its suppressed recipients left out, and
 * queued in one transaction under the relay's row lock with its hand-off slot; a slot later than
 * now (a sending limit) records `deferred` with the limit's type at once. The queue hands it off.
 */
export class SendService {
  private readonly messages: MessagesRepository;

  constructor(
    private readonly ctx: MailContext,
    private readonly keys: SigningKeys,
    private readonly recorder: MailEventRecorder,
    private readonly queue: OutgoingQueue,
  ) {
    this.messages = new MessagesRepository(ctx.db);
  }

  async send(relay: RelayRow, body: SendBody): Promise<SendAnswer> {
    const serviceId = Number(relay.service_id);
    const from = mailbox(body.from, ['from']);
    const to = body.to.map((a, i) => mailbox(a, ['to', i]));
    const cc = (body.cc ?? []).map((a, i) => mailbox(a, ['cc', i]));
    const replyTo = body.reply_to == null ? null : mailbox(body.reply_to, ['reply_to']);
    if (to.length + cc.length > relay.max_recipients) {
      throw invalidField(
        ['body', 'to'],
        `At most ${relay.max_recipients} recipients in to and cc together`,
        body.to,
      );
    }
    const headers = customHeaders(body.headers);
    const domain = from.split('@')[1]!;
    if ((await this.keys(serviceId, domain)) === null) throw senderNotVerified(domain);
    const unique = [...new Set([...to, ...cc])];
    const answer = await this.ctx.transaction(async ({ trx, afterCommit }) => {
      const relayRow = (await new RelaysRepository(trx).lock(serviceId)) ?? relay;
      const suppressed = await new SuppressionsRepository(trx).suppressedAmong(serviceId, unique);
      const recipients = unique.filter((r) => !suppressed.includes(r));
      if (recipients.length === 0) {
        return { id: null, queue_id: null, message_id: null, accepted: [], suppressed };
      }
      const queueId = randomBytes(8).toString('hex').toUpperCase();
      const messageId = `<${queueId.toLowerCase()}@${domain}>`;
      const spec: OutgoingSpec = {
        from,
        from_name: body.from_name ?? null,
        to,
        cc,
        reply_to: replyTo,
        subject: body.subject ?? '',
        text: body.text ?? null,
        html: body.html ?? null,
        headers,
        category: body.category ?? null,
        recipients,
      };
      const now = this.ctx.clock.now();
      const messages = this.messages.withTx(trx);
      const slot = await nextSlot(messages, relayRow, now);
      const row = await messages.insert({
        service_id: serviceId,
        queue_id: queueId,
        message_id: messageId,
        from_addr: from,
        recipients,
        raw: Buffer.from(JSON.stringify(spec)),
        status: 'queued',
        send_at: slot.at,
        created_at: new Date(now),
      });
      if (slot.heldBy !== null) {
        const limit = slot.heldBy === 'queue.quota-exceeded' ? 'daily quota' : 'per-minute limit';
        await this.recorder.record(
          trx,
          [
            {
              serviceId,
              messageRef: Number(row.id),
              event: 'deferred',
              type: slot.heldBy,
              queueId,
              messageId,
              from,
              to: recipients[0]!,
              response: `Held by the ${limit} until ${slot.at.toISOString()}`,
            },
          ],
          new Date(now),
        );
      } else {
        afterCommit(() => this.queue.nudge());
      }
      return {
        id: Number(row.id),
        queue_id: queueId,
        message_id: messageId,
        accepted: recipients,
        suppressed,
      };
    });
    return answer;
  }

  async limits(relay: RelayRow): Promise<LimitsAnswer> {
    return {
      per_minute: relay.per_minute,
      per_day: relay.per_day,
      max_recipients: relay.max_recipients,
      ...(await usage(this.messages, relay, this.ctx.clock.now())),
    };
  }
}
