import type { BillingContext } from './billing-context.ts';
import type { BillingService } from './billing-service.ts';
import { BillingRepository, CustomerBillingRepository } from './billing-repository.ts';
import { HourlyBilling } from './billing-hourly.ts';
import type { AccountsDirectory } from '../identity/index.ts';
import type { ServiceBilling } from '../services/index.ts';
import { majorOf, minorOf } from './money.ts';
import type { CustomerSales } from './customer-sales.ts';

const DAY = 24 * 3600_000;
/** How long one process holds a day before another may resume it. */
const LEASE_MS = 15 * 60_000;

export interface BillingRunSettings {
  readonly invoiceDaysBefore: number;
  readonly suspendAfterDays: number;
  readonly terminateAfterDays: number;
}

export interface BillingRunResult {
  readonly day: string;
  /** False when the day was already run (or another process runs it now): nothing was done. */
  readonly ran: boolean;
  /** Renewal invoices made. */
  readonly invoiced: number;
  /** Hourly plans' invoices in arrears made (the previous month's hours). */
  readonly hourly: number;
  /** Invoices of either kind paid at once from credit. */
  readonly paidFromCredit: number;
  readonly overdue: number;
  readonly suspended: number;
  readonly terminated: number;
}

/** The UTC day of an instant, `YYYY-MM-DD`, and its midnight. */
const dayOf = (d: Date): string => d.toISOString().slice(0, 10);
const midnight = (day: string): number => Date.parse(`${day}T00:00:00.000Z`);

/**
 * The daily billing run for one day: renewal invoices `invoiceDaysBefore` days before a service's
 * next_due_date and hourly plans' invoices for the previous month (paid at once from credit when it
 * covers them), services cancelled at the end of their period ended at next_due_date, unpaid
 * renewal and hourly invoices past due made `overdue`, their services suspended after
 * `suspendAfterDays` and terminated after `terminateAfterDays`. One process runs a day (a lease row
 * in billing_runs); a finished day does nothing; each step is idempotent on its own, so a run that
 * stopped midway resumes.
 */
export class BillingRun {
  private readonly repo: BillingRepository;
  private readonly hourly: HourlyBilling;

  constructor(
    private readonly ctx: BillingContext,
    private readonly billing: BillingService,
    private readonly services: ServiceBilling,
    private readonly settings: BillingRunSettings,
    private readonly accounts: AccountsDirectory,
    /** Organizations' billing modes (absent: no organization is told of its customers' invoices). */
    private readonly sales: CustomerSales | null = null,
  ) {
    this.repo = new BillingRepository(ctx.db);
    this.hourly = new HourlyBilling(ctx, services, billing);
  }

  async run(asOf: Date): Promise<BillingRunResult> {
    const day = dayOf(asOf);
    const result = {
      day,
      ran: false,
      invoiced: 0,
      hourly: 0,
      paidFromCredit: 0,
      overdue: 0,
      suspended: 0,
      terminated: 0,
    };
    const now = new Date(this.ctx.clock.now());
    if (!(await this.repo.claimDay(day, now, new Date(now.getTime() + LEASE_MS)))) return result;
    const start = midnight(day);
    // (a) Renewals: services due on or before the day `invoiceDaysBefore` days ahead.
    const horizon = new Date(start + (this.settings.invoiceDaysBefore + 1) * DAY - 1);
    for (const s of await this.services.dueBy(horizon)) {
      if (s.status === 'pending_termination') continue;
      if (await this.repo.renewalExists(s.id, s.nextDueDate)) continue;
      const unit = minorOf(s.price);
      if (unit === null || unit === 0) continue;
      // A coupon that discounts every invoice takes its part off each renewal too.
      const discount = await this.services.renewalDiscount(s, unit);
      const invoiceId = await this.billing.invoiceServicePeriod(
        s,
        [
          { description: `${s.productName} (${s.billingCycle}, renewal)`, amountMinor: unit },
          ...(discount === null
            ? []
            : [{ description: discount.description, amountMinor: -discount.discountMinor }]),
        ],
        s.nextDueDate,
        async (trx, id) => this.repo.withTx(trx).insertRenewal(s.id, s.nextDueDate, id),
      );
      if (invoiceId === null) continue;
      result.invoiced++;
      if (await this.billing.payFromCreditIfCovered(invoiceId)) {
        result.paidFromCredit++;
        await this.renewalPaid(invoiceId);
      } else {
        await this.remind(s.userId, invoiceId, 'is due');
      }
    }
    // (a') Hourly plans in arrears: the previous month's hours, due today.
    for (const made of await this.hourly.invoicePreviousMonth(new Date(start))) {
      result.hourly++;
      if (await this.billing.payFromCreditIfCovered(made.invoiceId)) result.paidFromCredit++;
      else await this.remind(made.userId, made.invoiceId, 'is due');
    }
    await this.announceCustomerInvoices(start);
    // (c) Cancelled at the end of the period: ended at next_due_date.
    for (const s of await this.services.dueBy(new Date(start + DAY - 1))) {
      if (s.status !== 'pending_termination') continue;
      await this.services.terminateNow(s.id, 'Service terminated at the end of its period');
      result.terminated++;
    }
    // (b) Dunning: unpaid renewal and hourly invoices due before this day.
    for (const { invoice, serviceId } of await this.repo.openRenewalsDueBefore(new Date(start))) {
      if (await this.repo.setInvoiceStatus(invoice.id, ['unpaid'], 'overdue')) {
        result.overdue++;
        await this.remind(invoice.user_id, invoice.id, 'is overdue');
      }
      const late = Math.floor((start - midnight(dayOf(new Date(invoice.due_at)))) / DAY);
      if (late >= this.settings.terminateAfterDays) {
        await this.services.terminateNow(serviceId, `Service terminated: invoice ${invoice.number} unpaid`);
        await this.repo.setInvoiceStatus(invoice.id, ['overdue'], 'cancelled');
        result.terminated++;
      } else if (late >= this.settings.suspendAfterDays) {
        await this.services.suspendUnpaid(serviceId, `Invoice ${invoice.number} is overdue`);
        result.suspended++;
      }
    }
    await this.repo.finishDay(day, new Date(this.ctx.clock.now()));
    return { ...result, ran: true };
  }

