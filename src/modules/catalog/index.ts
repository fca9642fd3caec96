/** The catalogue module's public surface. */
export { createCatalogModule, type CatalogModule } from './catalog-module.ts';
export type {
  CatalogOffers,
  Offer,
  OfferOption,
  OsTemplate,
  OsTemplates,
  ProductProvisioner,
} from './catalog-interfaces.ts';
export { checkCatalogFile } from './catalog-files/catalog-file-check.ts';
export { importCatalogFileText, importCheckedCatalogFile } from './catalog-files/catalog-file-import.ts';
