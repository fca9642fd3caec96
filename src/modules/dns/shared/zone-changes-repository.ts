import { sql, type Transaction } from 'kysely';
import type { DnsTables, ZoneRow } from '../dns-tables.ts';

/** The zone row as a zone change takes it: locked, then its serial moved. */
export class ZoneChangesRepository {
  constructor(private readonly trx: Transaction<DnsTables>) {}

  /** The zone row, locked for the rest of the transaction (changes to one zone run one at a time). */
  async lock(zoneId: number): Promise<ZoneRow | null> {
    const row = await this.trx
      .selectFrom('dns_zones')
      .selectAll()
      .where('id', '=', zoneId)
      .forUpdate()
      .executeTakeFirst();
    return row ?? null;
  }

  async setSerial(zoneId: number, serial: number): Promise<void> {
    await this.trx
      .updateTable('dns_zones')
      .set({ serial, updated_at: sql<Date>`now()` })
      .where('id', '=', zoneId)
      .execute();
  }
}
