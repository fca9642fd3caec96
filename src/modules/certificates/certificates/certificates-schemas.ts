import { Type } from 'typebox';
import { describes, Nullable } from '../../../kernel/http/view-schemas.ts';
import { pagePerPageQuery } from '../../../kernel/paging/paging.ts';
import { CertificateResponse, Domain, MethodName } from '../shared/certificate-schemas.ts';
import type { CertificateStatusView } from './certificates-service.ts';

/** The certificates list: `page`/`per_page`, 25 by default, 100 at most. */
export const CertificatesQuery = pagePerPageQuery(25, 100);

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
