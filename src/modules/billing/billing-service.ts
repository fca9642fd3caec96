import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { orgRoleAllows, type OwnerScope } from '../../kernel/auth/owner-scope.ts';
import { forbiddenRole } from '../../kernel/errors/kernel-errors.ts';
import { joinTransaction } from '../../kernel/db/unit-of-work.ts';
import { AppError, invalidField } from '../../kernel/errors/app-error.ts';
import { PaymentProviderError, type PaymentProvider } from '../../kernel/payments/payment-provider.ts';
import type { BilledService, Invoicer, OrderToInvoice, ServiceFulfilment } from '../services/index.ts';

/** Who a service's period invoice is for: its holder, organization and customer, its currency. */
export type InvoicedService = Pick<
  BilledService,
  'id' | 'userId' | 'orgId' | 'customerId' | 'productId' | 'currency'
>;
import type { BillingContext } from './billing-context.ts';
import {
  currencyMismatch,
  insufficientCredit,
  invoiceNotFound,
  invoiceNotPayable,
  paymentDeclined,
  paymentProviderUnavailable,
} from './billing-errors.ts';
import { BillingRepository } from './billing-repository.ts';
import { invoiceTotals, statusesOf, transactionTotals, typesOf } from './list-totals.ts';
import type { CustomerSales } from './customer-sales.ts';
import { InvoiceRefunds, type RefundTarget } from './billing-refunds.ts';
import type { BillingTables, InvoiceRow, TransactionType } from './billing-tables.ts';
import {
  invoiceSummaryView,
  invoiceView,
  transactionView,
  type InvoiceSummaryView,
  type InvoiceView,
  type TransactionView,
} from './billing-view.ts';
import { amountOf, majorOf, minorOf } from './money.ts';

/** Credit is held in one currency, the catalogue's. */
export const CREDIT_CURRENCY = 'EUR';
/** The `gateway` of an invoice of 0 paid without a charge (its `invoice.paid` event says so). */
export const NOTHING_CHARGED = 'none';
/** The largest single top-up, in major units. */
export const MAX_TOP_UP = 10_000;

/** The `type_filter` words of an account's transactions. */
export const TYPE_FILTERS = ['payment', 'refund', 'credit', 'credit_add', 'credit_deduct'] as const;
const TYPES: readonly TransactionType[] = ['payment', 'refund', 'credit_add', 'credit_deduct'];

export interface PageQuery {
  readonly page: number;
  readonly limit: number;
  readonly with_total?: boolean;
}

export interface Paged<T> {
  readonly items: T[];
  readonly total: number;
  readonly page: number;
  readonly limit: number;
  readonly counts: Record<string, number>;
}

export interface PayBody {
  readonly method: 'credit' | 'card';
  readonly payment_method?: string;
}

/**
 * Invoices (priced orders become one, through the services registry's Invoicer port), payments of
 * an invoice from credit or by card through the payment provider, credit top-ups, and the ledger.
 * Every change of money is one transaction: the invoice, the ledger row (its balance_after computed
 * under the account's lock) and the outbox event commit together.
 */
export class BillingService implements Invoicer {
  private readonly repo: BillingRepository;
  private readonly refunds: InvoiceRefunds;
  /** Told once an invoice is paid (the daily run moves a renewed service's due date on). */
  onPaid: (invoiceId: number) => Promise<void> = async () => {};

  constructor(
    private readonly ctx: BillingContext,
    private readonly provider: PaymentProvider,
    private readonly fulfilment: ServiceFulfilment,
    private readonly random: () => string = randomUUID,
    /** Who sells to organizations' customers (absent: every invoice is an account's). */
    private readonly sales: CustomerSales | null = null,
  ) {
    this.repo = new BillingRepository(ctx.db);
    this.refunds = new InvoiceRefunds(ctx, provider, CREDIT_CURRENCY);
  }

