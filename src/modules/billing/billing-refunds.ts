import { invalidField } from '../../kernel/errors/app-error.ts';
import { PaymentProviderError, type PaymentProvider } from '../../kernel/payments/payment-provider.ts';
import type { BillingContext } from './billing-context.ts';
import {
  currencyMismatch,
  invoiceNotFound,
  invoiceNotRefundable,
  paymentProviderUnavailable,
} from './billing-errors.ts';
import { BillingRepository } from './billing-repository.ts';
import type { InvoiceRow, TransactionRow } from './billing-tables.ts';
import { invoiceView, type InvoiceView } from './billing-view.ts';
import { majorOf } from './money.ts';

/** Where a refund goes: back the way it was paid (the card, or credit), or to credit whatever paid it. */
export type RefundTarget = 'original' | 'credit';

/**
 * Refunds of a paid invoice, by an operator or (its customers' invoices) an organization: all or part of what is left (paid minus refunded).
 * A card payment goes back through the payment provider (once per refund, under an idempotency key
 * naming the invoice and what was refunded before); credit, or any refund `to: 'credit'`, goes back
 * to the payer's credit. The invoice, the ledger row (`refund`, its balance_after under the
 * payer's ledger lock: the account's, or a storefront customer's own) and `invoice.refunded` commit together; a full refund makes the invoice `refunded`.
 * The services the invoice paid for are left as they are.
 */
export class InvoiceRefunds {
  private readonly invoices: BillingRepository;

  constructor(
    private readonly ctx: BillingContext,
    private readonly provider: PaymentProvider,
    /** The one currency credit is held in. */
    private readonly creditCurrency: string,
  ) {
    this.invoices = new BillingRepository(ctx.db);
  }

  async refund(invoiceId: number, amountMinor: number | null, to: RefundTarget): Promise<InvoiceView> {
    const invoice = await this.invoices.findById(invoiceId);
    if (invoice === null) throw invoiceNotFound();
    const left = invoice.amount_paid_minor - invoice.amount_refunded_minor;
    if (invoice.status !== 'paid' || left <= 0) throw invoiceNotRefundable(`it is ${invoice.status}`);
    const amount = amountMinor ?? left;
    if (!Number.isSafeInteger(amount) || amount <= 0 || amount > left)
      throw invalidField(
        ['body', 'amount'],
        `Should be greater than 0 and at most ${majorOf(left)} (paid minus refunded)`,
        amountMinor === null ? null : majorOf(amountMinor),
      );
    const paidBy = (await this.invoices.ledgerOf(invoice.id)).find(
      (r) => r.type === 'payment' || r.type === 'credit_deduct',
    );
    if (paidBy === undefined) throw invoiceNotRefundable('no payment of it is recorded');
    const toCard = to === 'original' && paidBy.type === 'payment';
    if (!toCard && invoice.currency !== this.creditCurrency) throw currencyMismatch(this.creditCurrency);
    const back = toCard
      ? await this.toCard(invoice, paidBy.gateway, paidBy.reference!, amount)
      : { gateway: 'credit', reference: null };
    await this.record(invoice, paidBy, amount, back.gateway, back.reference);
    const row = (await this.invoices.findById(invoice.id))!;
    return invoiceView(row, await this.invoices.lines(row.id));
  }

  /** The provider gives `amount` of the charge back; a retry of the same refund is the same one. */
  private async toCard(
    invoice: InvoiceRow,
    gateway: string,
    reference: string,
    amount: number,
  ): Promise<{ gateway: string; reference: string }> {
    if (gateway !== this.provider.gateway)
      throw invoiceNotRefundable(
        `paid through ${gateway}, which this deployment does not use: refund to credit`,
      );
    try {
      const done = await this.provider.refund({
        reference,
        amountMinor: amount,
        idempotencyKey: `billing.invoice-refund:${invoice.id}:${invoice.amount_refunded_minor}`,
      });
      return { gateway, reference: done.reference };
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      this.ctx.log.warn({ err: error, gateway }, 'payment provider refund failed');
      throw paymentProviderUnavailable();
    }
  }

  /** The refund goes to the ledger the payment came from: its payer's account, or its customer's own. */
  private async record(
    invoice: InvoiceRow,
    paidBy: TransactionRow,
    amount: number,
    gateway: string,
    reference: string | null,
  ): Promise<void> {
    const at = new Date(this.ctx.clock.now());
    const toCredit = gateway === 'credit';
    await this.ctx.transaction(async (uow) => {
      const repo = this.invoices.withTx(uow.trx);
      const balance = await repo.lockLedger({ userId: paidBy.user_id, customerId: paidBy.customer_id });
      if (!(await repo.addRefunded(invoice.id, invoice.amount_refunded_minor, amount)))
        throw invoiceNotRefundable('refunded meanwhile');
      await repo.insertTransaction(
        {
          user_id: paidBy.user_id,
          org_id: invoice.org_id,
          customer_id: paidBy.customer_id,
          type: 'refund',
          amount_minor: amount,
          credit_delta_minor: toCredit ? amount : 0,
          currency: invoice.currency,
          balance_after_minor: toCredit ? balance + amount : balance,
          invoice_id: invoice.id,
          gateway,
          reference,
        },
        at,
      );
      await uow.record({
        orgId: invoice.org_id,
        name: 'invoice.refunded',
        data: {
          invoice_id: invoice.id,
          invoice_number: invoice.number,
          amount: majorOf(amount),
          amount_refunded: majorOf(invoice.amount_refunded_minor + amount),
          to: toCredit ? 'credit' : 'card',
          customer_id: invoice.customer_id,
          gateway,
        },
      });
    });
  }
}
