/** The identity module's public surface: accounts, sessions and sign-in of the three realms. */
export { createIdentityModule, type IdentityModule } from './identity-module.ts';
export type {
  AccountsDirectory,
  AccountView,
  MfaChallenge,
  PublicCustomer,
  RealmSignIn,
  TokenPair,
} from './identity-interfaces.ts';
export { customerCreated, type CustomerCreated } from './identity-events.ts';