  /** An operator's refund of a paid invoice (all of what is left when `amountMinor` is null): InvoiceRefunds. */
  refund(invoiceId: number, amountMinor: number | null, to: RefundTarget): Promise<InvoiceView> {
    return this.refunds.refund(invoiceId, amountMinor, to);
  }

  /** Inside the order's transaction: one `unpaid` invoice due now for the ordered service. */
  async invoiceOrder(
    trx: Transaction<unknown>,
    order: OrderToInvoice,
    afterCommit?: (work: () => Promise<void>) => void,
  ): Promise<{ readonly invoiceId: number }> {
    const own = joinTransaction<BillingTables>(trx);
    const repo = this.repo.withTx(own);
    const lines = order.lines.map((l) => {
      // A negative line is a discount (a coupon's), never more than the lines before it.
      const negative = l.unitPrice.startsWith('-');
      const magnitude = minorOf(negative ? l.unitPrice.slice(1) : l.unitPrice);
      if (magnitude === null) throw new Error(`not a price: ${l.unitPrice}`);
      const unit = negative ? -magnitude : magnitude;
      return {
        description: l.description,
        quantity: l.quantity,
        unit_amount_minor: unit,
        amount_minor: unit * l.quantity,
        service_id: order.serviceId,
      };
    });
    const subtotal = lines.reduce((sum, l) => sum + l.amount_minor, 0);
    const at = new Date(this.ctx.clock.now());
    const values = {
      user_id: order.userId,
      org_id: order.orgId,
      status: 'unpaid' as const,
      currency: order.currency,
      subtotal_minor: subtotal,
      tax_minor: 0,
      total_minor: subtotal,
      due_at: at,
    };
    if (order.customerId !== null && order.orgId !== null) {
      if (this.sales === null || order.org === undefined)
        throw new Error('an order for a customer names its organization');
      const sale = { org: order.org, customerId: order.customerId, productId: order.productId };
      const made = await this.sales.invoice(own, { ...sale, invoice: values, lines, at });
      const wholesaleId = made.wholesaleId;
      if (wholesaleId !== null) afterCommit?.(() => this.payWholesale(wholesaleId));
      if (subtotal === 0) afterCommit?.(() => this.payNothingDue(made.invoiceId));
      return { invoiceId: made.invoiceId };
    }
    const invoice = await repo.insertInvoice(values, lines, at);
    if (subtotal === 0) afterCommit?.(() => this.payNothingDue(invoice.id));
    return { invoiceId: invoice.id };
  }

  /**
   * An order's invoice of 0 (a coupon took all of it off) is paid once the order commits, as a
   * payment platform closes a zero invoice by itself: its service is provisioned without a pay call.
   */
  private async payNothingDue(invoiceId: number): Promise<void> {
    if (await this.payFromCreditIfCovered(invoiceId)) await this.afterPaid(invoiceId);
  }

  /** A wholesale invoice is paid at once from the organization owner's credit when it covers it. */
  async payWholesale(invoiceId: number): Promise<void> {
    if (await this.payFromCreditIfCovered(invoiceId)) await this.afterPaid(invoiceId);
  }

  async invoices(
    owner: OwnerScope,
    q: PageQuery & { status_filter?: string },
  ): Promise<InvoiceSummaryView[] | Paged<InvoiceSummaryView>> {
    const statuses = statusesOf(q.status_filter);
    const rows = await this.repo.listInvoices(owner, statuses, q.limit, (q.page - 1) * q.limit);
    const items = rows.map(invoiceSummaryView);
    if (q.with_total !== true) return items;
    const { total, counts } = invoiceTotals(await this.repo.invoiceCounts(owner), statuses);
    return { items, total, page: q.page, limit: q.limit, counts };
  }

  async invoice(owner: OwnerScope, id: number): Promise<InvoiceView> {
    const row = await this.repo.findOwned(owner, id, 'read');
    if (row === null) throw invoiceNotFound();
    return invoiceView(row, await this.repo.lines(row.id));
  }

