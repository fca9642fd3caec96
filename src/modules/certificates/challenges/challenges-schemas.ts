import { Type } from 'typebox';
import { describes, Nullable } from '../../../kernel/http/view-schemas.ts';
import { CertificateResponse, Domain, Method, MethodName } from '../shared/certificate-schemas.ts';
import type { ChallengeStartView } from './challenges-service.ts';

export const StartChallengeBody = Type.Object(
  { domain: Domain, method: Type.Optional(MethodName) },
  { additionalProperties: false },
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
