import { randomBytes } from 'node:crypto';
import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import type { MailEventRecorder, NewMailEvent } from '../events/mail-event-recorder.ts';
import type { MailContext } from '../mail-context.ts';
import { senderNotVerified } from '../mail-errors.ts';
import type { MailTables, MessageRow, RelayRow } from '../mail-tables.ts';
import type { RelaysRepository } from '../relays/relays-repository.ts';
import type { SuppressionsRepository } from '../suppressions/suppressions-repository.ts';
import type { OutgoingSpec } from './message-composer.ts';
import type { MessagesRepository } from './messages-repository.ts';
import type { OutgoingQueue, SigningKeys } from './outgoing-queue.ts';
import { customHeaders, sendAddresses, type SendAddresses, type SendBody } from './send-body.ts';
import { nextSlot, usage, type SendSlot } from './send-limits.ts';

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
  constructor(
    private readonly ctx: MailContext,
    private readonly keys: SigningKeys,
    private readonly recorder: MailEventRecorder,
    private readonly queue: OutgoingQueue,
    private readonly repos: {
      readonly relays: RelaysRepository;
      readonly suppressions: SuppressionsRepository;
      readonly messages: MessagesRepository;
    },
  ) {}

  async send(relay: RelayRow, body: SendBody): Promise<SendAnswer> {
    const serviceId = Number(relay.service_id);
    const addresses = sendAddresses(body, relay.max_recipients);
    const headers = customHeaders(body.headers);
    if ((await this.keys(serviceId, addresses.domain)) === null) throw senderNotVerified(addresses.domain);
    const unique = [...new Set([...addresses.to, ...addresses.cc])];
    return this.ctx.transaction(async (uow) => {
      const { trx } = uow;
      const relayRow = (await this.repos.relays.withTx(trx).lock(serviceId)) ?? relay;
      const suppressed = await this.repos.suppressions.withTx(trx).suppressedAmong(serviceId, unique);
      const recipients = unique.filter((r) => !suppressed.includes(r));
      if (recipients.length === 0) {
        return { id: null, queue_id: null, message_id: null, accepted: [], suppressed };
      }
      const spec = outgoingSpec(body, addresses, headers, recipients);
      const row = await this.enqueue(uow, relayRow, spec, addresses.domain);
      return {
        id: Number(row.id),
        queue_id: row.queue_id,
        message_id: row.message_id,
        accepted: recipients,
        suppressed,
      };
    });
  }

  async limits(relay: RelayRow): Promise<LimitsAnswer> {
    return {
      per_minute: relay.per_minute,
      per_day: relay.per_day,
      max_recipients: relay.max_recipients,
      ...(await usage(this.repos.messages, relay, this.ctx.clock.now())),
    };
  }

  /**
   * Queues the message in its hand-off slot: one due now nudges the queue once committed; one a
   * sending limit holds records `deferred` with the limit's type at once.
   */
  private async enqueue(
    uow: UnitOfWork<MailTables>,
    relay: RelayRow,
    spec: OutgoingSpec,
    domain: string,
  ): Promise<MessageRow> {
    const queueId = randomBytes(8).toString('hex').toUpperCase();
    const now = this.ctx.clock.now();
    const messages = this.repos.messages.withTx(uow.trx);
    const slot = await nextSlot(messages, relay, now);
    const row = await messages.insert({
      service_id: Number(relay.service_id),
      queue_id: queueId,
      message_id: `<${queueId.toLowerCase()}@${domain}>`,
      from_addr: spec.from,
      recipients: [...spec.recipients],
      raw: Buffer.from(JSON.stringify(spec)),
      status: 'queued',
      send_at: slot.at,
      created_at: new Date(now),
    });
    if (slot.heldBy === null) uow.afterCommit(() => this.queue.nudge());
    else await this.recorder.record(uow.trx, [heldEvent(row, spec, slot.at, slot.heldBy)], new Date(now));
    return row;
  }
}

function outgoingSpec(
  body: SendBody,
  addresses: SendAddresses,
  headers: Record<string, string>,
  recipients: string[],
): OutgoingSpec {
  return {
    from: addresses.from,
    from_name: body.from_name ?? null,
    to: addresses.to,
    cc: addresses.cc,
    reply_to: addresses.replyTo,
    subject: body.subject ?? '',
    text: body.text ?? null,
    html: body.html ?? null,
    headers,
    category: body.category ?? null,
    recipients,
  };
}

/** The `deferred` event of a message a sending limit holds until `at`. */
function heldEvent(
  row: MessageRow,
  spec: OutgoingSpec,
  at: Date,
  heldBy: NonNullable<SendSlot['heldBy']>,
): NewMailEvent {
  const limit = heldBy === 'queue.quota-exceeded' ? 'daily quota' : 'per-minute limit';
  return {
    serviceId: Number(row.service_id),
    messageRef: Number(row.id),
    event: 'deferred',
    type: heldBy,
    queueId: row.queue_id,
    messageId: row.message_id,
    from: spec.from,
    to: spec.recipients[0]!,
    response: `Held by the ${limit} until ${at.toISOString()}`,
  };
}
