import type { Transaction } from 'kysely';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import { joinTransaction } from '../../../kernel/db/unit-of-work.ts';
import type { CouponOrder, CouponRedeemer, OrderInvoiceLine, RenewalDiscount } from '../../services/index.ts';
import type { StaffCaller } from '../access/staff-access.ts';
import { couponCodeTaken, couponNotFound } from '../staff-errors.ts';
import type { StaffContext } from '../staff-context.ts';
import type { StaffTables } from '../staff-tables.ts';
import { amountOf, decimalOf, discountOf, percentOf, priceMinorOf } from './coupon-value.ts';
import { CouponsRepository, type CouponRecord, type RedemptionRecord } from './coupons-repository.ts';

export interface CouponCreate {
  readonly code: string;
  readonly value: string | number;
  readonly description?: string;
  readonly kind?: 'percent' | 'fixed';
  readonly currency?: string;
  readonly applies_to?: number[];
  readonly first_invoice_only?: boolean;
  readonly max_redemptions?: number;
  readonly per_customer_limit?: number;
  readonly starts_at?: string | null;
  readonly ends_at?: string | null;
  readonly status?: string;
}

export interface CouponPatch {
  readonly description?: string;
  readonly value?: string | number;
  readonly applies_to?: number[];
  readonly clear_applies_to?: boolean;
  readonly max_redemptions?: number;
  readonly clear_max_redemptions?: boolean;
  readonly per_customer_limit?: number | null;
  readonly starts_at?: string | null;
  readonly ends_at?: string | null;
  readonly clear_ends_at?: boolean;
  readonly status?: string;
}

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());
const dateOf = (v: string | null | undefined): Date | null | undefined =>
  v === undefined ? undefined : v === null ? null : new Date(v);

