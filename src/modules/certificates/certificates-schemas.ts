import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../kernel/http/view-schemas.ts';
import { pagePerPageQuery } from '../../kernel/paging/paging.ts';
import type { CertificateView } from './certificate-view.ts';
import type { ChallengeStartView } from './challenges/challenges-service.ts';
import type { CertificateStatusView } from './certificates/certificates-service.ts';

/** Seed "Page sizes": SSL certificates, `page`/`per_page`, 25 by default, 100 at most. */
export const CertificatesQuery = pagePerPageQuery(25, 100);

const Domain = Type.String({
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

export const CreateCertificateBody = Type.Object(
  {
    domain: Domain,
    route_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
    challenge_method: Type.Optional(Nullable(MethodName)),
    provider: Type.Optional(
      Nullable(
        Type.String({ minLength: 1, maxLength: 32, description: 'A name of ACME_PROVIDERS to try first' }),
      ),
    ),
  },
  { additionalProperties: false },
);

export const StartChallengeBody = Type.Object(
  { domain: Domain, method: Type.Optional(MethodName) },
  { additionalProperties: false },
);

const Status = Type.Union([
  Type.Literal('pending'),
  Type.Literal('validating'),
  Type.Literal('issued'),
  Type.Literal('failed'),
  Type.Literal('renewing'),
  Type.Literal('expired'),
  Type.Literal('revoked'),
]);
const Method = Type.Union([Type.Literal('dns_automatic'), Type.Literal('dns_manual'), Type.Literal('http')]);

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

export const CertificateListResponse = Type.Object({
  certificates: Type.Array(CertificateResponse),
  total: Type.Integer(),
});

export const CertificateStatusResponse = describes<CertificateStatusView>()(
  Type.Object({
    domain: Type.String(),
    has_certificate: Type.Boolean(),
    certificate: Nullable(CertificateResponse),
    rate_limit: Nullable(
      Type.Object({
        registered_domain: Type.String(),
        issued_last_7_days: Type.Integer(),
        limit: Type.Integer(),
        remaining: Type.Integer(),
        allowed: Type.Boolean(),
      }),
    ),
    wildcard: Type.Boolean(),
  }),
);

const TxtInstruction = Type.Object({
  name: Type.String(),
  type: Type.Literal('TXT'),
  content: Type.String(),
});

export const ChallengeStartResponse = describes<ChallengeStartView>()(
  Type.Object({
    domain: Type.String(),
    method: Method,
    certificate: CertificateResponse,
    record: Nullable(TxtInstruction),
    records: Type.Array(TxtInstruction),
    published: Type.Boolean(),
    url: Nullable(Type.String()),
    content: Nullable(Type.String()),
  }),
);

export const ChallengeStatusResponse = Type.Object({
  domain: Type.String(),
  method: Method,
  checks: Type.Array(Type.Object({ name: Type.String(), ok: Type.Boolean(), detail: Type.String() })),
});
