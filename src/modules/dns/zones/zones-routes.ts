import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { CreateZoneBody, ListZonesQuery, UpdateZoneBody, ZoneIdParams } from './zones-schemas.ts';
import type { ZonesService } from './zones-service.ts';

/** /zones: list, create, read, settings (SOA email, DNSSEC), delete, DNSSEC info. */
export function registerZoneRoutes(app: ModuleApp, service: ZonesService): void {
  app.get('/zones', { schema: { querystring: ListZonesQuery } }, async (request) =>
    service.list(await request.owner(), request.query.page, request.query.per_page, request.query.org_slug),
  );

  app.post('/zones', { schema: { body: CreateZoneBody } }, async (request, reply) => {
    const zone = await service.create(await request.owner(), request.body.domain, request.body.org_slug);
    request.auditNote = { orgId: zone.org_id, resourceId: zone.id };
    return reply.code(201).send(zone);
  });

  app.get('/zones/:zone_id', { schema: { params: ZoneIdParams } }, async (request) =>
    service.get(await request.owner(), request.params.zone_id),
  );

  app.patch('/zones/:zone_id', { schema: { params: ZoneIdParams, body: UpdateZoneBody } }, async (request) =>
    service.update(await request.owner(), request.params.zone_id, request.body),
  );

  app.delete('/zones/:zone_id', { schema: { params: ZoneIdParams } }, async (request, reply) => {
    await service.delete(await request.owner(), request.params.zone_id);
    return reply.code(204).send();
  });

  app.get('/zones/:zone_id/dnssec', { schema: { params: ZoneIdParams } }, async (request) =>
    service.dnssec(await request.owner(), request.params.zone_id),
  );
}
