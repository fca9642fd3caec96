import { sql, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { ComputeTables, InstanceRow, InstanceState } from '../compute-tables.ts';

type Db = Kysely<ComputeTables> | Transaction<ComputeTables>;
export type Instance = Selectable<InstanceRow>;

/**
 * An instance as the list shows it: the columns the view reads, `created_at` already as the API
 * writes it (RFC 3339, UTC, milliseconds) so no row builds a Date.
 */
export type ListedInstance = Pick<
  Instance,
  | 'uuid'
  | 'service_id'
  | 'name'
  | 'hostname'
  | 'state'
  | 'node'
  | 'vmid'
  | 'template_id'
  | 'template_name'
  | 'vcpus'
  | 'memory_mb'
  | 'disk_gb'
  | 'location'
  | 'ipv4'
  | 'ipv4_prefix'
  | 'ipv4_gateway'
> & { created_at: string };

/** bigint columns arrive as strings from PostgreSQL: numbers here. */
function instanceOf(r: Selectable<InstanceRow>): Instance {
  return {
    ...r,
    service_id: Number(r.service_id),
    user_id: Number(r.user_id),
    org_id: r.org_id === null ? null : Number(r.org_id),
    created_at: new Date(r.created_at),
    updated_at: new Date(r.updated_at),
  };
}

/** Instances: one per vps service. */
export class InstancesRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<ComputeTables>): InstancesRepository {
    return new InstancesRepository(trx);
  }

  async insert(row: InstanceRow): Promise<void> {
    await this.db.insertInto('compute_instances').values(row).execute();
  }

  async byService(serviceId: number): Promise<Instance | null> {
    const r = await this.db
      .selectFrom('compute_instances')
      .selectAll()
      .where('service_id', '=', serviceId)
      .executeTakeFirst();
    return r === undefined ? null : instanceOf(r);
  }

  async byUuid(uuid: string): Promise<Instance | null> {
    const r = await this.db
      .selectFrom('compute_instances')
      .selectAll()
      .where('uuid', '=', uuid)
      .executeTakeFirst();
    return r === undefined ? null : instanceOf(r);
  }

  /** An instance of the organization that is not terminated, else null. */
  async findInOrg(orgId: number, uuid: string): Promise<Instance | null> {
    const r = await this.db
      .selectFrom('compute_instances')
      .selectAll()
      .where('uuid', '=', uuid)
      .where('org_id', '=', orgId)
      .where('state', '!=', 'terminated')
      .executeTakeFirst();
    return r === undefined ? null : instanceOf(r);
  }

  /**
   * The organization's instances, newest first, as the list shows them (one query on the
   * (org_id, created_at) index; `service_id` as a float8 so it arrives a number, exact below 2^53, `created_at` formatted there).
   */
  async listOfOrg(orgId: number): Promise<ListedInstance[]> {
    return this.db
      .selectFrom('compute_instances')
      .select([
        'uuid',
        sql<number>`service_id::float8`.as('service_id'),
        'name',
        'hostname',
        'state',
        'node',
        'vmid',
        'template_id',
        'template_name',
        'vcpus',
        'memory_mb',
        'disk_gb',
        'location',
        'ipv4',
        'ipv4_prefix',
        'ipv4_gateway',
        sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('created_at'),
      ])
      .where('org_id', '=', orgId)
      .where('state', '!=', 'terminated')
      .orderBy('compute_instances.created_at', 'desc')
      .orderBy('uuid')
      .execute();
  }

  /** The IPv4 addresses instances hold now. */
  async ipv4InUse(): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('compute_instances')
      .select('ipv4')
      .where('ipv4', 'is not', null)
      .execute();
    return new Set(rows.map((r) => r.ipv4!));
  }

  /** The vmids taken by instances that are not terminated (a nextid guard across concurrent orders). */
  async vmidTaken(vmid: number): Promise<boolean> {
    const r = await this.db
      .selectFrom('compute_instances')
      .select('uuid')
      .where('vmid', '=', vmid)
      .where('state', '!=', 'terminated')
      .executeTakeFirst();
    return r !== undefined;
  }

  async update(uuid: string, change: Updateable<InstanceRow>): Promise<void> {
    await this.db.updateTable('compute_instances').set(change).where('uuid', '=', uuid).execute();
  }

  /** Moves the state only from one of `from` (null: from any); answers whether it moved. */
  async moveState(
    uuid: string,
    to: InstanceState,
    now: Date,
    from: readonly InstanceState[] | null = null,
    failure: string | null = null,
  ): Promise<boolean> {
    let q = this.db
      .updateTable('compute_instances')
      .set({ state: to, failure, updated_at: now })
      .where('uuid', '=', uuid);
    if (from !== null) q = q.where('state', 'in', from);
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
