import { sql, type Kysely, type Transaction } from 'kysely';
import type { Clock } from '../../../kernel/clock.ts';
import type {
  CommerceInventoryReservationRow,
  CommerceOrderCheckoutRow,
  CommerceOrderExtraRow,
  CommerceOrderItemRow,
  CommerceOrderRow,
  CommercePaymentRow,
  CommerceTables,
} from '../commerce-tables.ts';
import { majorUnits } from '../money/money-amounts.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

/** An order row with every column (the list's, the edits', the checkout's). */
export type PlacedOrderRow = CommerceOrderRow & CommerceOrderExtraRow & CommerceOrderCheckoutRow;

/** What a completion knows of the order it places; amounts in integer minor units of `currency`. */
export interface PlacedOrderInput {
  readonly org_id: number;
  readonly display_id: number;
  readonly email: string;
  readonly customer_id?: number | null;
  /** ISO 4217, any case: stored in upper case as every order row is. */
  readonly currency: string;
  readonly mode: 'test' | 'live';
  readonly cart_id: number | null;
  readonly region_id: number | null;
  readonly sales_channel_id: number | null;
  readonly shipping_address: Record<string, unknown> | null;
  readonly billing_address: Record<string, unknown> | null;
  readonly subtotal_minor: number;
  readonly shipping_total_minor: number;
  readonly tax_total_minor: number;
  readonly discount_total_minor: number;
  readonly total_minor: number;
  readonly payment_status?: string;
  readonly fulfillment_status?: string;
  readonly metadata?: Record<string, unknown>;
}

export interface PlacedOrderItemInput {
  readonly variant_id: number | null;
  readonly product_id: number | null;
  readonly title: string;
  readonly sku: string | null;
  readonly quantity: number;
  readonly unit_price_minor: number;
  readonly subtotal_minor: number;
  readonly tax_minor?: number;
  readonly requires_shipping?: boolean;
  readonly metadata?: Record<string, unknown>;
}

export interface PlacedPaymentInput {
  readonly org_id: number;
  readonly order_id: number;
  readonly provider: string;
  readonly reference: string;
  readonly currency_code: string;
  readonly amount_minor: number;
  readonly captured_minor?: number;
  readonly status: string;
}

export interface PlacedReservationInput {
  readonly org_id: number;
  readonly order_item_id: number;
  readonly sku: string;
  readonly stock_location_id: number;
  readonly quantity: number;
}

export interface PlacedOrderWithItems {
  readonly order: PlacedOrderRow;
  readonly items: CommerceOrderItemRow[];
}

/** The order number the admin lists show for a display id: `#1001`. */
export const orderNumberOf = (displayId: number): string => `#${displayId}`;

const json = (value: unknown): never => JSON.stringify(value) as never;

/**
 * The orders the Store API places and reads: written by a cart's completion inside its own
 * transaction (`withTx`), read by the shopper's order routes. Times come from the module's clock.
 */
export class PlacedOrdersRepository {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  withTx(trx: Transaction<CommerceTables>): PlacedOrdersRepository {
    return new PlacedOrdersRepository(trx, this.clock);
  }

  /**
   * The organization's next display id (1, 2, 3, ...): one statement that creates or bumps the
   * counter row, so concurrent completions wait on that row's lock and never share a number.
   */
  async nextDisplayId(orgId: number): Promise<number> {
    const row = await this.db
      .insertInto('commerce_order_counters')
      .values({ org_id: orgId, last_display_id: 1 })
      .onConflict((oc) =>
        oc
          .column('org_id')
          .doUpdateSet({ last_display_id: sql<number>`commerce_order_counters.last_display_id + 1` }),
      )
      .returning('last_display_id')
      .executeTakeFirstOrThrow();
    return Number(row.last_display_id);
  }

