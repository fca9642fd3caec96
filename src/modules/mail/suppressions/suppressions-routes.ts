import { Type } from 'typebox';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { suppressionNotFound } from '../mail-errors.ts';
import type { RelayAccess } from '../relays/relay-access.ts';
import type { SuppressionsRepository } from './suppressions-repository.ts';

const Relay = Type.Object({ service_id: Type.Integer({ minimum: 1 }) });

/** The suppression list (base /api/v1/client/smtp-relay/{service_id}/suppressions). */
export function registerSuppressionRoutes(
  app: ModuleApp,
  access: RelayAccess,
  suppressions: SuppressionsRepository,
): void {
  const relay = async (owner: Promise<OwnerScope>, id: number, mode: 'read' | 'write') =>
    access.relayFor(await owner, id, mode);

  app.get(
    '/client/smtp-relay/:service_id/suppressions',
    {
      schema: {
        summary: 'Addresses the relay no longer sends to, newest first',
        params: Relay,
        querystring: Type.Object({
          page: Type.Integer({ minimum: 1, default: 1 }),
          limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
        }),
        response: {
          200: Type.Object({
            items: Type.Array(
              Type.Object({
                address: Type.String(),
                reason: Type.String(),
                created_at: Type.String({ format: 'date-time' }),
              }),
            ),
            total: Type.Integer(),
            page: Type.Integer(),
            limit: Type.Integer(),
          }),
          ...errorResponses(401, 404, 422, 429),
        },
      },
    },
    async (request) => {
      const { service_id } = request.params;
      const { page, limit } = request.query;
      await relay(request.owner(), service_id, 'read');
      const { rows, total } = await suppressions.page(service_id, limit, (page - 1) * limit);
      return {
        items: rows.map((r) => ({
          address: r.address,
          reason: r.reason,
          created_at: new Date(r.created_at).toISOString(),
        })),
        total,
        page,
        limit,
      };
    },
  );

  app.delete(
    '/client/smtp-relay/:service_id/suppressions/:address',
    {
      schema: {
        summary: 'Send to an address again',
        params: Type.Object({ ...Relay.properties, address: Type.String({ maxLength: 320 }) }),
        response: { 204: NoContent, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const { service_id, address } = request.params;
      await relay(request.owner(), service_id, 'write');
      if (!(await suppressions.remove(service_id, address.trim().toLowerCase()))) throw suppressionNotFound();
      return reply.code(204).send();
    },
  );
}
