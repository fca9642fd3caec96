/** The catalogue module's public surface. */
export { createCatalogModule } from './catalog-module.ts';
export { importCatalogFileText } from './catalog-files/catalog-file-import.ts';
