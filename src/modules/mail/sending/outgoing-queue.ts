import type { MailContext } from '../mail-context.ts';
import type { MessageRow } from '../mail-tables.ts';
import type { MailEventRecorder, NewMailEvent } from '../events/mail-event-recorder.ts';
import { unsubscribeToken } from '../unsubscribe/unsubscribe-token.ts';
import { composeCopies, type OutgoingSpec, type SigningKey } from './message-composer.ts';
import type { MessagesRepository } from './messages-repository.ts';
import { HandoffUnavailable, type MtaHandoff } from './mta-handoff.ts';
import { returnPath } from './return-path.ts';
import { IdleBackoffPoller } from '../../../kernel/runtime/idle-backoff-poller.ts';

const LEASE_MS = 60_000;
const BATCH = 50;
/** Hand-off retries when the MTA cannot take a message: 1, 2, 4 … 64 minutes, then it bounces. */
const MAX_ATTEMPTS = 8;

export type SigningKeys = (serviceId: number, domain: string) => Promise<SigningKey | null>;

/**
 * Hands queued messages to the MTA when they are due (now, or when a sending limit's window
 * allows), in every process that serves the API: rows are claimed with a lease and SKIP LOCKED,
 * so processes share the queue and a message is never handed off twice at once. The outcome is
 * recorded as events in one transaction with the message's new state.
 */
export class OutgoingQueue {
  private readonly poller = new IdleBackoffPoller(
    () => this.round(),
    (error) => this.ctx.log.error({ err: error }, 'mail hand-off round failed'),
  );

  constructor(
    private readonly ctx: MailContext,
    private readonly handoff: MtaHandoff,
    private readonly keys: SigningKeys,
    private readonly recorder: MailEventRecorder,
    private readonly repo: MessagesRepository,
  ) {}

  /**
   * Polls (real time) until stop(): every `minMs` while messages are handed off, backing off to
   * `maxMs` while idle; a queued message nudges it at once. A deferred retry starts at most
   * `maxMs` after it is due.
   */
  start(minMs = 1_000, maxMs = 8_000): void {
    this.poller.start(minMs, maxMs);
  }

  async stop(): Promise<void> {
    await this.poller.stop();
    await this.handoff.close();
  }

  /** Runs a round now (after a message is queued), or once more after the running one. */
  nudge(): void {
    this.poller.wake();
  }

  /** Waits for the running round (tests). */
  async idle(): Promise<void> {
    await this.poller.idle();
  }

  async runOnce(): Promise<void> {
    await this.round();
  }

  /** Hands off every due message; answers whether there was any. */
  private async round(): Promise<boolean> {
    let found = false;
    for (;;) {
      const now = this.ctx.clock.now();
      const due = await this.repo.claimDue(new Date(now), new Date(now + LEASE_MS), BATCH);
      found ||= due.length > 0;
      for (const row of due) await this.handOff(row);
      if (due.length < BATCH) return found;
    }
  }
  private async handOff(row: MessageRow): Promise<void> {
    const spec = JSON.parse(Buffer.from(row.raw ?? []).toString('utf8')) as OutgoingSpec;
    const serviceId = Number(row.service_id);
    const base = {
      serviceId,
      messageRef: Number(row.id),
      queueId: row.queue_id,
      messageId: row.message_id,
      from: row.from_addr,
    };
    const key = await this.keys(serviceId, row.from_addr.split('@')[1]!);
    if (key === null) {
      await this.settle(
        row,
        { status: 'failed', raw: null },
        spec.recipients.map((to) => ({
          ...base,
          event: 'bounced',
          type: 'delivery.failed',
          to,
          response: 'Sender domain is no longer verified',
        })),
      );
      return;
    }
    const { publicApiUrl, bounceDomain } = this.ctx.settings;
    const copies = await composeCopies(
      spec,
      key,
      { messageId: row.message_id, date: new Date(this.ctx.clock.now()) },
      (address) =>
        `${publicApiUrl}/api/v1/mail/unsubscribe/${unsubscribeToken(this.ctx.sealer, serviceId, address)}`,
    );
    const from = returnPath(this.ctx.sealer, row.queue_id, bounceDomain);
    const accepted: string[] = [];
    const events: NewMailEvent[] = [];
    const retry: string[] = [];
    let response: string | null = null;
    try {
      for (const [i, copy] of copies.entries()) {
        const name = copies.length === 1 ? row.queue_id : `${row.queue_id}-${i + 1}`;
        const result = await this.handoff.send(copy, { from, envid: row.queue_id, name });
        accepted.push(...result.accepted);
        response ??= result.response;
        for (const r of result.refused) {
          // A permanent refusal at hand-off bounces; a temporary one is tried again later.
          if (r.code >= 500)
            events.push({
              ...base,
              event: 'bounced',
              type: 'delivery.failed',
              to: r.recipient,
              response: r.response,
            });
          else retry.push(r.recipient);
        }
      }
    } catch (error) {
      if (!(error instanceof HandoffUnavailable)) throw error;
      await this.later(
        row,
        spec,
        spec.recipients.filter((r) => !accepted.includes(r)),
        error.message,
        events,
        base,
        accepted,
        response,
      );
      return;
    }
    await this.later(row, spec, retry, null, events, base, accepted, response);
  }

  /** Records what was accepted and refused; what is left waits for the next try (or bounces). */
  private async later(
    row: MessageRow,
    spec: OutgoingSpec,
    left: readonly string[],
    why: string | null,
    events: NewMailEvent[],
    base: Omit<NewMailEvent, 'event' | 'type' | 'to' | 'response'>,
    accepted: readonly string[],
    response: string | null,
  ): Promise<void> {
    if (accepted.length > 0) {
      // A whole-message event names only the first recipient.
      events.unshift({
        ...base,
        event: 'accepted',
        type: this.handoff.acceptedType,
        to: accepted[0]!,
        response,
      });
    }
    const attempts = row.attempts + 1;
    if (left.length === 0) {
      await this.settle(
        row,
        {
          status: 'sent',
          raw: null,
          attempts,
          handed_off_at: new Date(this.ctx.clock.now()),
          mta_response: response,
        },
        events,
      );
      return;
    }
    if (attempts >= MAX_ATTEMPTS) {
      for (const to of left)
        events.push({
          ...base,
          event: 'bounced',
          type: 'delivery.failed',
          to,
          response: why ?? 'The relay could not hand the message off',
        });
      await this.settle(row, { status: 'failed', raw: null, attempts }, events);
      return;
    }
    this.ctx.log.warn({ queueId: row.queue_id, attempt: attempts, error: why }, 'mail hand-off deferred');
    const rest: OutgoingSpec = { ...spec, recipients: left };
    await this.settle(
      row,
      {
        raw: Buffer.from(JSON.stringify(rest)),
        attempts,
        send_at: new Date(this.ctx.clock.now() + 2 ** (attempts - 1) * 60_000),
        mta_response: why ?? response,
      },
      events,
    );
  }

  private async settle(
    row: MessageRow,
    fields: Parameters<MessagesRepository['finish']>[1],
    events: readonly NewMailEvent[],
  ): Promise<void> {
    await this.ctx.transaction(async ({ trx }) => {
      await this.repo.withTx(trx).finish(Number(row.id), { ...fields, locked_until: null });
      await this.recorder.record(trx, events, new Date(this.ctx.clock.now()));
    });
  }
}
