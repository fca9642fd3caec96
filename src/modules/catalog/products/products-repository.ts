import { sql, type Kysely } from 'kysely';
import type {
  CatalogTables,
  ConfigOptionRow,
  HardwareTierRow,
  LocationCapacityRow,
  OsTemplateRow,
  PricingRow,
  ProductRow,
} from '../catalog-tables.ts';

/** Everything a product's answer is made of, read in a few queries for a page of products. */
export interface ProductRows {
  readonly products: ProductRow[];
  readonly tiers: Map<number, HardwareTierRow>;
  readonly pricing: Map<number, PricingRow[]>;
  readonly options: Map<number, ConfigOptionRow[]>;
  readonly locations: Map<number, string[]>;
  readonly capacity: LocationCapacityRow[];
  /** Every listed product of each group (group availability looks at all of them). */
  readonly groups: Map<string, ProductRow[]>;
}

export interface ProductFilter {
  readonly group?: string;
  readonly hardwareTier?: string;
  readonly hardwareTierId?: number;
}

function byKey<T>(rows: readonly T[], key: (r: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

/** The catalogue's products as the routes read them (the files write them: catalog-import.ts). */
export class ProductsRepository {
  constructor(private readonly db: Kysely<CatalogTables>) {}

  /** Listed products (`active`), catalogue order (sort_order, id), one page. */
  async list(filter: ProductFilter, page: number, perPage: number): Promise<ProductRows> {
    let query = this.db
      .selectFrom('catalog_products as p')
      .leftJoin('catalog_hardware_tiers as t', 't.id', 'p.hardware_tier_id')
      .selectAll('p')
      .where('p.status', '=', 'active');
    if (filter.group !== undefined)
      query = query.where(sql<boolean>`lower(p.group_name) = lower(${filter.group})`);
    if (filter.hardwareTier !== undefined) query = query.where('t.slug', '=', filter.hardwareTier);
    if (filter.hardwareTierId !== undefined)
      query = query.where('p.hardware_tier_id', '=', filter.hardwareTierId);
    const products = await query
      .orderBy('p.sort_order')
      .orderBy('p.id')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    return this.around(products);
  }

  /** A product that is not retired (hidden ones are ordered by their id), or null. */
  async find(productId: number): Promise<ProductRows | null> {
    const product = await this.db
      .selectFrom('catalog_products')
      .selectAll()
      .where('id', '=', productId)
      .where('status', '!=', 'retired')
      .executeTakeFirst();
    return product === undefined ? null : this.around([product]);
  }

  async holdStock(productId: number, delta: 1 | -1): Promise<void> {
    await this.db
      .updateTable('catalog_products')
      .set({ stock_used: sql`greatest(0, stock_used + ${delta})` })
      .where('id', '=', productId)
      .execute();
  }

  async tiers(): Promise<HardwareTierRow[]> {
    return this.db.selectFrom('catalog_hardware_tiers').selectAll().orderBy('id').execute();
  }

  async templates(): Promise<OsTemplateRow[]> {
    return this.db.selectFrom('catalog_os_templates').selectAll().orderBy('id').execute();
  }

  async template(templateId: number): Promise<OsTemplateRow | null> {
    return (
      (await this.db
        .selectFrom('catalog_os_templates')
        .selectAll()
        .where('id', '=', templateId)
        .executeTakeFirst()) ?? null
    );
  }

  async capacity(module: string): Promise<LocationCapacityRow[]> {
    return this.db.selectFrom('catalog_location_capacity').selectAll().where('module', '=', module).execute();
  }

  private async around(products: ProductRow[]): Promise<ProductRows> {
    const ids = products.map((p) => Number(p.id));
    const groupNames = [...new Set(products.map((p) => p.group_name).filter((g): g is string => g !== null))];
    const groupRows =
      groupNames.length === 0
        ? []
        : await this.db
            .selectFrom('catalog_products')
            .selectAll()
            .where('group_name', 'in', groupNames)
            .where('status', '=', 'active')
            .execute();
    const all = [...new Map([...products, ...groupRows].map((p) => [Number(p.id), p])).keys()];
    const none = all.length === 0;
    const [tiers, pricing, options, locations, capacity] = await Promise.all([
      this.tiers(),
      none
        ? []
        : this.db
            .selectFrom('catalog_pricing')
            .selectAll()
            .select([sql<string>`price::text`.as('price'), sql<string>`setup_fee::text`.as('setup_fee')])
            .where('product_id', 'in', all)
            .orderBy('sort_order')
            .orderBy('id')
            .execute(),
      ids.length === 0
        ? []
        : this.db
            .selectFrom('catalog_config_options')
            .selectAll()
            .select(sql<string>`price_modifier::text`.as('price_modifier'))
            .where('product_id', 'in', ids)
            .orderBy('sort_order')
            .orderBy('id')
            .execute(),
      none
        ? []
        : this.db
            .selectFrom('catalog_product_locations')
            .selectAll()
            .where('product_id', 'in', all)
            .execute(),
      this.db.selectFrom('catalog_location_capacity').selectAll().execute(),
    ]);
    const groups = new Map<string, ProductRow[]>();
    for (const p of groupRows) {
      const list = groups.get(p.group_name!);
      if (list) list.push(p);
      else groups.set(p.group_name!, [p]);
    }
    const locationCodes = new Map<number, string[]>();
    for (const [id, rows] of byKey(locations, (l) => Number(l.product_id)))
      locationCodes.set(id, rows.map((r) => r.location_code).sort());
    return {
      products,
      tiers: new Map(tiers.map((t) => [Number(t.id), t])),
      pricing: byKey(pricing as PricingRow[], (p) => Number(p.product_id)),
      options: byKey(options as ConfigOptionRow[], (o) => Number(o.product_id)),
      locations: locationCodes,
      capacity,
      groups,
    };
  }
}
