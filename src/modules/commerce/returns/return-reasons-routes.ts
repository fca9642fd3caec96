import { Type } from 'typebox';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { Deleted, idParams, listOf, OrgSlugParams, partialOf } from '../shared/commerce-http-schemas.ts';
import { STOREFRONT, StoreOrgParams } from '../storefront/storefront-info-routes.ts';
import { ReturnReasonResponse, type ReturnReasonsService } from './return-reasons-service.ts';

const READ = { auth: { scope: 'commerce.orders:read' } } as const;
/** The scope table's "change return reasons". */
const WRITE = { auth: { scope: 'commerce.returns:write' } } as const;

const NewReasonBody = Type.Object(
  {
    value: Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9_]+$' }),
    label: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  },
  { additionalProperties: false },
);

/** Return reasons: the shop's administration and the Store API's read (docs/commerce.md, "Returns and refunds"). */
export function registerReturnReasonRoutes(app: ModuleApp, service: ReturnReasonsService): void {
  const base = '/:org_slug/commerce/return-reasons';
  const one = idParams('reason_id');
  app.get(
    '/:org_slug/store/return-reasons',
    {
      config: STOREFRONT,
      schema: {
        summary: 'The shop’s return reasons, oldest first',
        params: StoreOrgParams,
        response: { 200: listOf('return_reasons', ReturnReasonResponse) },
      },
    },
    async (request) => ({ return_reasons: await service.list(request.principal.orgId!) }),
  );
  app.get(
    base,
    {
      schema: {
        description: 'The shop’s return reasons, oldest first.',
        params: OrgSlugParams,
        response: { 200: listOf('return_reasons', ReturnReasonResponse) },
      },
      config: READ,
    },
    async (request) => ({ return_reasons: await service.list(request.principal.orgId!) }),
  );
  app.get(
    `${base}/:reason_id`,
    {
      schema: { description: 'One return reason.', params: one, response: { 200: ReturnReasonResponse } },
      config: READ,
    },
    async (request) => service.one(request.principal.orgId!, request.params.reason_id),
  );
  app.post(
    base,
    {
      schema: {
        description: 'Adds a return reason.',
        params: OrgSlugParams,
        body: NewReasonBody,
        response: { 201: ReturnReasonResponse },
      },
      config: WRITE,
    },
    async (request, reply) =>
      reply.code(201).send(
        await service.create(request.principal.orgId!, {
          value: request.body.value,
          label: request.body.label,
          description: request.body.description ?? null,
        }),
      ),
  );
  app.patch(
    `${base}/:reason_id`,
    {
      schema: {
        description: 'Changes a return reason.',
        params: one,
        body: partialOf(NewReasonBody),
        response: { 200: ReturnReasonResponse },
      },
      config: WRITE,
    },
    async (request) => service.update(request.principal.orgId!, request.params.reason_id, request.body),
  );
  app.delete(
    `${base}/:reason_id`,
    {
      schema: {
        description: 'Deletes a return reason no return names.',
        params: one,
        response: { 200: Deleted },
      },
      config: WRITE,
    },
    async (request) => service.delete(request.principal.orgId!, request.params.reason_id),
  );
}
