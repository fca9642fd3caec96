import type { Kysely, Transaction } from 'kysely';
import type { CatalogTables, RuntimeRow, SpecializationRow } from '../catalog-tables.ts';

type Db = Kysely<CatalogTables> | Transaction<CatalogTables>;

/** The container catalogue as the routes read it: the platform's own specializations, runtimes. */
export class ContainerCatalogRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CatalogTables>): ContainerCatalogRepository {
    return new ContainerCatalogRepository(trx);
  }

  /** Every specialization of the platform (no organization's own), catalogue order. */
  async specializations(category: string | undefined): Promise<SpecializationRow[]> {
    let query = this.db.selectFrom('catalog_specializations').selectAll().where('org_id', 'is', null);
    if (category !== undefined) query = query.where('category', '=', category);
    return query.orderBy('sort_order').orderBy('slug').execute();
  }

  /** The platform's specialization `slug`, or null. */
  async specialization(slug: string): Promise<SpecializationRow | null> {
    const row = await this.db
      .selectFrom('catalog_specializations')
      .selectAll()
      .where('slug', '=', slug)
      .where('org_id', 'is', null)
      .executeTakeFirst();
    return row ?? null;
  }

  /** Every runtime, ordered by slug. */
  async runtimes(): Promise<RuntimeRow[]> {
    return this.db.selectFrom('catalog_runtimes').selectAll().orderBy('slug').execute();
  }
}
