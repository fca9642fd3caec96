import type { Kysely, Transaction } from 'kysely';
import type { BillingTables } from './billing-tables.ts';

type Db = Kysely<BillingTables> | Transaction<BillingTables>;

/** The hourly plans' invoices in arrears: one row per service and month. */
export class HourlyInvoiceRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<BillingTables>): HourlyInvoiceRepository {
    return new HourlyInvoiceRepository(trx);
  }

  /** The services already invoiced for the month starting at `periodStart`. */
  async servicesInvoiced(periodStart: Date): Promise<Set<number>> {
    const rows = await this.db
      .selectFrom('billing_hourly_invoices')
      .select('service_id')
      .where('period_start', '=', periodStart)
      .execute();
    return new Set(rows.map((r) => Number(r.service_id)));
  }

  async insert(serviceId: number, periodStart: Date, hours: number, invoiceId: number): Promise<void> {
    await this.db
      .insertInto('billing_hourly_invoices')
      .values({ service_id: serviceId, period_start: periodStart, hours, invoice_id: invoiceId })
      .execute();
  }

  /** The service an hourly invoice bills, or null when `invoiceId` is no hourly invoice. */
  async serviceOf(invoiceId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('billing_hourly_invoices')
      .select('service_id')
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirst();
    return row === undefined ? null : Number(row.service_id);
  }
}
