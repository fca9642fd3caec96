import type { HourlyService, RenewalDiscount, ServiceBilling } from '../services/index.ts';
import type { BillingContext } from './billing-context.ts';
import { BillingRepository } from './billing-repository.ts';
import type { BillingService } from './billing-service.ts';
import { activeHours, arrearsMinor, monthBefore } from './hourly-arrears.ts';

/** An hourly invoice just made, for the run to pay from credit or remind its payer. */
export interface HourlyInvoiceMade {
  readonly invoiceId: number;
  readonly userId: number;
}

/**
 * Hourly plans billed in arrears: each day's run makes sure every hourly service active in the
 * previous UTC month has its one invoice for that month (made on the month's first day, or on the
 * first day run after it), due that day. A service terminated mid-month is billed for its hours then.
 */
export class HourlyBilling {
  private readonly repo: BillingRepository;

  constructor(
    private readonly ctx: BillingContext,
    private readonly services: ServiceBilling,
    /** Makes each invoice, under the seller rules of a customer's organization. */
    private readonly billing: BillingService,
  ) {
    this.repo = new BillingRepository(ctx.db);
  }

  /** The previous month's invoices not made yet, made now and due at `dayStart`. */
  async invoicePreviousMonth(dayStart: Date): Promise<HourlyInvoiceMade[]> {
    const period = monthBefore(dayStart);
    const done = await this.repo.hourlyInvoicedServices(period.start);
    const made: HourlyInvoiceMade[] = [];
    for (const s of await this.services.hourlyServicesActiveBetween(period.start, period.end)) {
      if (done.has(s.id)) continue;
      const hours = activeHours(period.start, period.end, s.activatedAt, s.terminatedAt);
      const amount = hours === 0 ? null : arrearsMinor(hours, s.price);
      if (amount === null || amount === 0) continue;
      // Its order's coupon, as on renewals; the first month's invoice is the service's first.
      const first = !(await this.repo.hasHourlyInvoice(s.id));
      const discount = await this.services.renewalDiscount(s, amount, first);
      const invoiceId = await this.invoice(s, period.start, hours, amount, dayStart, discount);
      if (invoiceId !== null) made.push({ invoiceId, userId: s.userId });
    }
    return made;
  }

  /** The service of an hourly invoice (its payment lifts a suspension), or null. */
  serviceOf(invoiceId: number): Promise<number | null> {
    return this.repo.hourlyServiceOf(invoiceId);
  }

  /** One invoice and its (service, month) row together; null when another run made it meanwhile. */
  private invoice(
    s: HourlyService,
    periodStart: Date,
    hours: number,
    amountMinor: number,
    due: Date,
    discount: RenewalDiscount | null,
  ): Promise<number | null> {
    const month = periodStart.toISOString().slice(0, 7);
    return this.billing.invoiceServicePeriod(
      s,
      [
        {
          description: `${s.productName} (hourly, ${month}: ${hours} h × ${s.price} ${s.currency})`,
          amountMinor,
        },
        ...(discount === null
          ? []
          : [{ description: discount.description, amountMinor: -discount.discountMinor }]),
      ],
      due,
      (trx, invoiceId) => this.repo.withTx(trx).insertHourlyInvoice(s.id, periodStart, hours, invoiceId),
    );
  }
}
