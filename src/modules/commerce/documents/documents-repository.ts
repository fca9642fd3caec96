import { sql, type Kysely } from 'kysely';
import type { CommerceOrderDocumentRow, CommerceOrderItemRow, CommerceTables } from '../commerce-tables.ts';
import type { DocumentKind, OrderDocument } from './order-document.ts';

/** A placed order's columns a document is made from (minor units as numbers). */
export interface OrderFacts {
  readonly id: number;
  readonly orderNumber: string;
  readonly mode: 'test' | 'live';
  readonly email: string | null;
  readonly currency: string;
  readonly billingAddress: Record<string, unknown> | null;
  readonly shippingAddress: Record<string, unknown> | null;
  readonly subtotal: number;
  readonly shipping: number;
  readonly discount: number;
  readonly tax: number;
  readonly total: number;
  readonly taxRate: number | null;
}

/** An issued document as stored: its row and its snapshot. */
export interface StoredDocument {
  readonly id: number;
  readonly orderId: number;
  readonly document: OrderDocument;
}

/** The shop's settings a seller is described with. */
export interface ShopSellerSettings {
  readonly name: string | null;
  readonly supportEmail: string | null;
  readonly sellerOfRecord: string;
}

const n = (v: string | number): number => Number(v);

/** Order documents, their number counters and the order facts they are made from. */
export class DocumentsRepository {
  constructor(private readonly db: Kysely<CommerceTables>) {}

  /**
   * The next number of a seller's sequence for a kind and year. The counter row is bumped by one
   * `INSERT … ON CONFLICT DO UPDATE … RETURNING`, whose row lock is held until the transaction
   * ends: concurrent issuers wait on it, and a rollback takes the number back (no gap).
   */
  async nextNumber(sellerKey: string, kind: DocumentKind, year: number): Promise<number> {
    const row = await this.db
      .insertInto('commerce_document_counters')
      .values({ seller_key: sellerKey, kind, year, last_number: 1 })
      .onConflict((oc) =>
        oc
          .columns(['seller_key', 'kind', 'year'])
          .doUpdateSet({ last_number: sql<number>`commerce_document_counters.last_number + 1` }),
      )
      .returning('last_number')
      .executeTakeFirstOrThrow();
    return Number(row.last_number);
  }

  async insert(
    row: Omit<CommerceOrderDocumentRow, 'id' | 'snapshot'> & { snapshot: OrderDocument },
  ): Promise<number> {
    const made = await this.db
      .insertInto('commerce_order_documents')
      .values({ ...row, snapshot: JSON.stringify(row.snapshot) as never })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(made.id);
  }

  /** The documents of an order of the organization, oldest first. */
  async ofOrder(orgId: number, orderId: number): Promise<StoredDocument[]> {
    const rows = await this.db
      .selectFrom('commerce_order_documents')
      .select(['id', 'order_id', 'snapshot'])
      .where('org_id', '=', orgId)
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      orderId: Number(r.order_id),
      document: snapshotOf(r.snapshot),
    }));
  }

  /** The invoice of an order, if it has one (what its credit notes correct). */
  async invoiceOf(orderId: number): Promise<OrderDocument | null> {
    const row = await this.db
      .selectFrom('commerce_order_documents')
      .select('snapshot')
      .where('order_id', '=', orderId)
      .where('kind', '=', 'invoice')
      .executeTakeFirst();
    return row === undefined ? null : snapshotOf(row.snapshot);
  }

  async order(orgId: number, orderId: number): Promise<OrderFacts | null> {
    const o = await this.db
      .selectFrom('commerce_orders as o')
      .leftJoin('commerce_regions as r', 'r.id', 'o.region_id')
      .select([
        'o.id',
        'o.order_number',
        'o.mode',
        'o.email',
        'o.currency',
        'o.billing_address',
        'o.shipping_address',
        'o.subtotal_minor',
        'o.shipping_total_minor',
        'o.discount_total_minor',
        'o.tax_total_minor',
        'o.total_minor',
        'r.tax_rate',
      ])
      .where('o.org_id', '=', orgId)
      .where('o.id', '=', orderId)
      .executeTakeFirst();
    if (o === undefined) return null;
    return {
      id: Number(o.id),
      orderNumber: o.order_number,
      mode: o.mode,
      email: o.email,
      currency: o.currency.toUpperCase(),
      billingAddress: o.billing_address,
      shippingAddress: o.shipping_address,
      subtotal: n(o.subtotal_minor),
      shipping: n(o.shipping_total_minor),
      discount: n(o.discount_total_minor),
      tax: n(o.tax_total_minor),
      total: n(o.total_minor),
      taxRate: o.tax_rate === null ? null : Number(o.tax_rate),
    };
  }

  /** The order's items, in the order they were written. */
  async items(orderId: number): Promise<CommerceOrderItemRow[]> {
    return this.db
      .selectFrom('commerce_order_items')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();
  }

  async shopSettings(orgId: number): Promise<ShopSellerSettings> {
    const row = await this.db
      .selectFrom('commerce_store_settings')
      .select(['name', 'support_email', 'seller_of_record'])
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return {
      name: row?.name ?? null,
      supportEmail: row?.support_email ?? null,
      sellerOfRecord: row?.seller_of_record ?? 'organization',
    };
  }
}

/** The driver answers jsonb parsed (PostgreSQL) or as text (some paths): either way, the snapshot. */
function snapshotOf(value: unknown): OrderDocument {
  return (typeof value === 'string' ? JSON.parse(value) : value) as OrderDocument;
}
