/** The identity module's public surface: accounts and sign-in. */
export { createIdentityModule } from './identity-module.ts';
