import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { Type, type Static } from 'typebox';
import { ZoneIdParams } from '../zones/zones-schemas.ts';
import type { ZoneExportService } from './zone-export-service.ts';
import type { ZoneImportService } from './zone-import-service.ts';

const ImportBody = Type.Object({ zone_file: Type.String() }, { additionalProperties: false });

export function registerZoneFileRoutes(
  app: ModuleApp,
  importer: ZoneImportService,
  exporter: ZoneExportService,
): void {
  app.post<{ Params: Static<typeof ZoneIdParams>; Body: Static<typeof ImportBody> }>(
    '/zones/:zone_id/import',
    { schema: { params: ZoneIdParams, body: ImportBody } },
    async (request) => importer.import(await request.owner(), request.params.zone_id, request.body.zone_file),
  );

  app.get<{ Params: Static<typeof ZoneIdParams> }>(
    '/zones/:zone_id/export',
    { schema: { params: ZoneIdParams } },
    async (request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .send(await exporter.export(await request.owner(), request.params.zone_id)),
  );
}
