/**
 * A wildcard certificate for a zone an account holds here, its status, its revocation (platform
 * domains).
 */
export interface Certificates {
  /**
   * Requests a certificate for `domain` for the account, proven by DNS-01 in its zone here
   * (dns_automatic); a request already in progress or issued is left as it is. Answers its status.
   */
  request(userId: number, domain: string): Promise<string>;
  /** The status of the account's newest certificate for `domain`; null when there is none. */
  statusOf(userId: number, domain: string): Promise<string | null>;
  /** Revokes (or stops) the account's certificate for `domain`, if any. */
  revoke(userId: number, domain: string): Promise<void>;
}
