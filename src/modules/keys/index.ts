/** The keys module's public surface. */
export { createKeysModule, type KeysModuleDeps } from './keys-module.ts';
/**
 * Key material for the relay keys the mail module issues (a credential kind of their own:
 * docs/keys-and-limits.md, "Credentials").
 */
export { RELAY_KEY_PREFIX, keyMatches, lookupOf, newKey } from './shared/key-material.ts';
/** Partner keys, made and revoked by platform staff (`npm run org -- partner-key ...`). */
export {
  issuePartnerKey,
  revokePartnerKeys,
  PARTNER_SLUG,
  type IssuedPartnerKey,
} from './partner-keys/partner-key-commands.ts';
