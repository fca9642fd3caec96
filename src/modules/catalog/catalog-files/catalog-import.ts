/**
 * Writes a checked catalogue file into the tables, replacing that part of the catalogue as a whole
 * in one transaction: rows keep the file's ids (upserted), rows the file no longer has go. A
 * reference the file cannot check alone (a capacity row's hardware tier) is checked here, and a
 * problem rolls everything back.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { CatalogTables } from '../catalog-tables.ts';
import type {
  CapacityFileData,
  CatalogFile,
  ContainersFileData,
  OsTemplatesFileData,
  ProductsFileData,
} from './catalog-file-schemas.ts';

/** A file the tables refuse (e.g. it names a hardware tier the catalogue does not have). */
export class CatalogImportError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

export interface ImportSummary {
  readonly kind: CatalogFile['kind'];
  /** Rows written per table, and rows the file removed. */
  readonly written: Record<string, number>;
  readonly removed: Record<string, number>;
}

type Trx = Transaction<CatalogTables>;
const json = (v: unknown) => (v === null || v === undefined ? null : sql`${JSON.stringify(v)}::jsonb`);

/** The table whose emptiness says a part of the catalogue was never imported. */
const FIRST_TABLE = {
  products: 'catalog_products',
  capacity: 'catalog_location_capacity',
  os_templates: 'catalog_os_templates',
  containers: 'catalog_runtimes',
} as const;

/**
 * Imports `file`; with `onlyIfEmpty`, only when its part of the catalogue was never imported
 * (first start: null then). Imports serialise on one advisory lock, so processes starting
 * together seed once.
 */
