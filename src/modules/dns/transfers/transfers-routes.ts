import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { ZoneIdParams } from '../zones/zones-schemas.ts';
import { PutTransfersBody, TransfersResponse } from './transfers-schemas.ts';
import type { TransfersService } from './transfers-service.ts';

/** GET/PUT /api/v1/dns/zones/{id}/transfers: who may transfer the zone, with which key, whom to NOTIFY. */
export function registerTransferRoutes(app: ModuleApp, service: TransfersService): void {
  const path = '/zones/:zone_id/transfers';

  app.get(
    path,
    {
      schema: {
        summary: 'Zone transfer settings: allowed addresses, TSIG key, NOTIFY targets',
        description: 'Address lists in the order they were given.',
        params: ZoneIdParams,
        response: { 200: TransfersResponse, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.get(await request.owner(), request.params.zone_id),
  );

  app.put(
    path,
    {
      schema: {
        summary: 'Replace the zone transfer settings (omit the secret to keep the key’s)',
        params: ZoneIdParams,
        body: PutTransfersBody,
        response: { 200: TransfersResponse, ...errorResponses(401, 404, 413, 415, 422, 429) },
      },
    },
    async (request) => service.put(await request.owner(), request.params.zone_id, request.body),
  );
}
