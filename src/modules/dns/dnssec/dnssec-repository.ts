import type { Kysely, Transaction } from 'kysely';
import type { DnssecKeyRow, DnsTables, DnssecZoneRow, KeyRole, KeyState } from '../dns-tables.ts';

export type StoredKey = Omit<DnssecKeyRow, 'id'> & { id: number };
type Db = Kysely<DnsTables> | Transaction<DnsTables>;

export async function findDnssecZone(db: Db, zoneId: number): Promise<DnssecZoneRow | null> {
  const row = await db
    .selectFrom('dns_dnssec_zones')
    .selectAll()
    .where('zone_id', '=', zoneId)
    .executeTakeFirst();
  return row ?? null;
}

export async function listDnssecZones(db: Db): Promise<{ zone_id: number; user_id: number }[]> {
  return db
    .selectFrom('dns_dnssec_zones')
    .innerJoin('dns_zones', 'dns_zones.id', 'dns_dnssec_zones.zone_id')
    .select(['dns_dnssec_zones.zone_id', 'dns_zones.user_id'])
    .execute();
}

export async function listKeys(db: Db, zoneIds: readonly number[]): Promise<StoredKey[]> {
  if (zoneIds.length === 0) return [];
  const rows = await db
    .selectFrom('dns_dnssec_keys')
    .selectAll()
    .where('zone_id', 'in', zoneIds)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), zone_id: Number(r.zone_id) }));
}

export async function listDnssecZonesByIds(
  db: Db,
  zoneIds: readonly number[] | null,
): Promise<DnssecZoneRow[]> {
  let q = db.selectFrom('dns_dnssec_zones').selectAll();
  if (zoneIds !== null) {
    if (zoneIds.length === 0) return [];
    q = q.where('zone_id', 'in', zoneIds);
  }
  return (await q.execute()).map((r) => ({ ...r, zone_id: Number(r.zone_id) }));
}

export async function insertDnssecZone(trx: Db, row: DnssecZoneRow): Promise<void> {
  await trx.insertInto('dns_dnssec_zones').values(row).execute();
}

export async function updateDnssecZone(
  trx: Db,
  zoneId: number,
  set: Partial<Pick<DnssecZoneRow, 'disabling_since' | 'zsk_rotated_at'>>,
): Promise<void> {
  await trx.updateTable('dns_dnssec_zones').set(set).where('zone_id', '=', zoneId).execute();
}

export async function deleteDnssec(trx: Db, zoneId: number): Promise<void> {
  await trx.deleteFrom('dns_dnssec_keys').where('zone_id', '=', zoneId).execute();
  await trx.deleteFrom('dns_dnssec_zones').where('zone_id', '=', zoneId).execute();
}

export async function insertKey(trx: Db, key: Omit<StoredKey, 'id'>): Promise<void> {
  await trx.insertInto('dns_dnssec_keys').values(key).execute();
}

export async function setKeyState(
  trx: Db,
  id: number,
  state: KeyState,
  at: Partial<Pick<DnssecKeyRow, 'activated_at' | 'retired_at'>>,
): Promise<void> {
  await trx
    .updateTable('dns_dnssec_keys')
    .set({ state, ...at })
    .where('id', '=', id)
    .execute();
}

export async function deleteKey(trx: Db, id: number): Promise<void> {
  await trx.deleteFrom('dns_dnssec_keys').where('id', '=', id).execute();
}

export async function setZoneDnssecFlag(trx: Db, zoneId: number, enabled: boolean): Promise<void> {
  await trx.updateTable('dns_zones').set({ dnssec_enabled: enabled }).where('id', '=', zoneId).execute();
}

export type { KeyRole };
