/** The catalogue module's public surface. */
export { createCatalogModule } from './catalog-module.ts';
export { checkCatalogFile } from './catalog-files/catalog-file-check.ts';
export { importCatalogFileText, importCheckedCatalogFile } from './catalog-files/catalog-file-import.ts';
