import type { Kysely, Transaction } from 'kysely';
import type { DnssecKeyRow, DnsTables, DnssecZoneRow, KeyRole, KeyState } from '../dns-tables.ts';

export type StoredKey = Omit<DnssecKeyRow, 'id'> & { id: number };
type Db = Kysely<DnsTables> | Transaction<DnsTables>;

/**
 * Signing state (dns_dnssec_zones) and keys (dns_dnssec_keys) of the zones, and the zone's
 * dnssec_enabled flag; every write runs inside the zone's change (withTx).
 */
export class DnssecRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<DnsTables>): DnssecRepository {
    return new DnssecRepository(trx);
  }

  async findZone(zoneId: number): Promise<DnssecZoneRow | null> {
    const row = await this.db
      .selectFrom('dns_dnssec_zones')
      .selectAll()
      .where('zone_id', '=', zoneId)
      .executeTakeFirst();
    return row ?? null;
  }

  /** Every signed zone (or one being turned off), for the key schedule. */
  async listZones(): Promise<{ zone_id: number }[]> {
    return this.db.selectFrom('dns_dnssec_zones').select(['dns_dnssec_zones.zone_id']).execute();
  }

  /** The signing state of these zones (null: of every zone). */
  async listZonesByIds(zoneIds: readonly number[] | null): Promise<DnssecZoneRow[]> {
    let q = this.db.selectFrom('dns_dnssec_zones').selectAll();
    if (zoneIds !== null) {
      if (zoneIds.length === 0) return [];
      q = q.where('zone_id', 'in', zoneIds);
    }
    return (await q.execute()).map((r) => ({ ...r, zone_id: Number(r.zone_id) }));
  }

  async listKeys(zoneIds: readonly number[]): Promise<StoredKey[]> {
    if (zoneIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('dns_dnssec_keys')
      .selectAll()
      .where('zone_id', 'in', zoneIds)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ ...r, id: Number(r.id), zone_id: Number(r.zone_id) }));
  }

  async insertZone(row: DnssecZoneRow): Promise<void> {
    await this.db.insertInto('dns_dnssec_zones').values(row).execute();
  }

  async updateZone(
    zoneId: number,
    set: Partial<
      Pick<
        DnssecZoneRow,
        | 'disabling_since'
        | 'denial'
        | 'zsk_rotated_at'
        | 'ksk_rollover_state'
        | 'ksk_rollover_started_at'
        | 'ksk_parent_check_at'
        | 'ksk_parent_ds_seen_at'
        | 'ksk_parent_ds_ttl'
      >
    >,
  ): Promise<void> {
    await this.db.updateTable('dns_dnssec_zones').set(set).where('zone_id', '=', zoneId).execute();
  }

  /** The zone's keys and signing state: it is served unsigned from the next load. */
  async deleteZone(zoneId: number): Promise<void> {
    await this.db.deleteFrom('dns_dnssec_keys').where('zone_id', '=', zoneId).execute();
    await this.db.deleteFrom('dns_dnssec_zones').where('zone_id', '=', zoneId).execute();
  }

  async insertKey(key: Omit<StoredKey, 'id'>): Promise<void> {
    await this.db.insertInto('dns_dnssec_keys').values(key).execute();
  }

  async setKeyState(
    id: number,
    state: KeyState,
    at: Partial<Pick<DnssecKeyRow, 'activated_at' | 'retired_at'>>,
  ): Promise<void> {
    await this.db
      .updateTable('dns_dnssec_keys')
      .set({ state, ...at })
      .where('id', '=', id)
      .execute();
  }

  async deleteKey(id: number): Promise<void> {
    await this.db.deleteFrom('dns_dnssec_keys').where('id', '=', id).execute();
  }

  /** dns_zones.dnssec_enabled, which the zone view shows. */
  async setZoneFlag(zoneId: number, enabled: boolean): Promise<void> {
    await this.db
      .updateTable('dns_zones')
      .set({ dnssec_enabled: enabled })
      .where('id', '=', zoneId)
      .execute();
  }
}

export type { KeyRole };
