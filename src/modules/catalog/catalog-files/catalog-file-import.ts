import type { Runtime } from '../../../kernel/runtime/runtime.ts';
import { catalogContext } from '../catalog-context.ts';
import { checkCatalogFile } from './catalog-file-check.ts';
import type { CatalogFile } from './catalog-file-schemas.ts';
import { CatalogImportError, importCatalogFile, type ImportSummary } from './catalog-import.ts';
import { seedShippedCatalog } from './shipped-catalog.ts';

export type FileImportResult =
  | { readonly ok: true; readonly summary: ImportSummary }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * Imports a checked catalogue file (checkCatalogFile) in one transaction; what only the database
 * can tell (a capacity row's hardware tier) comes back as problems, and then nothing changed. A
 * database the product never started on gets the shipped catalogue first, as a start would.
 */
export async function importCheckedCatalogFile(
  runtime: Runtime,
  file: CatalogFile,
): Promise<FileImportResult> {
  const ctx = catalogContext(runtime);
  await seedShippedCatalog(ctx);
  try {
    return { ok: true, summary: (await importCatalogFile(ctx, file))! };
  } catch (error) {
    if (error instanceof CatalogImportError) return { ok: false, problems: error.problems };
    throw error;
  }
}

/** A catalogue file's text checked and imported: `npm run catalog -- import` in one call. */
export async function importCatalogFileText(runtime: Runtime, text: string): Promise<FileImportResult> {
  const checked = checkCatalogFile(text);
  return checked.ok
    ? importCheckedCatalogFile(runtime, checked.file)
    : { ok: false, problems: checked.problems };
}
