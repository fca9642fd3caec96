import type { Kysely } from 'kysely';
import type { DnsTables } from '../modules/dns/shared/dns-tables.ts';

/** Each zone's serial (zone id → serial): one cheap query the periodic zone resync compares. */
export async function readZoneSerials(db: Kysely<DnsTables>): Promise<Map<number, number>> {
  const rows = await db.selectFrom('dns_zones').select(['id', 'serial']).execute();
  return new Map(rows.map((r) => [Number(r.id), Number(r.serial)]));
}