  /**
   * Pays what is due on an open invoice, from credit or by card. A decline (402 with the
   * provider's reason) changes nothing; a payment marks the invoice paid, writes the ledger row and
   * `invoice.paid` to the outbox in one transaction, then the services it pays for are provisioned.
   */
  async pay(owner: OwnerScope, id: number, body: PayBody, key: string | undefined): Promise<InvoiceView> {
    const invoice = await this.repo.findOwned(owner, id, 'read');
    if (invoice === null) throw invoiceNotFound();
    // An organization's members see its invoices; its owners and admins pay them.
    if (invoice.org_id !== null && !orgRoleAllows(owner.orgRoles.get(invoice.org_id), 'write'))
      throw forbiddenRole();
    await this.payOpen(invoice, body, key, { userId: owner.userId, payer: `user:${owner.userId}` });
    return this.invoice(owner, invoice.id);
  }

  /**
   * Pays what is due on an open invoice (an account's, or a customer's: its own ledger), then
   * provisions the services it pays for.
   */
  async payOpen(
    invoice: InvoiceRow,
    body: PayBody,
    key: string | undefined,
    by: { readonly userId: number; readonly payer: string },
  ): Promise<void> {
    if (invoice.status !== 'unpaid' && invoice.status !== 'overdue') throw invoiceNotPayable(invoice.status);
    const due = invoice.total_minor - invoice.amount_paid_minor;
    if (due <= 0) {
      // Nothing to take (a coupon took all of it off): paid without asking the provider for 0.
      await this.settle(by.userId, invoice, 0, NOTHING_CHARGED, null);
    } else if (body.method === 'credit') {
      if (invoice.currency !== CREDIT_CURRENCY) throw currencyMismatch(CREDIT_CURRENCY);
      await this.settle(by.userId, invoice, due, 'credit', null);
    } else {
      const charge = await this.charge({
        amountMinor: due,
        currency: invoice.currency.toLowerCase(),
        paymentMethod: body.payment_method ?? null,
        payer: by.payer,
        description: `Invoice ${invoice.number}`,
        // A corrected retry under the same key (another card) is another charge at the provider.
        idempotencyKey: `billing.invoice:${invoice.id}:${key ?? this.random()}:${body.payment_method ?? ''}`,
        metadata: { invoice_id: String(invoice.id), invoice_number: invoice.number },
      });
      try {
        await this.settle(by.userId, invoice, due, charge.gateway, charge.reference);
      } catch (error) {
        // Paid meanwhile by another request: give this charge back rather than take it twice.
        await this.provider.refund({
          reference: charge.reference,
          amountMinor: due,
          idempotencyKey: `billing.refund:${charge.reference}`,
        });
        throw error;
      }
    }
    await this.afterPaid(invoice.id);
  }

  /** A paid invoice: its pending services are provisioned, a renewal moves its due date on. */
  private async afterPaid(invoiceId: number): Promise<void> {
    const lines = await this.repo.lines(invoiceId);
    const serviceIds = [...new Set(lines.flatMap((l) => (l.service_id === null ? [] : [l.service_id])))];
    await this.fulfilment.provisionPaid(serviceIds);
    await this.onPaid(invoiceId);
  }

