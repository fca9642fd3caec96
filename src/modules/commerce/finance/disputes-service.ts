import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import type { DisputeDesk } from '../../../kernel/payments/stripe-disputes.ts';
import { PaymentProviderError } from '../../../kernel/payments/payment-provider.ts';
import { beforeIdCursor } from './finance-paging.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { CommerceTables } from '../commerce-tables.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { disputeEventData, disputeView, type DisputeView } from './dispute-view.ts';
import { DisputesRepository, type DisputeRow } from './disputes-repository.ts';
import {
  disputeAlreadySubmitted,
  disputeClosed,
  disputeNotFound,
  disputeProviderFailed,
} from './finance-errors.ts';
import { move } from './ledger-book.ts';
import { LedgerRepository } from './ledger-repository.ts';

/** A dispute as the provider reports it (Stripe's dispute object, the fields used). */
export interface ProviderDispute {
  readonly id: string;
  readonly paymentReference: string;
  readonly amountMinor: number;
  readonly currency: string;
  readonly reason: string;
  readonly status: string;
  readonly evidenceDueBy: Date | null;
}

const CLOSED = new Set(['won', 'lost']);

type Events = [`commerce.${string}`, Record<string, unknown>][];

/**
 * Disputes (chargebacks) of the shop's card payments (docs/commerce.md, "Disputes"): opened by the
 * provider's webhook, which holds the disputed amount (available → held); answered with evidence,
 * sent to the bank once; closed won (held → available) or lost, by the bank or by accepting
 * (held → customer). Every change is one transaction with its ledger entries and events.
 */
