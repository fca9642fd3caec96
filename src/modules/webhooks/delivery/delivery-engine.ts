import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Unsubscribe } from '../../../kernel/events/domain-events.ts';
import {
  claimEvents,
  markDispatched,
  OUTBOX_RECORDED,
  type ClaimedEvent,
} from '../../../kernel/events/outbox.ts';
import { IdleBackoffPoller } from '../../../kernel/runtime/idle-backoff-poller.ts';
import type { OutboundClient } from '../../../kernel/outbound/guarded-client.ts';
import { OutboundError } from '../../../kernel/outbound/guarded-client.ts';
import type { WebhooksContext } from '../webhooks-context.ts';
import { DeliveriesRepository, type NewDelivery } from './deliveries-repository.ts';
import type { Deliveries, DeliveryTarget, QueuedDelivery, TargetKind } from '../webhooks-interfaces.ts';
import { nextAttemptAt, type RetryPolicy } from './retry-policies.ts';
import type { DeliveryRow, WebhooksTables } from '../webhooks-tables.ts';

/** One send round: its claim, the targets read in it, the deliveries that succeeded. */
interface Round {
  readonly claim: string;
  readonly targets: Map<string, Promise<DeliveryTarget | null>>;
  readonly delivered: number[];
}

/** A failed attempt: the HTTP status (null: no answer) and what went wrong. */
interface Failure {
  readonly ok: false;
  readonly status: number | null;
  readonly error: string;
}

/** What sending an attempt came to: a 2xx, or a failure. */
type Sent = { readonly ok: true; readonly status: number } | Failure;

/** How long a claimed attempt is held (longer than the 10 s an endpoint has to answer). */
export const LEASE_MS = 15_000;
const EVENT_BATCH = 200;
const SEND_BATCH = 200;
const PARALLEL_SENDS = 32;
const DURATION_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** An outbox event as the fan-outs see it. */
export type FanOutEvent = ClaimedEvent;

/**
 * Fans a batch of outbox events out to the targets that hear them (organization webhooks),
 * reading through `trx`: the fan-out's own transaction (on the embedded database, the only
 * connection).
 */
export type FanOut = (
  trx: Transaction<WebhooksTables>,
  events: readonly FanOutEvent[],
) => Promise<{ kind: string; targetId: number; eventId: number; eventName: string; body: string }[]>;

/**
 * The one delivery engine: turns outbox events into deliveries, and sends due attempts by their
 * target's policy, through the guarded outbound client. Every step that must not be lost is a
 * row: an event is fanned out in the transaction that marks it dispatched; an attempt is claimed
 * with a lease before it is sent, and recorded after. A process that dies mid-send leaves the
 * attempt to be taken again when the lease runs out; one that comes back late cannot overwrite a
 * newer claim. Several processes share the work (FOR UPDATE SKIP LOCKED). Time is the injected
 * clock's: tests drive the retry schedule by moving it.
 */
export class DeliveryEngine implements Deliveries {
  private readonly repo: DeliveriesRepository;
  private readonly kinds = new Map<string, TargetKind>();
  private readonly fanOuts: FanOut[] = [];
  private poller: IdleBackoffPoller | null = null;
  private unsubscribe: Promise<Unsubscribe | null> | null = null;
  private readonly outcomes;
  private readonly duration;
  private readonly pending;

  constructor(
    private readonly ctx: WebhooksContext,
    private readonly outbound: OutboundClient,
  ) {
    this.repo = new DeliveriesRepository(ctx.db);
    this.outcomes = ctx.metrics.counter(
      'webhook_deliveries_total',
      'Webhook delivery attempts, by policy and outcome.',
      ['policy', 'outcome'],
    );
    this.duration = ctx.metrics.histogram(
      'webhook_delivery_duration_seconds',
      'Time from sending a webhook attempt to its answer (or failure).',
      DURATION_BUCKETS_S,
    );
    this.pending = ctx.metrics.gauge('webhook_pending', 'Webhook deliveries waiting for an attempt.');
    ctx.metrics.beforeCollect(async () => {
      this.pending.set(await this.repo.pendingCount().catch(() => 0));
    });
  }

