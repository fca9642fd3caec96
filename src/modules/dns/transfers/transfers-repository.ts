import { sql, type Kysely, type Transaction } from 'kysely';
import type { DnsTables, ZoneTransferRow } from '../dns-tables.ts';

export interface TransferSettingsWrite {
  allowFrom: readonly string[];
  notify: readonly string[];
  tsig: { name: string; algorithm: string; secret: Uint8Array } | null;
}

/** Settings rows (dns_zone_transfers) and kept versions (dns_zone_versions). */
export class TransfersRepository {
  constructor(private readonly db: Kysely<DnsTables> | Transaction<DnsTables>) {}

  withTx(trx: Transaction<DnsTables>): TransfersRepository {
    return new TransfersRepository(trx);
  }

  async find(zoneId: number): Promise<ZoneTransferRow | null> {
    const row = await this.db
      .selectFrom('dns_zone_transfers')
      .selectAll()
      .where('zone_id', '=', zoneId)
      .executeTakeFirst();
    return row ?? null;
  }

  async listAll(): Promise<ZoneTransferRow[]> {
    return this.db.selectFrom('dns_zone_transfers').selectAll().execute();
  }

  async upsert(zoneId: number, s: TransferSettingsWrite, now: Date): Promise<void> {
    const values = {
      allow_from: sql`${JSON.stringify(s.allowFrom)}::jsonb`,
      notify: sql`${JSON.stringify(s.notify)}::jsonb`,
      tsig_name: s.tsig?.name ?? null,
      tsig_algorithm: s.tsig?.algorithm ?? null,
      tsig_secret: s.tsig?.secret ?? null,
      updated_at: now,
    };
    await this.db
      .insertInto('dns_zone_transfers')
      .values({ zone_id: zoneId, ...values } as never)
      .onConflict((oc) => oc.column('zone_id').doUpdateSet(values as never))
      .execute();
  }

  /** Stores a version unless one with that serial is kept already. */
  async addVersion(zoneId: number, serial: number, records: Uint8Array, now: Date): Promise<void> {
    await this.db
      .insertInto('dns_zone_versions')
      .values({ zone_id: zoneId, serial, records, created_at: now })
      .onConflict((oc) => oc.columns(['zone_id', 'serial']).doNothing())
      .execute();
  }

  /** Deletes all but the `keep` newest versions of a zone. */
  async pruneVersions(zoneId: number, keep: number): Promise<void> {
    await sql`DELETE FROM dns_zone_versions WHERE zone_id = ${zoneId} AND id NOT IN (
      SELECT id FROM dns_zone_versions WHERE zone_id = ${zoneId} ORDER BY id DESC LIMIT ${keep})`.execute(
      this.db,
    );
  }

  async findVersion(zoneId: number, serial: number): Promise<Uint8Array | null> {
    const row = await this.db
      .selectFrom('dns_zone_versions')
      .select('records')
      .where('zone_id', '=', zoneId)
      .where('serial', '=', serial)
      .executeTakeFirst();
    return row?.records ?? null;
  }
}
