import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { Static } from 'typebox';
import { ZoneIdParams } from '../zones/zones-schemas.ts';
import { CreateRecordBody, ListRecordsQuery, RecordParams, ReplaceRecordBody } from './records-schemas.ts';
import type { RecordsService } from './records-service.ts';

type ListQuery = { page: number; per_page: number; record_type?: string; name?: string };

export function registerRecordRoutes(app: ModuleApp, service: RecordsService): void {
  const base = '/zones/:zone_id/records';

  app.get<{ Params: Static<typeof ZoneIdParams>; Querystring: ListQuery }>(
    base,
    { schema: { params: ZoneIdParams, querystring: ListRecordsQuery } },
    async (request) => service.list(await request.owner(), request.params.zone_id, request.query),
  );

  app.post<{ Params: Static<typeof ZoneIdParams>; Body: Static<typeof CreateRecordBody> }>(
    base,
    { schema: { params: ZoneIdParams, body: CreateRecordBody } },
    async (request, reply) =>
      reply.code(201).send(await service.create(await request.owner(), request.params.zone_id, request.body)),
  );

  app.get<{ Params: Static<typeof RecordParams> }>(
    `${base}/:record_id`,
    { schema: { params: RecordParams } },
    async (request) => service.get(await request.owner(), request.params.zone_id, request.params.record_id),
  );

  app.put<{ Params: Static<typeof RecordParams>; Body: Static<typeof ReplaceRecordBody> }>(
    `${base}/:record_id`,
    { schema: { params: RecordParams, body: ReplaceRecordBody } },
    async (request) =>
      service.replace(await request.owner(), request.params.zone_id, request.params.record_id, request.body),
  );

  app.delete<{ Params: Static<typeof RecordParams> }>(
    `${base}/:record_id`,
    { schema: { params: RecordParams } },
    async (request, reply) => {
      await service.delete(await request.owner(), request.params.zone_id, request.params.record_id);
      return reply.code(204).send();
    },
  );
}
