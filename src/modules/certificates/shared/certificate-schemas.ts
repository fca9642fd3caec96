import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { CertificateView } from './certificate-view.ts';

/** What the certificate and challenge routes share: the name in the path, methods, the certificate. */
export const Domain = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'A host name, or `*.` and a host name for a wildcard',
});
export const DomainParams = Type.Object({ domain: Domain });

export const MethodName = Type.Union([
  Type.Literal('auto'),
  Type.Literal('dns_automatic'),
  Type.Literal('dns_manual'),
  Type.Literal('http'),
]);

const Status = Type.Union([
  Type.Literal('pending'),
  Type.Literal('validating'),
  Type.Literal('issued'),
  Type.Literal('failed'),
  Type.Literal('renewing'),
  Type.Literal('expired'),
  Type.Literal('revoked'),
]);
export const Method = Type.Union([
  Type.Literal('dns_automatic'),
  Type.Literal('dns_manual'),
  Type.Literal('http'),
]);

export const CertificateResponse = describes<CertificateView>()(
  Type.Object({
    id: Type.Integer(),
    domain: Type.String(),
    route_id: Nullable(Type.Integer()),
    zone_id: Nullable(Type.Integer()),
    status: Status,
    issuer: Nullable(Type.String()),
    challenge_method: Method,
    serial: Nullable(Type.String()),
    fingerprint_sha256: Nullable(Type.String()),
    requested_provider: Nullable(Type.String()),
    error_message: Nullable(Type.String()),
    issued_at: Nullable(IsoTime),
    expires_at: Nullable(IsoTime),
    last_renewal_at: Nullable(IsoTime),
    created_at: IsoTime,
    renewal_attempts: Type.Integer(),
    san_domains: Type.Array(Type.String()),
    failover_from: Type.Array(Type.String()),
  }),
);
