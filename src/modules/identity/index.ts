/** The identity module's public surface: accounts, sessions and sign-in of the three realms. */
export { accountByEmail, createIdentityModule, type IdentityModule } from './identity-module.ts';
export type {
  AccountsDirectory,
  AccountView,
  CustomerInsights,
  MfaChallenge,
  PublicCustomer,
  RealmSignIn,
  StaffAccounts,
  TeammateAccount,
  TokenPair,
} from './identity-interfaces.ts';
export { customerCreated, type CustomerCreated } from './identity-events.ts';
/** The sign-in bodies and answers, for the organizations module's storefront and staff routes. */
export {
  ForgotPasswordBody,
  LoginBody,
  MfaChallengeView,
  RefreshBody,
  RegisterBody,
  RESET_SENT,
  ResetPasswordBody,
  ResetSentView,
  TokenPairView,
  UserView,
} from './sign-in/sign-in-schemas.ts';
export { MessageView } from './shared/message-schemas.ts';
