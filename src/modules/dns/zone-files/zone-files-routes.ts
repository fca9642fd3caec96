import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { ZoneIdParams } from '../zones/zones-schemas.ts';
import { ExportResponse, ImportBody, ImportResponse } from './zone-files-schemas.ts';
import type { ZoneExportService } from './zone-export-service.ts';
import type { ZoneImportService } from './zone-import-service.ts';

/** /zones/{zone_id}/import and /export: the zone as an RFC 1035 master file. */
export function registerZoneFileRoutes(
  app: ModuleApp,
  importer: ZoneImportService,
  exporter: ZoneExportService,
): void {
  app.post(
    '/zones/:zone_id/import',
    {
      schema: {
        summary: 'Import a zone file: every bad line is reported, nothing is written unless all are good',
        params: ZoneIdParams,
        body: ImportBody,
        response: { 200: ImportResponse, ...errorResponses(401, 403, 404, 413, 415, 422, 429) },
      },
    },
    async (request) =>
      importer.import(
        await request.owner(),
        request.params.zone_id,
        request.body.zone_file,
        request.body.mode ?? 'merge',
      ),
  );

  app.get(
    '/zones/:zone_id/export',
    {
      schema: {
        summary: 'The zone as a zone file (text/plain), apex SOA and NS included',
        params: ZoneIdParams,
        response: { 200: ExportResponse, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .send(await exporter.export(await request.owner(), request.params.zone_id)),
  );
}