  async insertOrder(input: PlacedOrderInput): Promise<PlacedOrderRow> {
    const at = new Date(this.clock.now());
    const currency = input.currency.toUpperCase();
    const row = await this.db
      .insertInto('commerce_orders')
      .values({
        org_id: input.org_id,
        display_id: input.display_id,
        order_number: orderNumberOf(input.display_id),
        email: input.email,
        customer_id: input.customer_id ?? null,
        status: 'pending',
        currency,
        // The lists' older column, in major units (numeric); the *_minor columns are the truth.
        total: String(majorUnits(input.total_minor, currency)),
        mode: input.mode,
        cart_id: input.cart_id,
        region_id: input.region_id,
        sales_channel_id: input.sales_channel_id,
        shipping_address: input.shipping_address === null ? null : json(input.shipping_address),
        billing_address: input.billing_address === null ? null : json(input.billing_address),
        subtotal_minor: input.subtotal_minor,
        shipping_total_minor: input.shipping_total_minor,
        tax_total_minor: input.tax_total_minor,
        discount_total_minor: input.discount_total_minor,
        total_minor: input.total_minor,
        payment_status: input.payment_status ?? 'not_paid',
        fulfillment_status: input.fulfillment_status ?? 'not_fulfilled',
        metadata: json(input.metadata ?? {}),
        placed_at: at,
        created_at: at,
        updated_at: at,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return (await this.order(input.org_id, Number(row.id)))!;
  }

  async insertItems(
    orgId: number,
    orderId: number,
    items: readonly PlacedOrderItemInput[],
  ): Promise<CommerceOrderItemRow[]> {
    if (items.length === 0) return [];
    return this.db
      .insertInto('commerce_order_items')
      .values(
        items.map((i) => ({
          org_id: orgId,
          order_id: orderId,
          variant_id: i.variant_id,
          product_id: i.product_id,
          title: i.title,
          sku: i.sku,
          quantity: i.quantity,
          unit_price_minor: i.unit_price_minor,
          subtotal_minor: i.subtotal_minor,
          tax_minor: i.tax_minor ?? 0,
          requires_shipping: i.requires_shipping ?? true,
          metadata: json(i.metadata ?? {}),
        })) as never,
      )
      .returningAll()
      .execute()
      .then((rows) => rows.sort((a, b) => Number(a.id) - Number(b.id)));
  }

  async insertPayment(input: PlacedPaymentInput): Promise<CommercePaymentRow> {
    const at = new Date(this.clock.now());
    return this.db
      .insertInto('commerce_payments')
      .values({
        ...input,
        currency_code: input.currency_code.toUpperCase(),
        captured_minor: input.captured_minor ?? 0,
        refunded_minor: 0,
        created_at: at,
        updated_at: at,
      } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async insertReservations(
    reservations: readonly PlacedReservationInput[],
  ): Promise<CommerceInventoryReservationRow[]> {
    if (reservations.length === 0) return [];
    const at = new Date(this.clock.now());
    return this.db
      .insertInto('commerce_inventory_reservations')
      .values(reservations.map((r) => ({ ...r, created_at: at })) as never)
      .returningAll()
      .execute();
  }

  async orderWithItems(orgId: number, orderId: number): Promise<PlacedOrderWithItems | null> {
    const order = await this.order(orgId, orderId);
    return order === null ? null : { order, items: await this.items(order.id) };
  }

  /** The order of `orgId` numbered `displayId` whose e-mail is `email`, in any case. */
  async byDisplayIdAndEmail(
    orgId: number,
    displayId: number,
    email: string,
  ): Promise<PlacedOrderWithItems | null> {
    const found = await this.db
      .selectFrom('commerce_orders')
      .select('id')
      .where('org_id', '=', orgId)
      .where('display_id', '=', displayId)
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
    return found === undefined ? null : this.orderWithItems(orgId, Number(found.id));
  }

  private async order(orgId: number, orderId: number): Promise<PlacedOrderRow | null> {
    const row = await this.db
      .selectFrom('commerce_orders')
      .selectAll()
      .select(sql<string>`total::text`.as('total'))
      .where('org_id', '=', orgId)
      .where('id', '=', orderId)
      .executeTakeFirst();
    return row ?? null;
  }

  private async items(orderId: number): Promise<CommerceOrderItemRow[]> {
    return this.db
      .selectFrom('commerce_order_items')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();
  }
}
