import { Type } from 'typebox';
import { errorResponses } from '../../kernel/http/error-schemas.ts';
import { availabilityBudget, claimBudget } from './platform-domains-budgets.ts';
import { describes, IsoTime, Nullable } from '../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../kernel/module/platform-module.ts';
import type {
  AvailabilityView,
  ClaimView,
  OverviewView,
  PlatformDomainsService,
} from './platform-domains-service.ts';

const Label = Type.String({ minLength: 1, maxLength: 63 });
/**
 * Availability takes any string: a label that cannot be claimed (too long, empty, wrong characters)
 * answers `available: false, reason: "invalid"` rather than a refused request.
 */
const AnyLabel = Type.String({
  description:
    'The label to check; one that is not 3 to 63 characters of a-z, 0-9 and inner hyphens answers reason invalid',
});
const Suffix = Type.String({ minLength: 1, maxLength: 253 });

const ClaimResponse = describes<ClaimView>()(
  Type.Object({
    id: Type.Integer(),
    label: Type.String(),
    suffix: Type.String(),
    fqdn: Type.String(),
    zone_id: Nullable(Type.Integer()),
    certificate_status: Type.String({
      description: 'The wildcard certificate’s status, or waiting_for_delegation, or none',
    }),
    created_at: IsoTime,
  }),
);

const OverviewResponse = describes<OverviewView>()(
  Type.Object({
    suffixes: Type.Array(Type.Object({ suffix: Type.String(), delegated: Type.Boolean() })),
    claims: Type.Array(ClaimResponse),
    limit: Type.Integer(),
  }),
);

const AvailabilityResponse = describes<AvailabilityView>()(
  Type.Object({
    label: Type.String(),
    suffix: Type.String(),
    available: Type.Boolean(),
    reason: Nullable(Type.Union([Type.Literal('taken'), Type.Literal('reserved'), Type.Literal('invalid')])),
  }),
);

const ClaimParams = Type.Object({ claim_id: Type.Integer({ minimum: 1 }) });

/**
 * Platform domains (docs/catalogue-and-services.md, "Platform domains"; base
 * /api/v1/client/platform-domains).
 */
export function registerPlatformDomainRoutes(app: ModuleApp, service: PlatformDomainsService): void {
  app.get(
    '',
    {
      schema: {
        description: 'The suffixes offered, the caller’s claims (oldest first) and the claim limit.',
        response: { 200: OverviewResponse },
      },
    },
    async (request) => service.overview(request.principal.userId!),
  );
  app.get(
    '/availability',
    {
      schema: {
        description: 'Whether <label>.<suffix> can be claimed, and why not (taken, reserved or invalid).',
        querystring: Type.Object({ label: AnyLabel, suffix: Type.Optional(Nullable(Suffix)) }),
        response: { 200: AvailabilityResponse },
      },
      config: { budget: availabilityBudget },
    },
    async (request) => service.availability(request.query.label, request.query.suffix),
  );
  app.post(
    '/claims',
    {
      schema: {
        description:
          'Claims <label>.<suffix>: a zone of the caller’s, delegated from the suffix, and a wildcard certificate by DNS-01.',
        body: Type.Object(
          { label: Label, suffix: Type.Optional(Nullable(Suffix)) },
          { additionalProperties: false },
        ),
        response: { 201: ClaimResponse, ...errorResponses(403, 409) },
      },
      config: { budget: claimBudget },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.claim(request.principal.userId!, request.body.label, request.body.suffix)),
  );
  app.delete(
    '/claims/:claim_id',
    {
      schema: {
        description: 'Removes the claim, its delegation and zone, and revokes its certificate.',
        params: ClaimParams,
        response: {
          200: Type.Object({ id: Type.Integer(), deleted: Type.Literal(true) }),
          ...errorResponses(404),
        },
      },
    },
    async (request) => service.delete(request.principal.userId!, request.params.claim_id),
  );
  app.post(
    '/claims/:claim_id/certificate',
    {
      schema: {
        description:
          'Queues the wildcard certificate again (a claim made before delegation, or after a failed order).',
        params: ClaimParams,
        response: { 202: ClaimResponse, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.certificate(request.principal.userId!, request.params.claim_id)),
  );
}
