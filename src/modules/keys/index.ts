/** The keys module's public surface. */
export { createKeysModule, type KeysModuleDeps } from './keys-module.ts';
/** Key material for the relay keys the mail module issues (the seed's third credential kind). */
export { RELAY_KEY_PREFIX, keyMatches, lookupOf, newKey } from './shared/key-material.ts';
