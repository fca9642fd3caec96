/** The identity module's tables as Kysely sees them (migrations/*_auth_users.sql, *_identity_*.sql). */
export interface UserRow {
  id: number;
  email: string;
  password_hash: string;
  created_at: Date;
}

export interface RefreshTokenRow {
  id: number;
  user_id: number;
  token_hash: string;
  expires_at: Date;
  revoked_at: Date | null;
  created_at: Date;
}

export interface IdentityTables {
  identity_users: UserRow;
  identity_refresh_tokens: RefreshTokenRow;
}