export class DisputesService {
  private readonly repo: DisputesRepository;
  private readonly ledger: LedgerRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
    private readonly desk: DisputeDesk | null,
  ) {
    this.repo = new DisputesRepository(ctx.db);
    this.ledger = new LedgerRepository(ctx.db);
  }

  async list(orgId: number, beforeId: number | undefined, limit: number) {
    const rows = await this.repo.page(orgId, beforeId, limit);
    return beforeIdCursor('disputes', rows.map(disputeView), limit);
  }

  async get(orgId: number, id: number): Promise<DisputeView> {
    const d = await this.repo.get(orgId, id);
    if (d === null) throw disputeNotFound();
    return disputeView(d);
  }

  /**
   * A provider's event about a dispute (`charge.dispute.created|updated|closed`), once per event
   * id: a dispute not known yet is created and its amount held; a status `won` or `lost` closes
   * it. A payment this platform does not know is ignored (another platform's, or a test event).
   */
  async fromProvider(provider: string, eventId: string, given: ProviderDispute): Promise<void> {
    const payment = await this.repo.paymentByReference(provider, given.paymentReference);
    if (payment === null) return;
    await this.log.change(payment.orgId, async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      const now = new Date(this.ctx.clock.now());
      if (!(await repo.firstTime(provider, eventId, now))) return { result: undefined, events: [] };
      const events: Events = [];
      let d = await repo.lockByProviderId(provider, given.id);
      if (d === null) {
        d = await repo.insert({
          org_id: payment.orgId,
          order_id: payment.orderId,
          payment_id: payment.id,
          provider,
          provider_dispute_id: given.id,
          amount_minor: given.amountMinor,
          currency_code: given.currency.toUpperCase(),
          reason: given.reason,
          status: CLOSED.has(given.status) ? 'needs_response' : given.status,
          evidence: {},
          evidence_due_by: given.evidenceDueBy,
          submitted_at: null,
          closed_at: null,
          created_at: now,
          updated_at: now,
        });
        await this.write(uow, d, 'dispute_hold', move('available', 'held', Number(d.amount_minor)), now);
        events.push(['commerce.dispute.created', disputeEventData(d)]);
      }
      if (d.closed_at !== null) return { result: undefined, events };
      if (CLOSED.has(given.status)) {
        events.push(await this.close(uow, d, given.status as 'won' | 'lost', now));
      } else if (given.status !== d.status || given.reason !== d.reason) {
        d = await repo.update(d.id, { status: given.status, reason: given.reason, updated_at: now });
        events.push(['commerce.dispute.updated', disputeEventData(d)]);
      }
      return { result: undefined, events };
    });
  }

  /** Saves evidence (merged over what was saved) while it has not been sent. */
  async saveEvidence(orgId: number, id: number, evidence: Record<string, string>): Promise<DisputeView> {
    return this.log.change(orgId, async (uow) => {
      const d = await this.open(uow, orgId, id);
      const now = new Date(this.ctx.clock.now());
      const saved = await this.repo
        .withTx(uow.trx)
        .update(d.id, { evidence: { ...d.evidence, ...evidence }, updated_at: now });
      return { result: disputeView(saved), events: [['commerce.dispute.updated', disputeEventData(saved)]] };
    });
  }

  /** Sends the saved evidence to the bank through the provider, once (a second time: 409). */
  async submit(orgId: number, id: number): Promise<DisputeView> {
    return this.log.change(orgId, async (uow) => {
      const d = await this.open(uow, orgId, id);
      await this.call(d, (desk) =>
        desk.submit(d.provider_dispute_id, d.evidence, `commerce-dispute-${d.id}-submit`),
      );
      const now = new Date(this.ctx.clock.now());
      const sent = await this.repo
        .withTx(uow.trx)
        .update(d.id, { status: 'under_review', submitted_at: now, updated_at: now });
      return { result: disputeView(sent), events: [['commerce.dispute.submitted', disputeEventData(sent)]] };
    });
  }

  /** Accepts the dispute before answering it: the amount is lost. */
  async accept(orgId: number, id: number): Promise<DisputeView> {
    return this.log.change(orgId, async (uow) => {
      const d = await this.open(uow, orgId, id);
      const now = new Date(this.ctx.clock.now());
      await this.call(d, (desk) => desk.accept(d.provider_dispute_id, `commerce-dispute-${d.id}-accept`));
      const event = await this.close(uow, d, 'lost', now);
      const closed = (await this.repo.withTx(uow.trx).get(orgId, id))!;
      return { result: disputeView(closed), events: [event] };
    });
  }

  /** The dispute locked, open and not yet answered; else 404 or 409. */
  private async open(uow: UnitOfWork<CommerceTables>, orgId: number, id: number): Promise<DisputeRow> {
    const d = await this.repo.withTx(uow.trx).lock(orgId, id);
    if (d === null) throw disputeNotFound();
    if (d.closed_at !== null) throw disputeClosed();
    if (d.submitted_at !== null) throw disputeAlreadySubmitted();
    return d;
  }

  /** The provider is called last in the transaction: its refusal changes nothing here. */
  private async call(d: DisputeRow, work: (desk: DisputeDesk) => Promise<void>): Promise<void> {
    if (this.desk === null) throw disputeProviderFailed(d.provider);
    try {
      await work(this.desk);
    } catch (err) {
      if (err instanceof PaymentProviderError) throw disputeProviderFailed(d.provider);
      throw err;
    }
  }

  private async close(
    uow: UnitOfWork<CommerceTables>,
    d: DisputeRow,
    status: 'won' | 'lost',
    now: Date,
  ): Promise<Events[number]> {
    const amount = Number(d.amount_minor);
    const entries = status === 'won' ? move('held', 'available', amount) : move('held', 'customer', amount);
    await this.write(uow, d, status === 'won' ? 'dispute_won' : 'dispute_lost', entries, now);
    const closed = await this.repo.withTx(uow.trx).update(d.id, { status, closed_at: now, updated_at: now });
    return ['commerce.dispute.closed', disputeEventData(closed)];
  }

  private async write(
    uow: UnitOfWork<CommerceTables>,
    d: DisputeRow,
    type: 'dispute_hold' | 'dispute_won' | 'dispute_lost',
    entries: ReturnType<typeof move>,
    now: Date,
  ): Promise<void> {
    const subject = { orderId: d.order_id, paymentId: d.payment_id, disputeId: d.id };
    await this.ledger.withTx(uow.trx).write(d.org_id, type, d.currency_code, subject, entries, now);
  }
}
