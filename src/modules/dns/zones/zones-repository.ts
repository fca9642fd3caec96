import { sql, type Kysely, type Transaction } from 'kysely';
import type { DnsTables, ZoneRow } from '../shared/dns-tables.ts';

export type ZoneWithCount = ZoneRow & { record_count: number };

const withCount = sql<number>`(SELECT count(*) FROM dns_records r WHERE r.zone_id = dns_zones.id)::int`;

export class ZonesRepository {
  constructor(private readonly db: Kysely<DnsTables>) {}

  async insert(userId: number, domain: string, serial: number): Promise<ZoneWithCount | null> {
    const row = await this.db
      .insertInto('dns_zones')
      .values({ user_id: userId, domain, serial } as never)
      .onConflict((oc) => oc.column('domain').doNothing())
      .returningAll()
      .executeTakeFirst();
    return row ? { ...row, record_count: 0 } : null;
  }

  /** The zone if it belongs to `userId`; another account's zone is as good as absent. */
  async findOwned(userId: number, zoneId: number): Promise<ZoneWithCount | null> {
    const row = await this.db
      .selectFrom('dns_zones')
      .selectAll()
      .select(withCount.as('record_count'))
      .where('id', '=', zoneId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ?? null;
  }

  async listOwned(userId: number, limit: number, offset: number): Promise<ZoneWithCount[]> {
    return this.db
      .selectFrom('dns_zones')
      .selectAll()
      .select(withCount.as('record_count'))
      .where('user_id', '=', userId)
      .orderBy('domain')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** Zones of other accounts that are a parent or a child of `domain`. */
  async findRelatedOfOthers(userId: number, domain: string): Promise<string[]> {
    const labels = domain.split('.');
    const parents = labels.slice(1).map((_, i) => labels.slice(i + 1).join('.'));
    const rows = await this.db
      .selectFrom('dns_zones')
      .select('domain')
      .where('user_id', '<>', userId)
      .where((eb) =>
        eb.or([
          ...(parents.length > 0 ? [eb('domain', 'in', parents)] : []),
          eb(sql`right(domain, ${domain.length + 1})`, '=', `.${domain}`),
        ]),
      )
      .execute();
    return rows.map((r) => r.domain);
  }

  async delete(zoneId: number): Promise<void> {
    await this.db.deleteFrom('dns_zones').where('id', '=', zoneId).execute();
  }

  async listAllIds(): Promise<{ id: number; serial: number }[]> {
    return this.db.selectFrom('dns_zones').select(['id', 'serial']).execute();
  }
}

/**
 * Locks the zone row for the rest of the transaction, so changes to one zone are checked and
 * applied one at a time (the rules look at the whole zone).
 */
export async function lockZone(trx: Transaction<DnsTables>, zoneId: number): Promise<ZoneRow | null> {
  const row = await trx
    .selectFrom('dns_zones')
    .selectAll()
    .where('id', '=', zoneId)
    .forUpdate()
    .executeTakeFirst();
  return row ?? null;
}

export async function setZoneSerial(
  trx: Transaction<DnsTables>,
  zoneId: number,
  serial: number,
): Promise<void> {
  await trx
    .updateTable('dns_zones')
    .set({ serial, updated_at: sql<Date>`now()` })
    .where('id', '=', zoneId)
    .execute();
}

export async function setZoneSoaEmail(
  trx: Transaction<DnsTables>,
  zoneId: number,
  soaEmail: string | null,
): Promise<void> {
  await trx.updateTable('dns_zones').set({ soa_email: soaEmail }).where('id', '=', zoneId).execute();
}
