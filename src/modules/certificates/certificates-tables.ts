/**
 * The certificates module's tables as Kysely sees them
 * (migrations/202611240002_certificates.sql).
 */
import type { Generated } from 'kysely';

/** One challenge of an order in progress, as the engine and the challenge routes need it. */
export interface StoredChallenge {
  /** The name the authorization is for (a wildcard's base name: `example.com` for `*.example.com`). */
  readonly identifier: string;
  readonly wildcard: boolean;
  readonly type: 'dns-01' | 'http-01';
  readonly token: string;
  /** http-01: the key authorization served; dns-01: the TXT value (its SHA-256 digest, base64url). */
  readonly value: string;
  readonly url: string;
}

export type CertificateStatus =
  'pending' | 'validating' | 'issued' | 'failed' | 'renewing' | 'expired' | 'revoked';

export type ChallengeMethod = 'dns_automatic' | 'dns_manual' | 'http';

/** The engine's steps (issuance/issuance-steps.ts); 'await_user' waits for /challenges/{d}/complete. */
export type JobStep =
  | 'order'
  | 'await_user'
  | 'publish'
  | 'propagate'
  | 'precheck'
  | 'validate'
  | 'await_order'
  | 'finalize'
  | 'download';

export interface CertificateRow {
  id: Generated<number>;
  user_id: number;
  domain: string;
  route_id: number | null;
  zone_id: number | null;
  status: CertificateStatus;
  issuer: string | null;
  challenge_method: ChallengeMethod;
  serial: string | null;
  fingerprint_sha256: string | null;
  requested_provider: string | null;
  error_message: string | null;
  issued_at: Date | null;
  expires_at: Date | null;
  last_renewal_at: Date | null;
  renewal_attempts: number;
  /** Renewal rounds failed in a row (the backoff's exponent); 0 once one succeeds. */
  renewal_failures: number;
  san_domains: string[];
  failover_from: string[];
  registered_domain: string | null;
  private_key: Uint8Array | null;
  certificate_pem: string | null;
  provider: string | null;
  order_url: string | null;
  order_key: Uint8Array | null;
  challenges: StoredChallenge[] | null;
  auto_complete: boolean;
  job_step: JobStep | null;
  job_started_at: Date | null;
  next_attempt_at: Date | null;
  lease_until: Date | null;
  claimed_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface AcmeAccountRow {
  provider: string;
  directory_url: string;
  account_key: Uint8Array;
  account_url: string | null;
  created_at: Generated<Date>;
}

export interface IssuanceRow {
  id: Generated<number>;
  certificate_id: number;
  registered_domain: string;
  issued_at: Date;
}

export interface CertificatesTables {
  certificates_certs: CertificateRow;
  certificates_acme_accounts: AcmeAccountRow;
  certificates_issuances: IssuanceRow;
}

/** A certificate row as read (ids are numbers once read). */
export type Certificate = Omit<CertificateRow, 'id'> & { id: number };
