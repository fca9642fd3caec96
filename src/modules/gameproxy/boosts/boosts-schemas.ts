import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { BoostView } from './boosts-view.ts';

/** A partner's slug, as partner keys are made for (a-z, 0-9, -). */
const Partner = Type.String({ pattern: '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$' });

export const BoostParams = Type.Object({
  org_slug: Type.String({ minLength: 1, maxLength: 64 }),
  partner: Partner,
});

const ServerAddress = Type.String({
  minLength: 1,
  maxLength: 255,
  description:
    '`<subdomain>.<base_domain>` of a game route, or its verified custom domain (any letter case, a trailing dot allowed)',
});
const ClaimId = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: '^[A-Za-z0-9._:-]+$',
  description: 'The partner’s id of this claim: a retry with the same id answers the grant already made',
});
/** A form or query string says a boolean in words. */
const BooleanWord = Type.Union([
  Type.Literal('true'),
  Type.Literal('false'),
  Type.Literal('1'),
  Type.Literal('0'),
]);
const DryRun = Type.Union([Type.Boolean(), BooleanWord], {
  description: 'Check the address and every rule, grant nothing',
});

/** The body: JSON or a URL-encoded form (every field may come in the query string instead). */
export const BoostBody = Type.Object(
  {
    server_address: Type.Optional(ServerAddress),
    claim_id: Type.Optional(Nullable(ClaimId)),
    dry_run: Type.Optional(DryRun),
  },
  { additionalProperties: false },
);

export const BoostQuery = Type.Object({
  server_address: Type.Optional(ServerAddress),
  claim_id: Type.Optional(ClaimId),
  dry_run: Type.Optional(BooleanWord),
});

export const BoostResponse = describes<BoostView>()(
  Type.Object({
    claim_id: Nullable(Type.String()),
    server_address: Type.String(),
    service_id: Type.Integer(),
    memory_mb: Type.Integer(),
    expires_at: IsoTime,
    dry_run: Type.Boolean(),
  }),
);
