/** The resellers module's public surface: an organization's routes over its customers' services. */
export { createResellersModule, type ResellersModuleDeps } from './resellers-module.ts';