  /**
   * The daily run: an `unpaid` invoice of one period of `service` (a renewal, or an hourly plan's
   * month in arrears), one line each of `periodLines` (a renewal's coupon a negative one after the
   * period's, never more than it), due at `dueAt`; `link` records it (service, period) in the same
   * transaction (null when another run made it meanwhile).
   */
  async invoiceServicePeriod(
    service: InvoicedService,
    periodLines: readonly { readonly description: string; readonly amountMinor: number }[],
    dueAt: Date,
    link: (trx: Transaction<BillingTables>, invoiceId: number) => Promise<void>,
  ): Promise<number | null> {
    const at = new Date(this.ctx.clock.now());
    const lines = periodLines.map((l) => ({
      description: l.description,
      quantity: 1,
      unit_amount_minor: l.amountMinor,
      amount_minor: l.amountMinor,
      service_id: service.id,
    }));
    const subtotal = lines.reduce((sum, l) => sum + l.amount_minor, 0);
    const values = {
      user_id: service.userId,
      org_id: service.orgId,
      status: 'unpaid' as const,
      currency: service.currency,
      subtotal_minor: subtotal,
      tax_minor: 0,
      total_minor: subtotal,
      due_at: dueAt,
    };
    // A customer's service is invoiced under the organization's seller rules (read before the transaction).
    const org =
      service.customerId !== null && service.orgId !== null && this.sales !== null
        ? await this.sales.org(service.orgId)
        : null;
    try {
      return await this.ctx.transaction(async (uow) => {
        let invoiceId: number;
        if (org !== null && this.sales !== null) {
          const sale = { org, customerId: service.customerId!, productId: service.productId };
          const made = await this.sales.invoice(uow.trx, { ...sale, invoice: values, lines, at });
          invoiceId = made.invoiceId;
          const wholesaleId = made.wholesaleId;
          if (wholesaleId !== null) uow.afterCommit(() => this.payWholesale(wholesaleId));
        } else {
          invoiceId = (await this.repo.withTx(uow.trx).insertInvoice(values, lines, at)).id;
        }
        await link(uow.trx, invoiceId);
        return invoiceId;
      });
    } catch (error) {
      // The (service, period) key was taken by another run: its invoice stands.
      if (/duplicate key|unique/i.test(String((error as Error).message))) return null;
      throw error;
    }
  }

  /** The daily run: pays an open invoice from its payer's credit when the balance covers it. */
  async payFromCreditIfCovered(invoiceId: number): Promise<boolean> {
    const invoice = await this.repo.findById(invoiceId);
    if (invoice === null || (invoice.status !== 'unpaid' && invoice.status !== 'overdue')) return false;
    const due = invoice.total_minor - invoice.amount_paid_minor;
    // An invoice of 0 is paid in any currency (no credit moves): it must not stay open and overdue.
    if (due <= 0) return this.settleFree(invoice);
    if (invoice.currency !== CREDIT_CURRENCY) return false;
    const balance = await this.repo.balance({ userId: invoice.user_id, customerId: invoice.customer_id });
    if (balance < due) return false;
    try {
      await this.settle(invoice.user_id, invoice, due, 'credit', null);
    } catch (error) {
      // Spent or paid meanwhile: the invoice stays open for its payer.
      if (error instanceof AppError) return false;
      throw error;
    }
    return true;
  }

  private async settleFree(invoice: InvoiceRow): Promise<boolean> {
    try {
      await this.settle(invoice.user_id, invoice, 0, NOTHING_CHARGED, null);
    } catch (error) {
      if (error instanceof AppError) return false;
      throw error;
    }
    return true;
  }

  private async charge(
    request: Parameters<PaymentProvider['charge']>[0],
  ): Promise<{ gateway: string; reference: string }> {
    let result;
    try {
      result = await this.provider.charge(request);
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      this.ctx.log.warn({ err: error, gateway: error.gateway }, 'payment provider failed');
      throw paymentProviderUnavailable();
    }
    if (result.status === 'declined') throw paymentDeclined(result.reason);
    return { gateway: result.gateway, reference: result.reference };
  }