export async function importCatalogFile(
  db: Kysely<CatalogTables>,
  file: CatalogFile,
  options: { onlyIfEmpty?: boolean } = {},
): Promise<ImportSummary | null> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('catalog-import'))`.execute(trx);
    if (options.onlyIfEmpty === true) {
      const any = await trx
        .selectFrom(FIRST_TABLE[file.kind])
        .select(sql`1`.as('one'))
        .limit(1)
        .executeTakeFirst();
      if (any !== undefined) return null;
    }
    const summary: ImportSummary = { kind: file.kind, written: {}, removed: {} };
    switch (file.kind) {
      case 'products':
        await importProducts(trx, file, summary);
        break;
      case 'capacity':
        await importCapacity(trx, file, summary);
        break;
      case 'os_templates':
        await importTemplates(trx, file, summary);
        break;
      case 'containers':
        await importContainers(trx, file, summary);
        break;
    }
    return summary;
  });
}

/** Inserts `values`, or updates every other column of the row with the same `key`. */
async function upsert(
  trx: Trx,
  table: keyof CatalogTables,
  key: 'id' | 'uuid',
  values: Readonly<Record<string, unknown>>,
): Promise<void> {
  const { [key]: _key, ...changes } = values;
  await trx
    .insertInto(table as 'catalog_products')
    .values(values as never)
    .onConflict((oc) => oc.column(key as 'id').doUpdateSet(changes as never))
    .execute();
}

/**
 * Slugs may move between ids within one file: once the rows the file lacks are gone, every row
 * left gets a placeholder slug (`~<key>`) the upserts then overwrite, so no unique check trips.
 */
async function parkSlugs(trx: Trx, table: keyof CatalogTables, key: 'id' | 'uuid'): Promise<void> {
  await trx
    .updateTable(table as 'catalog_products')
    .set({ slug: sql`'~' || ${sql.ref(key)}::text` })
    .execute();
}

/** Deletes the rows of `table` whose `key` is not in `keep`; answers how many went. */
async function removeOthers(
  trx: Trx,
  table: keyof CatalogTables,
  key: string,
  keep: readonly (number | string)[],
): Promise<number> {
  let query = trx.deleteFrom(table as 'catalog_products');
  if (keep.length > 0) query = query.where(key as 'id', 'not in', keep as number[]);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

async function importProducts(trx: Trx, file: ProductsFileData, s: ImportSummary): Promise<void> {
  for (const t of file.hardware_tiers) await upsert(trx, 'catalog_hardware_tiers', 'id', t);
  const productIds = file.products.map((p) => p.id);
  // Products first: a tier leaving may still be named by a product leaving with it.
  s.removed.products = await removeOthers(trx, 'catalog_products', 'id', productIds);
  s.removed.hardware_tiers = await removeOthers(
    trx,
    'catalog_hardware_tiers',
    'id',
    file.hardware_tiers.map((t) => t.id),
  );
  await parkSlugs(trx, 'catalog_products', 'id');
  for (const p of file.products) {
    const values = {
      id: p.id,
      slug: p.slug,
      name: p.name,
      description: p.description,
      group_name: p.group_name,
      module_name: p.module_name,
      hardware_tier_id: p.hardware_tier_id,
      status: p.status,
      config_schema: json(p.config_schema),
      sort_order: p.sort_order,
      stock_limit: p.stock_limit,
      metadata: json(p.metadata),
    };
    await upsert(trx, 'catalog_products', 'id', values);
  }
  s.written.products = file.products.length;
  s.written.hardware_tiers = file.hardware_tiers.length;

  const prices = file.products.flatMap((p) => p.pricing.map((x) => ({ ...x, product_id: p.id })));
  s.removed.pricing = await removeOthers(
    trx,
    'catalog_pricing',
    'id',
    prices.map((x) => x.id),
  );
  for (const x of prices) {
    const values = { ...x, metadata: json(x.metadata) };
    await upsert(trx, 'catalog_pricing', 'id', values);
  }
  s.written.pricing = prices.length;

  // Options and locations have no life of their own: rewritten whole.
  await trx.deleteFrom('catalog_config_options').execute();
  const options = file.products.flatMap((p) =>
    p.config_options.map((o) => ({ ...o, product_id: p.id, options: json(o.options) })),
  );
  for (let i = 0; i < options.length; i += 200)
    await trx
      .insertInto('catalog_config_options')
      .values(options.slice(i, i + 200) as never)
      .execute();
  s.written.config_options = options.length;
  await trx.deleteFrom('catalog_product_locations').execute();
  const locations = file.products.flatMap((p) =>
    p.locations.map((code) => ({ product_id: p.id, location_code: code })),
  );
  if (locations.length > 0) await trx.insertInto('catalog_product_locations').values(locations).execute();
  s.written.product_locations = locations.length;
}

async function importCapacity(trx: Trx, file: CapacityFileData, s: ImportSummary): Promise<void> {
  const tiers = new Set(
    (await trx.selectFrom('catalog_hardware_tiers').select('id').execute()).map((t) => Number(t.id)),
  );
  const problems = file.capacity.flatMap((c, i) =>
    tiers.has(c.hardware_tier_id)
      ? []
      : [`capacity[${i}].hardware_tier_id: ${c.hardware_tier_id} is no hardware tier of the catalogue`],
  );
  if (problems.length > 0) throw new CatalogImportError(problems);
  s.removed.capacity = Number(
    (await trx.deleteFrom('catalog_location_capacity').executeTakeFirst()).numDeletedRows,
  );
  const rows = file.capacity.map((c) => ({
    location_code: c.location,
    module: c.module,
    hardware_tier_id: c.hardware_tier_id,
    free_memory_mb: c.free_memory_mb,
    free_disk_mb: c.free_disk_mb,
  }));
  if (rows.length > 0) await trx.insertInto('catalog_location_capacity').values(rows).execute();
  s.written.capacity = rows.length;
}

async function importTemplates(trx: Trx, file: OsTemplatesFileData, s: ImportSummary): Promise<void> {
  s.removed.os_templates = await removeOthers(
    trx,
    'catalog_os_templates',
    'id',
    file.os_templates.map((t) => t.id),
  );
  await parkSlugs(trx, 'catalog_os_templates', 'id');
  for (const t of file.os_templates) {
    const values = {
      id: t.id,
      slug: t.slug,
      name: t.name,
      min_memory_mb: t.min_memory_mb,
      min_disk_gb: t.min_disk_gb,
      location_codes: t.locations,
    };
    await upsert(trx, 'catalog_os_templates', 'id', values);
  }
  s.written.os_templates = file.os_templates.length;
}

async function importContainers(trx: Trx, file: ContainersFileData, s: ImportSummary): Promise<void> {
  s.removed.runtimes = await removeOthers(
    trx,
    'catalog_runtimes',
    'uuid',
    file.runtimes.map((r) => r.uuid),
  );
  s.removed.specializations = await removeOthers(
    trx,
    'catalog_specializations',
    'uuid',
    file.specializations.map((x) => x.uuid),
  );
  await parkSlugs(trx, 'catalog_runtimes', 'uuid');
  await parkSlugs(trx, 'catalog_specializations', 'uuid');
  for (const r of file.runtimes) {
    await upsert(trx, 'catalog_runtimes', 'uuid', r);
  }
  for (const x of file.specializations) {
    const values = {
      ...x,
      default_variables: json(x.default_variables),
      metadata: json(x.metadata),
      versions: json(x.versions),
      defaults: json(x.defaults),
    };
    await upsert(trx, 'catalog_specializations', 'uuid', values);
  }
  s.written.runtimes = file.runtimes.length;
  s.written.specializations = file.specializations.length;
}
