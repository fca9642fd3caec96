import { sql, type Kysely, type Transaction } from 'kysely';
import { ownedRows, type Access, type OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import type { DnsTables, ZoneRow } from '../dns-tables.ts';
import type { ZoneActor } from '../dns-interfaces.ts';
import { assertZoneAccess } from '../shared/zone-changes.ts';

export type ZoneWithCount = ZoneRow & { record_count: number };

/** Who holds a zone: an account (and maybe its organization), or the platform (userId null). */
export interface ZoneHolder {
  readonly userId: number | null;
  readonly orgId: number | null;
  /** The DNS hosting service the zone counts against (services registry), if any. */
  readonly serviceId?: number | null;
}

const withCount = sql<number>`(SELECT count(*) FROM dns_records r WHERE r.zone_id = dns_zones.id)::int`;

/** The zones table: reads scoped by owner, inserts, deletion. */
export class ZonesRepository {
  constructor(private readonly db: Kysely<DnsTables> | Transaction<DnsTables>) {}

  withTx(trx: Transaction<DnsTables>): ZonesRepository {
    return new ZonesRepository(trx);
  }

  async insert(
    owner: ZoneHolder,
    domain: string,
    serial: number,
    managedBy: string | null = null,
  ): Promise<ZoneWithCount | null> {
    const row = await this.db
      .insertInto('dns_zones')
      .values({
        user_id: owner.userId,
        org_id: owner.orgId,
        service_id: owner.serviceId ?? null,
        domain,
        serial,
        managed_by: managedBy,
      } as never)
      .onConflict((oc) => oc.column('domain').doNothing())
      .returningAll()
      .executeTakeFirst();
    return row ? { ...row, record_count: 0 } : null;
  }

  /** Zones counted against a service; the count is serialised per service (advisory lock). */
  async countOfService(serviceId: number): Promise<number> {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`dns-service-zones:${serviceId}`}))`.execute(this.db);
    const row = await this.db
      .selectFrom('dns_zones')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('service_id', '=', serviceId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A service ended: its zones stay, counted against no service. */
  async detachService(serviceId: number): Promise<number> {
    const result = await this.db
      .updateTable('dns_zones')
      .set({ service_id: null } as never)
      .where('service_id', '=', serviceId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** The zone with its record count, whoever owns it (callers check access: assertZoneAccess). */
  async find(zoneId: number): Promise<ZoneWithCount | null> {
    const row = await this.db
      .selectFrom('dns_zones')
      .selectAll()
      .select(withCount.as('record_count'))
      .where('id', '=', zoneId)
      .executeTakeFirst();
    return row ?? null;
  }

  /** The zone if `actor` may read it (write: change it); else 404 Zone not found (or 403). */
  async findAccessible(actor: ZoneActor, zoneId: number, write = false): Promise<ZoneWithCount> {
    const zone = await this.find(zoneId);
    assertZoneAccess(actor, zone, write);
    return zone!;
  }

  async listOwned(
    owner: OwnerScope,
    access: Access,
    limit: number,
    offset: number,
  ): Promise<ZoneWithCount[]> {
    return this.db
      .selectFrom('dns_zones')
      .selectAll()
      .select(withCount.as('record_count'))
      .where(ownedRows(owner, access))
      .orderBy('domain')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /**
   * Serialises, for the rest of the transaction, every change to who holds which names under
   * `domain`'s top-level label (creations, deletions, transfers): zones that could nest share that
   * label, so two holders' zones cannot be checked apart and then both inserted.
   */
  async lockZoneTree(domain: string): Promise<void> {
    const top = domain.slice(domain.lastIndexOf('.') + 1);
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`dns-zone-tree:${top}`}))`.execute(this.db);
  }

  /** The zone named `domain` and every zone below it. */
  async listSubtree(domain: string): Promise<ZoneRow[]> {
    return this.db
      .selectFrom('dns_zones')
      .selectAll()
      .where((eb) =>
        eb.or([eb('domain', '=', domain), eb(sql`right(domain, ${domain.length + 1})`, '=', `.${domain}`)]),
      )
      .orderBy('domain')
      .execute();
  }

  /** Every zone (platform staff's check of the whole tree). */
  async listAll(): Promise<ZoneRow[]> {
    return this.db.selectFrom('dns_zones').selectAll().orderBy('domain').execute();
  }

  /** Moves zones to another holder; they no longer count against the former holder's service. */
  async setHolder(zoneIds: readonly number[], holder: ZoneHolder): Promise<void> {
    if (zoneIds.length === 0) return;
    await this.db
      .updateTable('dns_zones')
      .set({ user_id: holder.userId, org_id: holder.orgId, service_id: null, updated_at: sql<Date>`now()` })
      .where('id', 'in', [...zoneIds])
      .execute();
  }

  /** Zones held by another owner that are a parent or a child of `domain`. */
  async findRelatedOfOthers(owner: ZoneHolder, domain: string, exceptZoneId?: number): Promise<string[]> {
    const labels = domain.split('.');
    const parents = labels.slice(1).map((_, i) => labels.slice(i + 1).join('.'));
    const sameOwner =
      owner.userId === null
        ? sql<boolean>`(user_id IS NULL)`
        : owner.orgId === null
          ? sql<boolean>`(user_id = ${owner.userId} AND org_id IS NULL)`
          : sql<boolean>`(org_id = ${owner.orgId})`;
    const rows = await this.db
      .selectFrom('dns_zones')
      .select('domain')
      // IS NOT TRUE: a platform zone (user_id NULL) is another's, not unknown.
      .where(sql<boolean>`${sameOwner} IS NOT TRUE`)
      .$if(exceptZoneId !== undefined, (q) => q.where('id', '!=', exceptZoneId!))
      .where((eb) =>
        eb.or([
          ...(parents.length > 0 ? [eb('domain', 'in', parents)] : []),
          eb(sql`right(domain, ${domain.length + 1})`, '=', `.${domain}`),
        ]),
      )
      .execute();
    return rows.map((r) => r.domain);
  }

  async listOfOrg(orgId: number): Promise<ZoneRow[]> {
    return this.db
      .selectFrom('dns_zones')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('domain')
      .execute();
  }

  /** The organization a zone belongs to (null: an account's own zone, or no such zone). */
  async orgOf(zoneId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('dns_zones')
      .select('org_id')
      .where('id', '=', zoneId)
      .executeTakeFirst();
    return row?.org_id == null ? null : Number(row.org_id);
  }

  /** The zone whose domain is `domain` exactly, whoever holds it. */
  /** Of the zones named in `domains`, the longest name (the closest enclosing zone of a name). */
  async findClosestOf(domains: readonly string[]): Promise<ZoneRow | null> {
    const row = await this.db
      .selectFrom('dns_zones')
      .selectAll()
      .where('domain', 'in', [...domains])
      .orderBy(sql`length(domain)`, 'desc')
      .executeTakeFirst();
    return row ?? null;
  }

  async findByDomain(domain: string): Promise<ZoneWithCount | null> {
    const row = await this.db
      .selectFrom('dns_zones')
      .selectAll()
      .select(withCount.as('record_count'))
      .where('domain', '=', domain)
      .executeTakeFirst();
    return row ?? null;
  }

  async delete(zoneId: number): Promise<void> {
    await this.db.deleteFrom('dns_zones').where('id', '=', zoneId).execute();
  }

  async setSoaEmail(zoneId: number, soaEmail: string | null): Promise<void> {
    await this.db.updateTable('dns_zones').set({ soa_email: soaEmail }).where('id', '=', zoneId).execute();
  }

  /** Each zone's serial (zone id → serial): one cheap query the periodic zone resync compares. */
  async serials(): Promise<Map<number, number>> {
    const rows = await this.db.selectFrom('dns_zones').select(['id', 'serial']).execute();
    return new Map(rows.map((r) => [Number(r.id), Number(r.serial)]));
  }
}
