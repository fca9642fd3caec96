import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { CatalogContext } from '../catalog-context.ts';
import { checkCatalogFile } from './catalog-file-check.ts';
import type { CatalogFileKind } from './catalog-file-schemas.ts';
import { importCatalogFile, type ImportSummary } from './catalog-import.ts';

/** The catalogue shipped with the product: the reviewable files of catalog/ (one per kind). */
export const SHIPPED_CATALOG_DIR = fileURLToPath(new URL('../../../../catalog/', import.meta.url));
export const SHIPPED_FILES: Readonly<Record<CatalogFileKind, string>> = {
  products: 'products.json',
  capacity: 'capacity.json',
  os_templates: 'os-templates.json',
  containers: 'containers.json',
};

/**
 * At start: every part of the catalogue that was never imported is imported from the shipped
 * files (products before capacity: capacity names hardware tiers). Parts already there are left
 * as they are: after the first start, `npm run catalog -- import` is how the catalogue changes.
 * A shipped file with a problem stops the start, with every problem in the message.
 */
export async function seedShippedCatalog(ctx: CatalogContext): Promise<ImportSummary[]> {
  const done: ImportSummary[] = [];
  for (const [kind, name] of Object.entries(SHIPPED_FILES) as [CatalogFileKind, string][]) {
    const path = `${SHIPPED_CATALOG_DIR}${name}`;
    const checked = checkCatalogFile(await readFile(path, 'utf8'), kind);
    if (!checked.ok) throw new Error(`${path}:\n${checked.problems.join('\n')}`);
    const summary = await importCatalogFile(ctx, checked.file, { onlyIfEmpty: true });
    if (summary !== null) done.push(summary);
  }
  return done;
}
