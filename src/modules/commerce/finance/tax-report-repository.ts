import { sql, type Kysely } from 'kysely';
import type { CommerceTables } from '../commerce-tables.ts';

/** An order's tax facts: where it was shipped, its total and the tax within it. */
export interface TaxedOrder {
  readonly country: string | null;
  readonly currency: string;
  readonly totalMinor: number;
  readonly taxMinor: number;
}

/** A refund with its order's tax facts (the tax refunded is the order's share of it). */
export interface TaxedRefund extends TaxedOrder {
  readonly refundedMinor: number;
}

const country = sql<string | null>`UPPER(o.shipping_address->>'country_code')`;

/** The tax report's SQL: orders placed and refunds made between two instants. */
export class TaxReportRepository {
  constructor(private readonly db: Kysely<CommerceTables>) {}

  async orders(orgId: number, from: Date, to: Date): Promise<TaxedOrder[]> {
    const rows = await this.db
      .selectFrom('commerce_orders as o')
      .select([country.as('country'), 'o.currency', 'o.total_minor', 'o.tax_total_minor'])
      .where('o.org_id', '=', orgId)
      .where('o.display_id', 'is not', null)
      .where('o.placed_at', '>=', from)
      .where('o.placed_at', '<', to)
      .execute();
    return rows.map((r) => ({
      country: r.country,
      currency: r.currency.toUpperCase(),
      totalMinor: Number(r.total_minor),
      taxMinor: Number(r.tax_total_minor),
    }));
  }

  async refunds(orgId: number, from: Date, to: Date): Promise<TaxedRefund[]> {
    const rows = await this.db
      .selectFrom('commerce_refunds as r')
      .innerJoin('commerce_orders as o', 'o.id', 'r.order_id')
      .select([country.as('country'), 'o.currency', 'o.total_minor', 'o.tax_total_minor', 'r.amount_minor'])
      .where('r.org_id', '=', orgId)
      .where('r.created_at', '>=', from)
      .where('r.created_at', '<', to)
      .execute();
    return rows.map((r) => ({
      country: r.country,
      currency: r.currency.toUpperCase(),
      totalMinor: Number(r.total_minor),
      taxMinor: Number(r.tax_total_minor),
      refundedMinor: Number(r.amount_minor),
    }));
  }
}