  /**
   * `invoice.created` {count, generated_at} to each organization whose customers got renewal
   * invoices this day from the platform (platform_mor or hybrid; a merchant_of_record organization
   * invoices its customers itself and is told nothing).
   */
  private async announceCustomerInvoices(start: number): Promise<void> {
    if (this.sales === null) return;
    const repo = new CustomerBillingRepository(this.ctx.db);
    const perOrg = await repo.renewalsPerOrg(new Date(start), new Date(start + DAY));
    const generatedAt = new Date(this.ctx.clock.now()).toISOString();
    for (const [orgId, count] of perOrg) {
      const org = await this.sales.org(orgId);
      if (org === null || org.billingMode === 'merchant_of_record') continue;
      await this.ctx.transaction(async (uow) => {
        await uow.record({ orgId, name: 'invoice.created', data: { count, generated_at: generatedAt } });
      });
    }
  }

  /**
   * A reminder to the payer through the mail port. Best effort: a mail that cannot be sent is
   * logged, and the run goes on (the invoice is in the account's list whatever happens to mail).
   */
  private async remind(userId: number, invoiceId: number, state: string): Promise<void> {
    try {
      const [account] = await this.accounts.usersByIds([userId]);
      const invoice = await this.repo.findById(invoiceId);
      // A customer's invoice is the customer's to pay, in the organization's portal: the account holding
      // the service is not reminded of it.
      if (account === undefined || invoice === null || invoice.customer_id !== null) return;
      const due = majorOf(invoice.total_minor - invoice.amount_paid_minor);
      await this.ctx.mail.send({
        to: String(account.email),
        subject: `Invoice ${invoice.number} ${state}`,
        text:
          `Invoice ${invoice.number} of ${due} ${invoice.currency} ${state} ` +
          `(due ${new Date(invoice.due_at).toISOString().slice(0, 10)}).\n` +
          `Pay it from your account: POST /api/v1/billing/invoices/${invoice.id}/pay\n`,
      });
    } catch (error) {
      this.ctx.log.warn({ err: error, invoiceId }, 'billing reminder not sent');
    }
  }

  /**
   * A renewal invoice is paid (by the run or by its payer): the due date moves on, a suspension
   * lifts; an hourly invoice paid lifts its service's suspension.
   */
  async renewalPaid(invoiceId: number): Promise<void> {
    const renewal = await this.repo.renewalOf(invoiceId);
    if (renewal === null) {
      const hourlyService = await this.hourly.serviceOf(invoiceId);
      if (hourlyService !== null) await this.services.unsuspendPaid(hourlyService);
      return;
    }
    await this.services.advanceDueDate(renewal.serviceId, renewal.periodStart);
    await this.services.unsuspendPaid(renewal.serviceId);
  }
}
