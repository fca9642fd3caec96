import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { currencyCodeOf, majorUnits, minorUnits } from '../money/money-amounts.ts';
import { availableMinor } from './finance-view.ts';
import { beforeIdCursor } from './finance-paging.ts';
import { move } from './ledger-book.ts';
import { LedgerRepository } from './ledger-repository.ts';
import { PayoutsRepository, type PayoutRow } from './payouts-repository.ts';

/** A payout as the Commerce API shows it; `amount` in major units. */
export type PayoutView = JsonView<Omit<PayoutRow, 'amount_minor' | 'org_id'>> & { amount: number };

export function payoutView(p: PayoutRow): PayoutView {
  return {
    id: p.id,
    amount: majorUnits(p.amount_minor, p.currency_code),
    currency_code: p.currency_code,
    status: p.status,
    period_start: p.period_start.toISOString(),
    period_end: p.period_end.toISOString(),
    requested_by: Number(p.requested_by),
    created_at: p.created_at.toISOString(),
  };
}

/**
 * Payouts (docs/commerce.md, "Payouts"): an owner or admin, signed in, sends part of the available
 * balance to the shop's bank account. Under the shop's balance lock for the currency, the amount
 * is checked against the available balance (422 naming `amount` above it), the payout is written
 * with its ledger transaction (available → payouts), and `payout.created` goes to the
 * organization's webhooks with `commerce.payout.created`, all in one transaction. It starts
 * `pending` (in transit to the bank).
 */
export class PayoutsService {
  private readonly repo: PayoutsRepository;
  private readonly ledger: LedgerRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
  ) {
    this.repo = new PayoutsRepository(ctx.db);
    this.ledger = new LedgerRepository(ctx.db);
  }

  async list(orgId: number, beforeId: number | undefined, limit: number) {
    const rows = await this.repo.page(orgId, beforeId, limit);
    return beforeIdCursor('payouts', rows.map(payoutView), limit);
  }

  async request(orgId: number, userId: number, body: { amount: number; currency_code: string }) {
    const currency = currencyCodeOf(body.currency_code, ['body', 'currency_code']);
    const minor = minorUnits(body.amount, currency, ['body', 'amount']);
    if (minor <= 0) throw invalidField(['body', 'amount'], 'A payout is more than zero', body.amount);
    return this.log.change(orgId, async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      const ledger = this.ledger.withTx(uow.trx);
      const now = new Date(this.ctx.clock.now());
      await repo.lockBalance(orgId, currency);
      const available = availableMinor(await ledger.sums(orgId, now, currency), currency);
      if (minor > available)
        throw invalidField(
          ['body', 'amount'],
          `More than the available balance (${majorUnits(Math.max(available, 0), currency)} ${currency})`,
          body.amount,
        );
      const payout = await repo.insert({
        org_id: orgId,
        amount_minor: minor,
        currency_code: currency,
        status: 'pending',
        period_start: await repo.periodStart(orgId, currency, now),
        period_end: now,
        requested_by: userId,
        created_at: now,
      });
      await ledger.write(
        orgId,
        'payout',
        currency,
        { payoutId: payout.id },
        move('available', 'payouts', minor),
        now,
      );
      const view = payoutView(payout);
      const data = {
        payout_id: payout.id,
        amount: minor,
        currency_code: currency,
        status: payout.status,
        period_start: view.period_start,
        period_end: view.period_end,
      };
      await uow.record({ orgId, name: 'payout.created', data });
      return { result: view, events: [['commerce.payout.created', data]] };
    });
  }
}
