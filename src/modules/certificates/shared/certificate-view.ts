import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { Certificate } from '../certificates-tables.ts';

/**
 * A certificate as the routes answer it (docs/certificates.md, "Routes"): the row without its key,
 * its PEM and the engine's bookkeeping. The private key never leaves the database unsealed through
 * any route.
 */
export type CertificateView = JsonView<
  Pick<
    Certificate,
    | 'id'
    | 'domain'
    | 'route_id'
    | 'zone_id'
    | 'status'
    | 'issuer'
    | 'challenge_method'
    | 'serial'
    | 'fingerprint_sha256'
    | 'requested_provider'
    | 'error_message'
    | 'issued_at'
    | 'expires_at'
    | 'last_renewal_at'
    | 'created_at'
    | 'renewal_attempts'
    | 'san_domains'
    | 'failover_from'
  >
>;

const iso = (d: Date | null): string | null => (d === null ? null : new Date(d).toISOString());
const num = (n: number | null): number | null => (n === null ? null : Number(n));

export function certificateView(c: Certificate): CertificateView {
  return {
    id: c.id,
    domain: c.domain,
    route_id: num(c.route_id),
    zone_id: num(c.zone_id),
    status: c.status,
    issuer: c.issuer,
    challenge_method: c.challenge_method,
    serial: c.serial,
    fingerprint_sha256: c.fingerprint_sha256,
    requested_provider: c.requested_provider,
    error_message: c.error_message,
    issued_at: iso(c.issued_at),
    expires_at: iso(c.expires_at),
    last_renewal_at: iso(c.last_renewal_at),
    created_at: iso(c.created_at)!,
    renewal_attempts: c.renewal_attempts,
    san_domains: c.san_domains,
    failover_from: c.failover_from,
  };
}
