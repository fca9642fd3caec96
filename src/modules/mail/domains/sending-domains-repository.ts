import type { Kysely, Transaction } from 'kysely';
import type { DomainRow, MailTables } from '../mail-tables.ts';

type Db = Kysely<MailTables> | Transaction<MailTables>;

export type NewDomain = Pick<
  DomainRow,
  | 'service_id'
  | 'domain'
  | 'selector'
  | 'dkim_private_key'
  | 'dkim_public_key'
  | 'zone_id'
  | 'status'
  | 'created_at'
>;

/** What a check of a domain's records leaves on its row. */
export type DomainCheck = Pick<DomainRow, 'status' | 'verified_at' | 'checked_at' | 'check_result'>;

/** The sending domains of relays, each with its DKIM key (the private key sealed). */
export class SendingDomainsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<MailTables>): SendingDomainsRepository {
    return new SendingDomainsRepository(trx);
  }

  /** The relay's domains by name. */
  async listOf(serviceId: number): Promise<DomainRow[]> {
    return this.db
      .selectFrom('mail_domains')
      .selectAll()
      .where('service_id', '=', serviceId)
      .orderBy('domain')
      .execute();
  }

  async find(serviceId: number, domain: string): Promise<DomainRow | null> {
    return (
      (await this.db
        .selectFrom('mail_domains')
        .selectAll()
        .where('service_id', '=', serviceId)
        .where('domain', '=', domain)
        .executeTakeFirst()) ?? null
    );
  }

  async insert(row: NewDomain): Promise<DomainRow> {
    return this.db
      .insertInto('mail_domains')
      .values(row as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async recordCheck(id: number, check: DomainCheck): Promise<DomainRow> {
    return this.db
      .updateTable('mail_domains')
      .set({ ...check, check_result: JSON.stringify(check.check_result) } as never)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Another relay's row for the same domain, published in the same zone (oldest first), if any. */
  async otherPublished(domain: string, zoneId: number, exceptId: number): Promise<DomainRow | null> {
    return (
      (await this.db
        .selectFrom('mail_domains')
        .selectAll()
        .where('domain', '=', domain)
        .where('zone_id', '=', zoneId)
        .where('id', '!=', exceptId)
        .orderBy('id')
        .executeTakeFirst()) ?? null
    );
  }

  async setSpfPart(id: number, spfPart: boolean): Promise<void> {
    await this.db.updateTable('mail_domains').set({ spf_part: spfPart }).where('id', '=', id).execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('mail_domains').where('id', '=', id).execute();
  }

  /** A relay ended: its domains go back to pending, published nowhere. */
  async unpublishAll(serviceId: number): Promise<void> {
    await this.db
      .updateTable('mail_domains')
      .set({ status: 'pending', verified_at: null, zone_id: null })
      .where('service_id', '=', serviceId)
      .execute();
  }
}