/** A coupon as the console reads it: `value` a decimal string (a percent, or an amount of `currency`). */
export function couponOut(c: CouponRecord) {
  return {
    id: c.id,
    code: c.code,
    description: c.description,
    kind: c.kind,
    value: decimalOf(c.amount),
    currency: c.currency,
    applies_to: c.applies_to,
    first_invoice_only: c.first_invoice_only,
    max_redemptions: c.max_redemptions,
    per_customer_limit: c.per_customer_limit,
    redeemed_count: c.redeemed_count,
    starts_at: iso(c.starts_at),
    ends_at: iso(c.ends_at),
    status: c.status,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

export function redemptionOut(r: RedemptionRecord) {
  return {
    id: r.id,
    customer_id: r.customer_id,
    service_id: r.service_id,
    product_id: r.product_id,
    currency: r.currency,
    discount: decimalOf(r.discount_minor),
    created_at: r.created_at.toISOString(),
  };
}

function valueOf(kind: string, value: string | number): number {
  const parsed = kind === 'percent' ? percentOf(value) : amountOf(value);
  if (parsed === null)
    throw invalidField(
      ['body', 'value'],
      kind === 'percent'
        ? 'A percent above 0 and at most 100, up to 2 decimals'
        : 'An amount above 0 with up to 2 decimals',
      value,
    );
  return parsed;
}

function checkWindow(startsAt: Date | null, endsAt: Date | null): void {
  if (startsAt !== null && endsAt !== null && endsAt.getTime() <= startsAt.getTime())
    throw invalidField(['body', 'ends_at'], 'Must be after starts_at', endsAt.toISOString());
}

/** The words of a coupon's discount line, on the first invoice and on renewals alike. */
const lineOf = (code: string) => `Coupon ${code}`;

/** Why an order's code is refused: 422 naming `coupon_code`, the reason as the detail's `type`. */
const refused = (code: string, type: string, msg: string) =>
  invalidField(['body', 'coupon_code'], msg, code, type);

/** The console's coupons, and their redemption by storefront customers' orders. */
export class CouponsService implements CouponRedeemer {
  private readonly repo: CouponsRepository;

  constructor(private readonly ctx: StaffContext) {
    this.repo = new CouponsRepository(ctx.db);
  }

  private now(): Date {
    return new Date(this.ctx.clock.now());
  }

  async list(caller: StaffCaller, status?: string) {
    return (await this.repo.list(caller.orgId, status)).map(couponOut);
  }

  async create(caller: StaffCaller, body: CouponCreate) {
    const kind = body.kind ?? 'percent';
    const amount = valueOf(kind, body.value);
    if (kind === 'fixed' && body.currency === undefined)
      throw invalidField(['body', 'currency'], 'Required for a fixed coupon', null, 'missing');
    if (kind === 'percent' && body.currency !== undefined)
      throw invalidField(['body', 'currency'], 'Only for a fixed coupon', body.currency);
    const startsAt = dateOf(body.starts_at) ?? null;
    const endsAt = dateOf(body.ends_at) ?? null;
    checkWindow(startsAt, endsAt);
    const at = this.now();
    const row = await this.repo.insert({
      org_id: caller.orgId,
      code: body.code,
      code_key: body.code.toLowerCase(),
      description: body.description ?? '',
      kind,
      amount,
      currency: body.currency?.toUpperCase() ?? null,
      applies_to: body.applies_to === undefined ? null : [...new Set(body.applies_to)],
      first_invoice_only: body.first_invoice_only ?? true,
      max_redemptions: body.max_redemptions ?? null,
      per_customer_limit: body.per_customer_limit ?? null,
      starts_at: startsAt,
      ends_at: endsAt,
      status: body.status ?? 'active',
      created_at: at,
      updated_at: at,
    });
    if (row === null) throw couponCodeTaken();
    return couponOut(row);
  }

  async patch(caller: StaffCaller, id: number, body: CouponPatch) {
    const found = await this.repo.find(caller.orgId, id);
    if (found === null) throw couponNotFound();
    if (body.clear_applies_to === true && body.applies_to !== undefined)
      throw invalidField(['body', 'clear_applies_to'], 'Not with applies_to', true);
    if (body.clear_max_redemptions === true && body.max_redemptions !== undefined)
      throw invalidField(['body', 'clear_max_redemptions'], 'Not with max_redemptions', true);
    if (body.clear_ends_at === true && body.ends_at != null)
      throw invalidField(['body', 'clear_ends_at'], 'Not with ends_at', true);
    const startsAt = dateOf(body.starts_at) === undefined ? found.starts_at : dateOf(body.starts_at)!;
    const endsAt =
      body.clear_ends_at === true
        ? null
        : dateOf(body.ends_at) === undefined
          ? found.ends_at
          : dateOf(body.ends_at)!;
    checkWindow(startsAt, endsAt);
    const row = await this.repo.update(found.id, {
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.value !== undefined ? { amount: valueOf(found.kind, body.value) } : {}),
      ...(body.applies_to !== undefined ? { applies_to: [...new Set(body.applies_to)] } : {}),
      ...(body.clear_applies_to === true ? { applies_to: null } : {}),
      ...(body.max_redemptions !== undefined ? { max_redemptions: body.max_redemptions } : {}),
      ...(body.clear_max_redemptions === true ? { max_redemptions: null } : {}),
      ...(body.per_customer_limit !== undefined ? { per_customer_limit: body.per_customer_limit } : {}),
      ...(body.status !== undefined ? { status: body.status } : {}),
      starts_at: startsAt,
      ends_at: endsAt,
      updated_at: this.now(),
    });
    return couponOut(row);
  }

  async setFeature(caller: StaffCaller, enabled: boolean) {
    await this.repo.setEnabled(caller.orgId, enabled, this.now());
    return { enabled };
  }

  async redemptions(caller: StaffCaller, id: number, limit: number) {
    const found = await this.repo.find(caller.orgId, id);
    if (found === null) throw couponNotFound();
    return (await this.repo.redemptions(found.id, limit)).map(redemptionOut);
  }

  /**
   * Inside the order's transaction: checks the code for this customer and product, takes one
   * redemption (the last one once only) and records it; the discount is off the first invoice.
   */
  async redeem(
    trx: Transaction<unknown>,
    order: CouponOrder,
  ): Promise<{ discount: OrderInvoiceLine | null }> {
    const repo = this.repo.withTx(joinTransaction<StaffTables>(trx));
    const code = order.code;
    if (!(await repo.enabled(order.orgId)))
      throw refused(code, 'coupon_feature_off', 'This shop does not take coupon codes');
    const coupon = await repo.byCode(order.orgId, code.trim().toLowerCase());
    if (coupon === null) throw refused(code, 'coupon_unknown', 'No such coupon');
    const at = this.now();
    if (coupon.status === 'disabled') throw refused(code, 'coupon_disabled', 'This coupon is disabled');
    if (coupon.status === 'expired' || (coupon.ends_at !== null && coupon.ends_at.getTime() <= at.getTime()))
      throw refused(code, 'coupon_expired', 'This coupon has expired');
    if (coupon.starts_at !== null && coupon.starts_at.getTime() > at.getTime())
      throw refused(code, 'coupon_not_started', 'This coupon is not valid yet');
    if (coupon.applies_to !== null && !coupon.applies_to.includes(order.productId))
      throw refused(code, 'coupon_not_applicable', 'This coupon is not for this product');
    if (coupon.kind === 'fixed' && coupon.currency !== order.currency.toUpperCase())
      throw refused(code, 'coupon_not_applicable', `This coupon is in ${coupon.currency}`);
    if (!(await repo.takeOne(coupon.id, at)))
      throw refused(code, 'coupon_exhausted', 'This coupon has been used up');
    // The increment holds the coupon's row until the order commits: a customer's count is exact.
    if (
      coupon.per_customer_limit !== null &&
      (await repo.redemptionsBy(coupon.id, order.customerId)) >= coupon.per_customer_limit
    )
      throw refused(code, 'coupon_customer_limit', 'You have used this coupon as often as allowed');
    let subtotal = 0;
    for (const line of order.lines) subtotal += (priceMinorOf(line.unitPrice) ?? 0) * line.quantity;
    const off = discountOf(coupon.kind, coupon.amount, subtotal);
    await repo.addRedemption({
      coupon_id: coupon.id,
      org_id: order.orgId,
      customer_id: order.customerId,
      service_id: order.serviceId,
      product_id: order.productId,
      currency: order.currency,
      discount_minor: off,
      created_at: at,
    });
    return {
      discount:
        off === 0 ? null : { description: lineOf(coupon.code), quantity: 1, unitPrice: decimalOf(-off) },
    };
  }

  /**
   * A renewal of a service ordered with a coupon that discounts every invoice (`first_invoice_only`
   * false): the coupon's terms of now taken off the renewal's amount, as on the first invoice. A
   * discount once attached stays: a coupon disabled, expired, used up or switched off at checkout
   * since then still discounts the renewals of services already ordered with it. An hourly plan's
   * order makes no invoice: its first month's invoice (`firstInvoice`) takes any coupon's discount.
   */
  async renewalDiscount(
    serviceId: number,
    currency: string,
    amountMinor: number,
    firstInvoice = false,
  ): Promise<RenewalDiscount | null> {
    const coupon = await this.repo.redeemedFor(serviceId);
    if (coupon === null || (coupon.first_invoice_only && !firstInvoice)) return null;
    if (coupon.kind === 'fixed' && coupon.currency !== currency.toUpperCase()) return null;
    const off = discountOf(coupon.kind, coupon.amount, amountMinor);
    return off === 0 ? null : { description: lineOf(coupon.code), discountMinor: off };
  }
}
