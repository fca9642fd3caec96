import type { FastifyInstance } from 'fastify';
import type { PageQuery } from '../../../kernel/paging/paging.ts';
import type { Static } from 'typebox';
import { CreateZoneBody, ListZonesQuery, UpdateZoneBody, ZoneIdParams } from './zones-schemas.ts';
import type { ZonesService } from './zones-service.ts';

type ZoneParams = { Params: Static<typeof ZoneIdParams> };

export function registerZoneRoutes(app: FastifyInstance, service: ZonesService): void {
  const base = '/api/v1/dns/zones';

  app.get<{ Querystring: PageQuery }>(base, { schema: { querystring: ListZonesQuery } }, async (request) =>
    service.list(request.userId, request.query.page, request.query.per_page),
  );

  app.post<{ Body: Static<typeof CreateZoneBody> }>(
    base,
    { schema: { body: CreateZoneBody } },
    async (request, reply) => reply.code(201).send(await service.create(request.userId, request.body.domain)),
  );

  app.get<ZoneParams>(`${base}/:zone_id`, { schema: { params: ZoneIdParams } }, async (request) =>
    service.get(request.userId, request.params.zone_id),
  );

  app.patch<ZoneParams & { Body: Static<typeof UpdateZoneBody> }>(
    `${base}/:zone_id`,
    { schema: { params: ZoneIdParams, body: UpdateZoneBody } },
    async (request) => service.update(request.userId, request.params.zone_id, request.body),
  );

  app.delete<ZoneParams>(`${base}/:zone_id`, { schema: { params: ZoneIdParams } }, async (request, reply) => {
    await service.delete(request.userId, request.params.zone_id);
    return reply.code(204).send();
  });

  app.get<ZoneParams>(`${base}/:zone_id/dnssec`, { schema: { params: ZoneIdParams } }, async (request) =>
    service.dnssec(request.userId, request.params.zone_id),
  );
}
