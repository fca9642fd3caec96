import { sql, type Insertable, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { CouponRedemptionRow, CouponRow, StaffTables } from '../staff-tables.ts';

type Db = Kysely<StaffTables> | Transaction<StaffTables>;

export type CouponRecord = Omit<CouponRow, 'id' | 'redeemed_count'> & { id: number; redeemed_count: number };
export type RedemptionRecord = Omit<CouponRedemptionRow, 'id'> & { id: number };

function couponOf(row: Record<string, unknown>): CouponRecord {
  const r = row as unknown as CouponRecord;
  return {
    ...r,
    id: Number(r.id),
    org_id: Number(r.org_id),
    redeemed_count: Number(r.redeemed_count),
    applies_to: r.applies_to === null ? null : (r.applies_to as unknown[]).map(Number),
  };
}

type CouponValues = Omit<Insertable<CouponRow>, 'applies_to'> & { applies_to: number[] | null };
type CouponChanges = Omit<Updateable<CouponRow>, 'applies_to'> & { applies_to?: number[] | null };

const jsonList = (list: number[] | null) =>
  list === null ? null : sql<number[]>`${JSON.stringify(list)}::jsonb`;

/** An organization's coupons, their redemptions, and whether its checkout takes codes. */
export class CouponsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<StaffTables>): CouponsRepository {
    return new CouponsRepository(trx);
  }

  async list(orgId: number, status?: string): Promise<CouponRecord[]> {
    let q = this.db.selectFrom('staff_coupons').selectAll().where('org_id', '=', orgId);
    if (status !== undefined) q = q.where('status', '=', status);
    return (await q.orderBy('id', 'desc').execute()).map(couponOf);
  }

  async find(orgId: number, id: number): Promise<CouponRecord | null> {
    const row = await this.db
      .selectFrom('staff_coupons')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? null : couponOf(row);
  }

  async byCode(orgId: number, codeKey: string): Promise<CouponRecord | null> {
    const row = await this.db
      .selectFrom('staff_coupons')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('code_key', '=', codeKey)
      .executeTakeFirst();
    return row === undefined ? null : couponOf(row);
  }

  /** The new coupon, or null when the organization has one with this code already. */
  async insert(values: CouponValues): Promise<CouponRecord | null> {
    const row = await this.db
      .insertInto('staff_coupons')
      .values({ ...values, applies_to: jsonList(values.applies_to) })
      .onConflict((oc) => oc.columns(['org_id', 'code_key']).doNothing())
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? null : couponOf(row);
  }

  async update(id: number, values: CouponChanges): Promise<CouponRecord> {
    const { applies_to, ...rest } = values;
    const row = await this.db
      .updateTable('staff_coupons')
      .set({ ...rest, ...(applies_to !== undefined ? { applies_to: jsonList(applies_to) } : {}) })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return couponOf(row);
  }

  /**
   * Takes one redemption: a conditional increment, so the last one is spent once whatever runs at
   * the same time (the row stays locked until the caller's transaction ends). False when exhausted.
   */
  async takeOne(id: number, at: Date): Promise<boolean> {
    const row = await this.db
      .updateTable('staff_coupons')
      .set({ redeemed_count: sql<number>`redeemed_count + 1`, updated_at: at })
      .where('id', '=', id)
      .where((eb) =>
        eb.or([eb('max_redemptions', 'is', null), eb('redeemed_count', '<', eb.ref('max_redemptions'))]),
      )
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async redemptionsBy(couponId: number, customerId: number): Promise<number> {
    const row = await this.db
      .selectFrom('staff_coupon_redemptions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('coupon_id', '=', couponId)
      .where('customer_id', '=', customerId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async addRedemption(values: Insertable<CouponRedemptionRow>): Promise<void> {
    await this.db.insertInto('staff_coupon_redemptions').values(values).execute();
  }

  /** The coupon a service's order redeemed (whatever its status now), else null. */
  async redeemedFor(serviceId: number): Promise<CouponRecord | null> {
    const row = await this.db
      .selectFrom('staff_coupon_redemptions as r')
      .innerJoin('staff_coupons as c', 'c.id', 'r.coupon_id')
      .selectAll('c')
      .where('r.service_id', '=', serviceId)
      .orderBy('r.id')
      .executeTakeFirst();
    return row === undefined ? null : couponOf(row);
  }

  /** A coupon's redemptions, newest first. */
  async redemptions(couponId: number, limit: number): Promise<RedemptionRecord[]> {
    const rows = await this.db
      .selectFrom('staff_coupon_redemptions')
      .selectAll()
      .where('coupon_id', '=', couponId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      ...r,
      id: Number(r.id),
      coupon_id: Number(r.coupon_id),
      org_id: Number(r.org_id),
      customer_id: Number(r.customer_id),
      service_id: Number(r.service_id),
      product_id: Number(r.product_id),
      discount_minor: Number(r.discount_minor),
    }));
  }

  /** Whether the organization's checkout takes codes (no row: it does). */
  async enabled(orgId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('staff_coupon_settings')
      .select('enabled')
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return row?.enabled ?? true;
  }

  async setEnabled(orgId: number, enabled: boolean, at: Date): Promise<void> {
    await this.db
      .insertInto('staff_coupon_settings')
      .values({ org_id: orgId, enabled, updated_at: at })
      .onConflict((oc) => oc.column('org_id').doUpdateSet({ enabled, updated_at: at }))
      .execute();
  }
}
