import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { ZoneIdParams } from '../zones/zones-schemas.ts';
import { PutTransfersBody } from './transfers-schemas.ts';
import type { TransfersService } from './transfers-service.ts';

type ZoneParams = { Params: Static<typeof ZoneIdParams> };

/** GET/PUT /api/v1/dns/zones/{id}/transfers: who may transfer the zone, with which key, whom to NOTIFY. */
export function registerTransferRoutes(app: FastifyInstance, service: TransfersService): void {
  const path = '/api/v1/dns/zones/:zone_id/transfers';

  app.get<ZoneParams>(path, { schema: { params: ZoneIdParams } }, async (request) =>
    service.get(request.userId, request.params.zone_id),
  );

  app.put<ZoneParams & { Body: Static<typeof PutTransfersBody> }>(
    path,
    { schema: { params: ZoneIdParams, body: PutTransfersBody } },
    async (request) => service.put(request.userId, request.params.zone_id, request.body),
  );
}
