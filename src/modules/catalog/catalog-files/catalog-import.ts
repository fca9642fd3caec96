/**
 * Writes a checked catalogue file into the tables, replacing that part of the catalogue as a whole
 * in one transaction: rows keep the file's ids (upserted), rows the file no longer has go. A
 * reference the file cannot check alone (a capacity row's hardware tier) is checked here, and a
 * problem rolls everything back.
 */
import type { CatalogContext } from '../catalog-context.ts';
import type {
  CapacityFileData,
  CatalogFile,
  ContainersFileData,
  OsTemplatesFileData,
  ProductsFileData,
} from './catalog-file-schemas.ts';
import { CatalogImportRepository } from './catalog-import-repository.ts';

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

/** The table whose emptiness says a part of the catalogue was never imported. */
const FIRST_TABLE = {
  products: 'catalog_products',
  capacity: 'catalog_location_capacity',
  os_templates: 'catalog_os_templates',
  containers: 'catalog_runtimes',
} as const;

/**
 * Imports `file`; with `onlyIfEmpty`, only when its part of the catalogue was never imported
 * (first start: null then). Imports serialise on one lock, so processes starting together seed
 * once.
 */
export async function importCatalogFile(
  ctx: CatalogContext,
  file: CatalogFile,
  options: { onlyIfEmpty?: boolean } = {},
): Promise<ImportSummary | null> {
  return ctx.transaction(async ({ trx }) => {
    const repo = new CatalogImportRepository(ctx.db).withTx(trx);
    await repo.lockImports();
    if (options.onlyIfEmpty === true && !(await repo.isEmpty(FIRST_TABLE[file.kind]))) return null;
    const summary: ImportSummary = { kind: file.kind, written: {}, removed: {} };
    switch (file.kind) {
      case 'products':
        await importProducts(repo, file, summary);
        break;
      case 'capacity':
        await importCapacity(repo, file, summary);
        break;
      case 'os_templates':
        await importTemplates(repo, file, summary);
        break;
      case 'containers':
        await importContainers(repo, file, summary);
        break;
    }
    return summary;
  });
}

type Repo = CatalogImportRepository;

async function importProducts(repo: Repo, file: ProductsFileData, s: ImportSummary): Promise<void> {
  for (const t of file.hardware_tiers) await repo.upsert('catalog_hardware_tiers', 'id', t);
  const productIds = file.products.map((p) => p.id);
  // Products first: a tier leaving may still be named by a product leaving with it.
  s.removed.products = await repo.removeOthers('catalog_products', 'id', productIds);
  s.removed.hardware_tiers = await repo.removeOthers(
    'catalog_hardware_tiers',
    'id',
    file.hardware_tiers.map((t) => t.id),
  );
  await repo.parkSlugs('catalog_products', 'id');
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
      config_schema: p.config_schema,
      sort_order: p.sort_order,
      stock_limit: p.stock_limit,
      metadata: p.metadata,
    };
    await repo.upsert('catalog_products', 'id', values);
  }
  s.written.products = file.products.length;
  s.written.hardware_tiers = file.hardware_tiers.length;
  await importPrices(repo, file, s);
  await importOptionsAndLocations(repo, file, s);
}

async function importPrices(repo: Repo, file: ProductsFileData, s: ImportSummary): Promise<void> {
  const prices = file.products.flatMap((p) => p.pricing.map((x) => ({ ...x, product_id: p.id })));
  s.removed.pricing = await repo.removeOthers(
    'catalog_pricing',
    'id',
    prices.map((x) => x.id),
  );
  for (const x of prices) await repo.upsert('catalog_pricing', 'id', x);
  s.written.pricing = prices.length;
}

/** Options and locations have no life of their own: rewritten whole. */
async function importOptionsAndLocations(
  repo: Repo,
  file: ProductsFileData,
  s: ImportSummary,
): Promise<void> {
  await repo.removeAll('catalog_config_options');
  const options = file.products.flatMap((p) => p.config_options.map((o) => ({ ...o, product_id: p.id })));
  await repo.insertAll('catalog_config_options', options, 200);
  s.written.config_options = options.length;
  await repo.removeAll('catalog_product_locations');
  const locations = file.products.flatMap((p) =>
    p.locations.map((code) => ({ product_id: p.id, location_code: code })),
  );
  await repo.insertAll('catalog_product_locations', locations);
  s.written.product_locations = locations.length;
}

async function importCapacity(repo: Repo, file: CapacityFileData, s: ImportSummary): Promise<void> {
  const tiers = await repo.hardwareTierIds();
  const problems = file.capacity.flatMap((c, i) =>
    tiers.has(c.hardware_tier_id)
      ? []
      : [`capacity[${i}].hardware_tier_id: ${c.hardware_tier_id} is no hardware tier of the catalogue`],
  );
  if (problems.length > 0) throw new CatalogImportError(problems);
  s.removed.capacity = await repo.removeAll('catalog_location_capacity');
  const rows = file.capacity.map((c) => ({
    location_code: c.location,
    module: c.module,
    hardware_tier_id: c.hardware_tier_id,
    free_memory_mb: c.free_memory_mb,
    free_disk_mb: c.free_disk_mb,
  }));
  await repo.insertAll('catalog_location_capacity', rows);
  s.written.capacity = rows.length;
}

async function importTemplates(repo: Repo, file: OsTemplatesFileData, s: ImportSummary): Promise<void> {
  s.removed.os_templates = await repo.removeOthers(
    'catalog_os_templates',
    'id',
    file.os_templates.map((t) => t.id),
  );
  await repo.parkSlugs('catalog_os_templates', 'id');
  for (const t of file.os_templates) {
    const values = {
      id: t.id,
      slug: t.slug,
      name: t.name,
      min_memory_mb: t.min_memory_mb,
      min_disk_gb: t.min_disk_gb,
      location_codes: t.locations,
      pve_template_vmid: t.pve_template_vmid ?? null,
    };
    await repo.upsert('catalog_os_templates', 'id', values);
  }
  s.written.os_templates = file.os_templates.length;
}

async function importContainers(repo: Repo, file: ContainersFileData, s: ImportSummary): Promise<void> {
  s.removed.runtimes = await repo.removeOthers(
    'catalog_runtimes',
    'uuid',
    file.runtimes.map((r) => r.uuid),
  );
  s.removed.specializations = await repo.removeOthers(
    'catalog_specializations',
    'uuid',
    file.specializations.map((x) => x.uuid),
  );
  await repo.parkSlugs('catalog_runtimes', 'uuid');
  await repo.parkSlugs('catalog_specializations', 'uuid');
  for (const r of file.runtimes) await repo.upsert('catalog_runtimes', 'uuid', r);
  for (const x of file.specializations) await repo.upsert('catalog_specializations', 'uuid', x);
  s.written.runtimes = file.runtimes.length;
  s.written.specializations = file.specializations.length;
}
