/** The keys module's public surface. */
export { createKeysModule, type KeysModuleDeps } from './keys-module.ts';