  registerTarget(kind: TargetKind): void {
    this.kinds.set(kind.kind, kind);
  }

  addFanOut(fanOut: FanOut): void {
    this.fanOuts.push(fanOut);
  }

  /**
   * Enqueues events for targets directly (the mail module's events), inside `trx` when given (the
   * transaction that records the events: a delivery exists exactly when its event does).
   */
  async enqueue(rows: readonly QueuedDelivery[], trx?: Transaction<unknown>): Promise<void> {
    const now = this.ctx.clock.now();
    const repo =
      trx === undefined ? this.repo : this.repo.withTx(trx as unknown as Transaction<WebhooksTables>);
    await repo.insert(
      rows.map((r) => this.newDelivery(r.kind, r.targetId, r.eventId, r.eventName, r.body, now)),
    );
    // Inside a transaction the round may not see them yet; the wake still brings the poll back to
    // its shortest interval, so the next one does.
    this.poller?.wake();
  }

  /**
   * Polls (real time) until stop(): every `minMs` while there is work, backing off to `maxMs`
   * while idle; an event recorded in the outbox anywhere (the bus carries it across processes)
   * wakes it at once. A retry is therefore sent at most `maxMs` after it is due.
   */
  start(minMs = 250, maxMs = 2_000): void {
    if (this.poller !== null) return;
    this.poller = new IdleBackoffPoller(
      () => this.round(),
      (error) => this.ctx.log.error({ err: error }, 'webhook delivery round failed'),
    );
    this.poller.start(minMs, maxMs);
    this.unsubscribe = this.ctx.events
      .subscribe(OUTBOX_RECORDED, () => this.poller?.wake())
      .catch((error: unknown) => {
        // Without the wake-up, events wait for the next poll (at most maxMs).
        this.ctx.log.warn({ err: error }, 'outbox wake-ups not subscribed');
        return null;
      });
  }

  async stop(): Promise<void> {
    const poller = this.poller;
    this.poller = null;
    const unsubscribe = await this.unsubscribe;
    this.unsubscribe = null;
    await unsubscribe?.().catch(() => undefined);
    await poller?.stop();
  }

  /** One round: fan out what the outbox holds, then send every attempt due now. */
  async runOnce(): Promise<void> {
    await this.round();
  }

  /** A round; answers whether it found anything to fan out or send. */
  private async round(): Promise<boolean> {
    let found = 0;
    let n: number;
    do {
      n = await this.dispatchEvents();
      found += n;
    } while (n === EVENT_BATCH);
    do {
      n = await this.sendDue();
      found += n;
    } while (n === SEND_BATCH);
    return found > 0;
  }

  private newDelivery(
    kind: string,
    targetId: number,
    eventId: number,
    eventName: string,
    body: string,
    now: number,
  ): NewDelivery {
    const policy = this.policyOf(kind);
    const first = policy.wholeMinutes ? Math.ceil(now / 60_000) * 60_000 : now;
    return {
      target_kind: kind,
      target_id: targetId,
      policy: policy.name,
      event_id: eventId,
      event_name: eventName,
      body,
      next_attempt_at: new Date(first),
      created_at: new Date(now),
    };
  }

  private policyOf(kind: string): RetryPolicy {
    const k = this.kinds.get(kind);
    if (k === undefined) throw new Error(`no delivery target kind ${kind}`);
    return k.policy;
  }

