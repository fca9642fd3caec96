/**
 * The identity module's tables as Kysely sees them (migrations/*_auth_users.sql,
 * *_identity_*.sql): main-site users, storefront customers, sessions and their refresh tokens,
 * password resets, TOTP second factors, recovery codes and pending second-factor sign-ins.
 */
import type { Realm } from '../../kernel/auth/principal.ts';

export interface UserRow {
  id: number;
  email: string;
  password_hash: string;
  created_at: Date;
}

export interface CustomerRow {
  id: number;
  org_id: number;
  email: string;
  password_hash: string;
  created_at: Date;
}

export interface SessionRow {
  id: string;
  realm: Realm;
  subject_id: number;
  org_id: number | null;
  created_at: Date;
  ended_at: Date | null;
}

export interface RefreshTokenRow {
  id: number;
  subject_id: number;
  realm: Realm;
  org_id: number | null;
  session_id: string | null;
  token_hash: string;
  expires_at: Date;
  revoked_at: Date | null;
  created_at: Date;
}

export interface PasswordResetRow {
  id: number;
  token_hash: string;
  realm: Realm;
  subject_id: number;
  org_id: number | null;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
}

export interface MfaRow {
  user_id: number;
  /** Sealed TOTP secret (base32 text). */
  secret: Uint8Array;
  enabled_at: Date | null;
  last_step: number | null;
  created_at: Date;
}

export interface RecoveryCodeRow {
  id: number;
  user_id: number;
  code_hash: string;
  used_at: Date | null;
  created_at: Date;
}

export interface MfaChallengeRow {
  token_hash: string;
  user_id: number;
  realm: Realm;
  org_id: number | null;
  expires_at: Date;
  used_at: Date | null;
}

export interface IdentityTables {
  identity_users: UserRow;
  identity_customers: CustomerRow;
  identity_sessions: SessionRow;
  identity_refresh_tokens: RefreshTokenRow;
  identity_password_resets: PasswordResetRow;
  identity_mfa: MfaRow;
  identity_recovery_codes: RecoveryCodeRow;
  identity_mfa_challenges: MfaChallengeRow;
}
