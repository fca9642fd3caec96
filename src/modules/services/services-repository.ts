import { sql, type Kysely, type Transaction } from 'kysely';
import { ownedRows, type Access, type OwnerScope } from '../../kernel/auth/owner-scope.ts';
import type { ServiceEventRow, ServiceRow, ServicesTables, ServiceStatus } from './services-tables.ts';

type Db = Kysely<ServicesTables> | Transaction<ServicesTables>;

export interface ServiceFilter {
  readonly status?: string;
  readonly resourceType?: string;
  /** The catalogue module of the product. */
  readonly module?: string;
  /** Service ids carrying the tag (the tags' own query). */
  readonly ids?: readonly number[];
}

export type NewService = Omit<
  ServiceRow,
  | 'id'
  | 'created_at'
  | 'updated_at'
  | 'terminated_at'
  | 'activated_at'
  | 'next_due_date'
  | 'status_reason'
  | 'config'
> & {
  readonly config: Record<string, unknown>;
};

const COLUMNS = [
  'id',
  'user_id',
  'org_id',
  'customer_id',
  'product_id',
  'product_name',
  'pricing_id',
  'module_name',
  'resource_type',
  'label',
  'status',
  'status_reason',
  'location_code',
  'config',
  'billing_cycle',
  'currency',
  'next_due_date',
  'activated_at',
  'terminated_at',
  'created_at',
  'updated_at',
] as const;

