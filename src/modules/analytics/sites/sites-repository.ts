import type { Kysely, Transaction } from 'kysely';
import type { AnalyticsSiteRow, AnalyticsTables } from '../analytics-tables.ts';

/** Organizations' public site keys. */
export class SitesRepository {
  constructor(private readonly db: Kysely<AnalyticsTables> | Transaction<AnalyticsTables>) {}

  withTx(trx: Transaction<AnalyticsTables>): SitesRepository {
    return new SitesRepository(trx);
  }

  async byOrg(orgId: number): Promise<AnalyticsSiteRow | null> {
    return (
      (await this.db
        .selectFrom('analytics_sites')
        .selectAll()
        .where('org_id', '=', orgId)
        .executeTakeFirst()) ?? null
    );
  }

  async byKey(siteKey: string): Promise<AnalyticsSiteRow | null> {
    return (
      (await this.db
        .selectFrom('analytics_sites')
        .selectAll()
        .where('site_key', '=', siteKey)
        .executeTakeFirst()) ?? null
    );
  }

  /** Makes the organization's key unless it has one; answers the one kept. */
  async ensure(orgId: number, siteKey: string, at: Date): Promise<AnalyticsSiteRow> {
    await this.db
      .insertInto('analytics_sites')
      .values({ org_id: orgId, site_key: siteKey, created_at: at })
      .onConflict((oc) => oc.column('org_id').doNothing())
      .execute();
    return (await this.byOrg(orgId))!;
  }
}