  private async dispatchEvents(): Promise<number> {
    return this.ctx.transaction(async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      const batch = await claimEvents(trx, EVENT_BATCH);
      const now = this.ctx.clock.now();
      const rows: NewDelivery[] = [];
      for (const fan of this.fanOuts) {
        for (const t of await fan(trx, batch)) {
          rows.push(this.newDelivery(t.kind, t.targetId, t.eventId, t.eventName, t.body, now));
        }
      }
      await repo.insert(rows);
      await markDispatched(
        trx,
        batch.map((e) => e.id),
        new Date(now),
      );
      return batch.length;
    });
  }

  private async sendDue(): Promise<number> {
    const now = this.ctx.clock.now();
    const claim = randomUUID();
    const due = await this.repo.claimDue(new Date(now), new Date(now + LEASE_MS), claim, SEND_BATCH);
    // Where any failed attempt may disable the target (mail), its attempts go one after another,
    // so none is sent after the one that disabled it; everything else goes side by side.
    const byTarget = new Map<string, DeliveryRow[]>();
    for (const d of due) {
      const serial = this.kinds.get(d.target_kind)?.policy.disableOnLastAttemptOnly === false;
      const key = serial ? `${d.target_kind}:${d.target_id}` : `${d.id}`;
      byTarget.set(key, [...(byTarget.get(key) ?? []), d]);
    }
    const queues = [...byTarget.values()];
    const round: Round = { claim, targets: new Map(), delivered: [] };
    for (let i = 0; i < queues.length; i += PARALLEL_SENDS) {
      await Promise.all(
        queues.slice(i, i + PARALLEL_SENDS).map(async (queue) => {
          for (const d of queue) await this.attempt(d, round);
        }),
      );
    }
    await this.recordDelivered(round);
    return due.length;
  }

  /** The round's successes, recorded together: one statement, one reset per target. */
  private async recordDelivered(round: Round): Promise<void> {
    if (round.delivered.length === 0) return;
    const at = new Date(this.ctx.clock.now());
    const done = await this.repo.finishDelivered(round.delivered, round.claim, at);
    const targets = new Map<string, { kind: string; id: number }>();
    for (const d of done)
      targets.set(`${d.target_kind}:${d.target_id}`, { kind: d.target_kind, id: Number(d.target_id) });
    for (const t of targets.values()) await this.kinds.get(t.kind)?.recordSuccess(t.id, at, 200);
  }

  /** One attempt: its target, the send, and the outcome recorded. */
  private async attempt(d: DeliveryRow, round: Round): Promise<void> {
    const kind = this.kinds.get(d.target_kind);
    let target: DeliveryTarget | null;
    try {
      target = await this.targetOf(d, kind, round);
    } catch (e) {
      await this.putOffUnreadable(d, round.claim, e);
      return;
    }
    if (kind === undefined || target === null || !target.active) {
      await this.stopUnsent(d, round.claim);
      return;
    }
    const sent = await this.send(d, kind.policy, target);
    if (sent.ok) await this.recordSuccess(d, kind, sent.status, round);
    else await this.recordFailure(d, kind, sent, round.claim);
  }

  /** The attempt's target, read once per round: its address and secret do not change within it. */
  private targetOf(
    d: DeliveryRow,
    kind: TargetKind | undefined,
    round: Round,
  ): Promise<DeliveryTarget | null> {
    const key = `${d.target_kind}:${d.target_id}`;
    let found = round.targets.get(key);
    if (found === undefined) {
      found = kind === undefined ? Promise.resolve(null) : kind.find(Number(d.target_id));
      if (kind?.policy.disableOnLastAttemptOnly !== false) round.targets.set(key, found);
    }
    return found;
  }

  /** An unreadable target (a secret sealed under another key) fails this attempt, not the round. */
  private async putOffUnreadable(d: DeliveryRow, claim: string, error: unknown): Promise<void> {
    this.ctx.log.error(
      { err: error, webhookKind: d.target_kind, webhookId: Number(d.target_id) },
      'webhook target unreadable',
    );
    await this.repo.finishAttempt(Number(d.id), claim, {
      next_attempt_at: new Date(this.ctx.clock.now() + LEASE_MS),
      last_error: 'target unreadable',
    });
  }

  /** The target is gone or turned off: the delivery stops unsent. */
  private async stopUnsent(d: DeliveryRow, claim: string): Promise<void> {
    await this.repo.finishAttempt(Number(d.id), claim, {
      status: 'stopped',
      finished_at: new Date(this.ctx.clock.now()),
    });
  }

  /** Sends the attempt, timed. */
  private async send(d: DeliveryRow, policy: RetryPolicy, target: DeliveryTarget): Promise<Sent> {
    const headers = policy.headers(
      d.event_name,
      d.body,
      target.secret,
      this.ctx.clock.now(),
      Number(d.event_id),
    );
    const started = performance.now();
    try {
      const { status } = await this.outbound.post(target.url, d.body, headers);
      // Success is a 2xx; anything else (a redirect too: never followed) is a failure.
      return status >= 200 && status <= 299
        ? { ok: true, status }
        : { ok: false, status, error: `HTTP ${status}` };
    } catch (e) {
      const error = e instanceof OutboundError ? `${e.reason}: ${e.message}` : String(e);
      return { ok: false, status: null, error };
    } finally {
      this.duration.observe((performance.now() - started) / 1000);
    }
  }

  /**
   * A success: kept for the round's batch where only a last attempt may disable (org); recorded at
   * once where any failure counts toward disabling (mail), so the count is reset before the next.
   */
  private async recordSuccess(d: DeliveryRow, kind: TargetKind, status: number, round: Round): Promise<void> {
    this.outcomes.inc({ policy: kind.policy.name, outcome: 'success' });
    if (kind.policy.disableOnLastAttemptOnly) {
      round.delivered.push(Number(d.id));
      return;
    }
    const at = new Date(this.ctx.clock.now());
    const recorded = await this.repo.finishAttempt(Number(d.id), round.claim, {
      attempts: Number(d.attempts) + 1,
      status: 'delivered',
      finished_at: at,
      last_error: null,
    });
    if (recorded) await kind.recordSuccess(Number(d.target_id), at, status);
  }

  /** A failure: the next attempt scheduled (or the delivery given up), the target's count raised. */
  private async recordFailure(d: DeliveryRow, kind: TargetKind, sent: Failure, claim: string): Promise<void> {
    const { policy } = kind;
    const at = new Date(this.ctx.clock.now());
    const attempts = Number(d.attempts) + 1;
    this.logFailure(d, attempts, sent.error);
    // Whole-minute policies count from the minute the attempt was due, so attempts stay on minutes.
    const base = policy.wholeMinutes ? new Date(d.next_attempt_at).getTime() : at.getTime();
    const next = nextAttemptAt(policy, attempts, base);
    const recorded = await this.repo.finishAttempt(Number(d.id), claim, {
      attempts,
      last_error: sent.error.slice(0, 500),
      ...(next === null ? { status: 'gave_up', finished_at: at } : { next_attempt_at: new Date(next) }),
    });
    if (!recorded) return;
    this.outcomes.inc({ policy: policy.name, outcome: next === null ? 'gave_up' : 'failure' });
    const inRow = await kind.recordFailure(Number(d.target_id), at, sent.status, sent.error.slice(0, 500));
    const mayDisable = !policy.disableOnLastAttemptOnly || next === null;
    if (mayDisable && inRow >= policy.disableAt) await this.disableTarget(d, kind, at, inRow);
  }

  /** Logged without the secret or the body: the target and the error only. */
  private logFailure(d: DeliveryRow, attempt: number, error: string): void {
    this.ctx.log.warn(
      {
        webhookKind: d.target_kind,
        webhookId: Number(d.target_id),
        deliveryId: Number(d.id),
        attempt,
        error,
      },
      'webhook attempt failed',
    );
  }

  /** Too many failures in a row: the target is turned off and its waiting deliveries stop. */
  private async disableTarget(d: DeliveryRow, kind: TargetKind, at: Date, inRow: number): Promise<void> {
    await kind.disable(Number(d.target_id), at);
    await this.repo.stopPending(d.target_kind, Number(d.target_id), at);
    this.ctx.log.warn(
      { webhookKind: d.target_kind, webhookId: Number(d.target_id), failuresInRow: inRow },
      'webhook disabled',
    );
  }
}