  private async settle(
    userId: number,
    invoice: InvoiceRow,
    due: number,
    gateway: string,
    reference: string | null,
  ): Promise<void> {
    const at = new Date(this.ctx.clock.now());
    const customerId = invoice.customer_id;
    // The organization's fee, read before the transaction (which may hold the only connection).
    const org =
      customerId !== null && invoice.org_id !== null && this.sales !== null
        ? await this.sales.org(invoice.org_id)
        : null;
    await this.ctx.transaction(async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      // A customer's invoice moves the customer's own ledger, under the customer's lock.
      const balance = await repo.lockLedger({ userId, customerId });
      const fromCredit = gateway === 'credit';
      if (fromCredit && balance < due) throw insufficientCredit();
      // Paid meanwhile by another request: this one must not take the money twice.
      if (!(await repo.markPaid(invoice.id, due, at))) throw invoiceNotPayable('paid');
      // An invoice of 0 (a coupon took all of it off) is paid without moving money: no ledger row.
      if (due > 0)
        await repo.insertTransaction(
          {
            user_id: userId,
            org_id: invoice.org_id,
            customer_id: customerId,
            type: fromCredit ? 'credit_deduct' : 'payment',
            amount_minor: due,
            credit_delta_minor: fromCredit ? -due : 0,
            currency: invoice.currency,
            balance_after_minor: fromCredit ? balance - due : balance,
            invoice_id: invoice.id,
            gateway,
            reference,
          },
          at,
        );
      await this.sales?.settle(uow.trx, invoice, org, due, at);
      await uow.record({
        orgId: invoice.org_id,
        name: 'invoice.paid',
        data: {
          invoice_id: invoice.id,
          invoice_number: invoice.number,
          amount: majorOf(due),
          customer_id: customerId,
          gateway,
        },
      });
    });
  }

  /**
   * At start: services of invoices paid in the last 7 days that are still `pending` — their
   * process stopped between the payment's commit and provisioning — are provisioned now (each is
   * claimed once, so several processes starting together provision it once).
   */
  async catchUp(): Promise<void> {
    const since = new Date(this.ctx.clock.now() - 7 * 24 * 3600_000);
    await this.fulfilment.provisionPaid(await this.repo.paidServiceIds(since));
  }

  async credit(owner: OwnerScope): Promise<{ balance: number; currency: string }> {
    return {
      balance: majorOf(await this.repo.balance({ userId: owner.userId, customerId: null })),
      currency: CREDIT_CURRENCY,
    };
  }

  /** Adds credit paid through the provider: a `credit_add` row. */
  async topUp(
    owner: OwnerScope,
    body: { amount: string | number; payment_method?: string },
    key: string | undefined,
  ): Promise<TransactionView> {
    const amount = amountOf(body.amount);
    if (amount === null || amount <= 0 || amount > MAX_TOP_UP * 100)
      throw invalidField(
        ['body', 'amount'],
        `Should be a decimal greater than 0 and at most ${MAX_TOP_UP}, with at most 2 decimals`,
        body.amount,
      );
    const charge = await this.charge({
      amountMinor: amount,
      currency: CREDIT_CURRENCY.toLowerCase(),
      paymentMethod: body.payment_method ?? null,
      payer: `user:${owner.userId}`,
      description: 'Credit top-up',
      idempotencyKey: `billing.top-up:${owner.userId}:${key ?? this.random()}:${amount}:${body.payment_method ?? ''}`,
      metadata: { user_id: String(owner.userId) },
    });
    const at = new Date(this.ctx.clock.now());
    const row = await this.ctx.transaction(async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      const balance = await repo.lockLedger({ userId: owner.userId, customerId: null });
      return repo.insertTransaction(
        {
          user_id: owner.userId,
          type: 'credit_add',
          amount_minor: amount,
          credit_delta_minor: amount,
          currency: CREDIT_CURRENCY,
          balance_after_minor: balance + amount,
          invoice_id: null,
          gateway: charge.gateway,
          reference: charge.reference,
        },
        at,
      );
    });
    return transactionView(row);
  }

  async transactions(
    owner: OwnerScope,
    q: PageQuery & { type_filter?: string },
  ): Promise<TransactionView[] | Paged<TransactionView>> {
    const types = typesOf(q.type_filter, TYPE_FILTERS);
    const rows = await this.repo.listTransactions(
      { userId: owner.userId, customerId: null },
      types,
      q.limit,
      (q.page - 1) * q.limit,
    );
    const items = rows.map(transactionView);
    if (q.with_total !== true) return items;
    const per = await this.repo.transactionCounts({ userId: owner.userId, customerId: null });
    const { total, counts } = transactionTotals(per, TYPES, types, true);
    return { items, total, page: q.page, limit: q.limit, counts };
  }
}
