import { tablesOf, type Runtime } from '../../../kernel/runtime/runtime.ts';
import type { CatalogTables } from '../catalog-tables.ts';
import { checkCatalogFile } from './catalog-file-check.ts';
import { CatalogImportError, importCatalogFile, type ImportSummary } from './catalog-import.ts';

export type FileImportResult =
  | { readonly ok: true; readonly summary: ImportSummary }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * `npm run catalog -- import <file>` and `check <file>`: the file's text checked, then (unless
 * `dryRun`) imported in one transaction. Any problem: nothing changes, every problem is answered.
 */
export async function importCatalogFileText(
  runtime: Runtime,
  text: string,
  options: { dryRun?: boolean } = {},
): Promise<FileImportResult> {
  const checked = checkCatalogFile(text);
  if (!checked.ok) return { ok: false, problems: checked.problems };
  if (options.dryRun === true)
    return { ok: true, summary: { kind: checked.file.kind, written: {}, removed: {} } };
  try {
    const summary = await importCatalogFile(tablesOf<CatalogTables>(runtime), checked.file);
    return { ok: true, summary: summary! };
  } catch (error) {
    if (error instanceof CatalogImportError) return { ok: false, problems: error.problems };
    throw error;
  }
}
