import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { Static } from 'typebox';
import { ZoneIdParams } from '../zones/zones-schemas.ts';
import { PutTransfersBody } from './transfers-schemas.ts';
import type { TransfersService } from './transfers-service.ts';

type ZoneParams = { Params: Static<typeof ZoneIdParams> };

/** GET/PUT /api/v1/dns/zones/{id}/transfers: who may transfer the zone, with which key, whom to NOTIFY. */
export function registerTransferRoutes(app: ModuleApp, service: TransfersService): void {
  const path = '/zones/:zone_id/transfers';

  app.get<ZoneParams>(path, { schema: { params: ZoneIdParams } }, async (request) =>
    service.get(await request.owner(), request.params.zone_id),
  );

  app.put<ZoneParams & { Body: Static<typeof PutTransfersBody> }>(
    path,
    { schema: { params: ZoneIdParams, body: PutTransfersBody } },
    async (request) => service.put(await request.owner(), request.params.zone_id, request.body),
  );
}
