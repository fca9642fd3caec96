import type { Kysely, Transaction } from 'kysely';
import type { CommerceTables } from '../commerce-tables.ts';
import type { CommerceDisputeRow } from './finance-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;
export type DisputeRow = Omit<CommerceDisputeRow, 'id'> & { id: number };
export type NewDispute = Omit<CommerceDisputeRow, 'id'>;

const row = (r: Omit<CommerceDisputeRow, 'id'> & { id: number | string }): DisputeRow => ({
  ...r,
  id: Number(r.id),
  order_id: Number(r.order_id),
  payment_id: Number(r.payment_id),
});

/** The disputes' SQL; provider events already handled; the payment a provider's reference names. */
export class DisputesRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): DisputesRepository {
    return new DisputesRepository(trx);
  }

  /** The payment of a provider's reference (a PaymentIntent id), whatever the organization. */
  async paymentByReference(provider: string, reference: string) {
    const p = await this.db
      .selectFrom('commerce_payments')
      .select(['id', 'org_id', 'order_id'])
      .where('provider', '=', provider)
      .where('reference', '=', reference)
      .executeTakeFirst();
    return p === undefined
      ? null
      : { id: Number(p.id), orgId: Number(p.org_id), orderId: Number(p.order_id) };
  }

  /** Remembers a provider's event; false when it was handled before. */
  async firstTime(provider: string, eventId: string, at: Date): Promise<boolean> {
    const done = await this.db
      .insertInto('commerce_provider_events')
      .values({ provider, event_id: eventId, received_at: at })
      .onConflict((oc) => oc.doNothing())
      .returning('event_id')
      .executeTakeFirst();
    return done !== undefined;
  }

  async lockByProviderId(provider: string, providerId: string): Promise<DisputeRow | null> {
    const r = await this.db
      .selectFrom('commerce_disputes')
      .selectAll()
      .where('provider', '=', provider)
      .where('provider_dispute_id', '=', providerId)
      .forUpdate()
      .executeTakeFirst();
    return r === undefined ? null : row(r);
  }

  async lock(orgId: number, id: number): Promise<DisputeRow | null> {
    const r = await this.db
      .selectFrom('commerce_disputes')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    return r === undefined ? null : row(r);
  }

  async get(orgId: number, id: number): Promise<DisputeRow | null> {
    const r = await this.db
      .selectFrom('commerce_disputes')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return r === undefined ? null : row(r);
  }

  /** Newest first, from before `beforeId`; one more than `limit`. */
  async page(orgId: number, beforeId: number | undefined, limit: number): Promise<DisputeRow[]> {
    let q = this.db
      .selectFrom('commerce_disputes')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('id', 'desc')
      .limit(limit + 1);
    if (beforeId !== undefined) q = q.where('id', '<', beforeId);
    return (await q.execute()).map(row);
  }

  async insert(d: NewDispute): Promise<DisputeRow> {
    const r = await this.db
      .insertInto('commerce_disputes')
      .values({ ...d, evidence: JSON.stringify(d.evidence) as never })
      .returningAll()
      .executeTakeFirstOrThrow();
    return row(r);
  }

  async update(id: number, change: Partial<Omit<NewDispute, 'org_id'>>): Promise<DisputeRow> {
    const values =
      change.evidence === undefined
        ? change
        : { ...change, evidence: JSON.stringify(change.evidence) as never };
    const r = await this.db
      .updateTable('commerce_disputes')
      .set(values)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return row(r);
  }
}