/** Services and their events; every read is scoped by the caller (another tenant's is absent). */
export class ServicesRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<ServicesTables>): ServicesRepository {
    return new ServicesRepository(trx);
  }

  private select() {
    return this.db
      .selectFrom('services')
      .select(COLUMNS)
      .select(sql<string>`price::text`.as('price'));
  }

  async insert(values: NewService, at: Date): Promise<ServiceRow> {
    const row = await this.db
      .insertInto('services')
      .values({
        ...values,
        config: sql`${JSON.stringify(values.config)}::jsonb`,
        created_at: at,
        updated_at: at,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return (await this.find(Number(row.id)))!;
  }

  async find(id: number): Promise<ServiceRow | null> {
    return ((await this.select().where('id', '=', id).executeTakeFirst()) as ServiceRow | undefined) ?? null;
  }

  async findOwned(owner: OwnerScope, id: number, access: Access): Promise<ServiceRow | null> {
    const row = await this.select().where('id', '=', id).where(ownedRows(owner, access)).executeTakeFirst();
    return (row as ServiceRow | undefined) ?? null;
  }

  async list(owner: OwnerScope, filter: ServiceFilter, limit: number, offset: number): Promise<ServiceRow[]> {
    let query = this.select().where(ownedRows(owner, 'read'));
    if (filter.status !== undefined) query = query.where('status', '=', filter.status as ServiceStatus);
    if (filter.resourceType !== undefined) query = query.where('resource_type', '=', filter.resourceType);
    if (filter.module !== undefined) query = query.where('module_name', '=', filter.module);
    if (filter.ids !== undefined) {
      if (filter.ids.length === 0) return [];
      query = query.where('id', 'in', filter.ids as number[]);
    }
    return (await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute()) as ServiceRow[];
  }

  /** A storefront customer's services held by the organization, newest first (ties on id). */
  async listForCustomer(
    orgId: number,
    customerId: number,
    q: { readonly status?: string; readonly limit: number; readonly offset: number },
  ): Promise<ServiceRow[]> {
    let query = this.select().where('org_id', '=', orgId).where('customer_id', '=', customerId);
    if (q.status !== undefined) query = query.where('status', '=', q.status as ServiceStatus);
    return (await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(q.limit)
      .offset(q.offset)
      .execute()) as ServiceRow[];
  }

  async findForCustomer(orgId: number, customerId: number, id: number): Promise<ServiceRow | null> {
    const row = await this.select()
      .where('id', '=', id)
      .where('org_id', '=', orgId)
      .where('customer_id', '=', customerId)
      .executeTakeFirst();
    return (row as ServiceRow | undefined) ?? null;
  }

  async setStatus(
    id: number,
    status: ServiceStatus,
    reason: string | null,
    at: Date,
    extra: { terminated_at?: Date; activated_at?: Date } = {},
  ): Promise<void> {
    await this.db
      .updateTable('services')
      .set({ status, status_reason: reason, updated_at: at, ...extra })
      .where('id', '=', id)
      .execute();
  }

  /** Services billed by due date: active, suspended or ending at period end, due at or before `until`. */
  async dueBy(until: Date): Promise<ServiceRow[]> {
    return (await this.db
      .selectFrom('services')
      .selectAll()
      .where('status', 'in', ['active', 'suspended', 'pending_termination'])
      .where('next_due_date', 'is not', null)
      .where('next_due_date', '<=', until)
      .orderBy('id')
      .execute()) as ServiceRow[];
  }

  /** Priced hourly services active at some instant of [start, end). */
  async hourlyActiveBetween(start: Date, end: Date): Promise<ServiceRow[]> {
    return (await this.select()
      .where('billing_cycle', '=', 'hourly')
      .where(sql<boolean>`price > 0`)
      .where('activated_at', 'is not', null)
      .where('activated_at', '<', end)
      .where((eb) => eb.or([eb('terminated_at', 'is', null), eb('terminated_at', '>', start)]))
      .orderBy('id')
      .execute()) as ServiceRow[];
  }

  /** Sets next_due_date to `to` when it is `from` (null: not set yet); false when it was not. */
  async moveDueDate(id: number, from: Date | null, to: Date, at: Date): Promise<boolean> {
    const done = await this.db
      .updateTable('services')
      .set({ next_due_date: to, updated_at: at })
      .where('id', '=', id)
      .where('next_due_date', from === null ? 'is' : '=', from)
      .executeTakeFirst();
    return Number(done.numUpdatedRows) === 1;
  }

  /** pending → provisioning for one caller only: false when another took it (or it is not pending). */
  async claimPending(id: number, at: Date): Promise<boolean> {
    const done = await this.db
      .updateTable('services')
      .set({ status: 'provisioning', updated_at: at })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(done.numUpdatedRows) === 1;
  }

  async addEvent(serviceId: number, type: string, message: string, at: Date): Promise<void> {
    await this.db
      .insertInto('services_events')
      .values({ service_id: serviceId, type, message, created_at: at } as never)
      .execute();
  }

  async events(serviceId: number, limit: number, offset: number): Promise<ServiceEventRow[]> {
    return this.db
      .selectFrom('services_events')
      .selectAll()
      .where('service_id', '=', serviceId)
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }
}

/** A count by UTC day (`YYYY-MM-DD`). */
export interface DailyCount {
  readonly day: string;
  readonly count: number;
}

/** Counts by day for the staff console's insights: aggregate queries grouped by day. */
export class ServiceInsightsRepository {
  constructor(private readonly db: Db) {}

  /** Services ordered for the organization (its own and its customers'), by UTC day of the order. */
  async ordersByDay(orgId: number, from: Date, before: Date): Promise<DailyCount[]> {
    const day = sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
    const rows = await this.db
      .selectFrom('services')
      .select([day.as('day'), sql<string>`count(*)`.as('n')])
      .where('org_id', '=', orgId)
      .where('created_at', '>=', from)
      .where('created_at', '<', before)
      .groupBy(day)
      .execute();
    return rows.map((r) => ({ day: r.day, count: Number(r.n) }));
  }

  /**
   * What makes the count of active services at the end of each day of [from, before): those active
   * at `from` (activated before it, not terminated before it), then activations and terminations
   * (of activated services) by UTC day.
   */
  async activeChanges(
    orgId: number,
    from: Date,
    before: Date,
  ): Promise<{ activeAtStart: number; activated: DailyCount[]; terminated: DailyCount[] }> {
    const start = await this.db
      .selectFrom('services')
      .select(sql<string>`count(*)`.as('n'))
      .where('org_id', '=', orgId)
      .where('activated_at', '<', from)
      .where((eb) => eb.or([eb('terminated_at', 'is', null), eb('terminated_at', '>=', from)]))
      .executeTakeFirst();
    const byDay = async (column: 'activated_at' | 'terminated_at'): Promise<DailyCount[]> => {
      const day = sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
      const rows = await this.db
        .selectFrom('services')
        .select([day.as('day'), sql<string>`count(*)`.as('n')])
        .where('org_id', '=', orgId)
        .where('activated_at', 'is not', null)
        .where(column, '>=', from)
        .where(column, '<', before)
        .groupBy(day)
        .execute();
      return rows.map((r) => ({ day: r.day, count: Number(r.n) }));
    };
    return {
      activeAtStart: Number(start?.n ?? 0),
      activated: await byDay('activated_at'),
      terminated: await byDay('terminated_at'),
    };
  }
}
