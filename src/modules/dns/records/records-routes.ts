import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { Type } from 'typebox';
import { ZoneIdParams } from '../zones/zones-schemas.ts';
import {
  CreateRecordBody,
  ListRecordsQuery,
  RecordParams,
  RecordResponse,
  ReplaceRecordBody,
} from './records-schemas.ts';
import type { RecordsService } from './records-service.ts';

/** /zones/{zone_id}/records: list (filtered), create, read, replace, delete. */
export function registerRecordRoutes(app: ModuleApp, service: RecordsService): void {
  const base = '/zones/:zone_id/records';

  app.get(
    base,
    {
      schema: {
        summary: "The zone's records by name then type, filtered by record_type and name",
        description: 'Ordered by name, then type, then id (oldest first), then paged by page and per_page.',
        params: ZoneIdParams,
        querystring: ListRecordsQuery,
        response: { 200: Type.Array(RecordResponse), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.list(await request.owner(), request.params.zone_id, request.query),
  );

  app.post(
    base,
    {
      schema: {
        summary: 'Add a record (checked against the zone rules and load balancer hostnames)',
        params: ZoneIdParams,
        body: CreateRecordBody,
        response: { 201: RecordResponse, ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.create(await request.owner(), request.params.zone_id, request.body)),
  );

  app.get(
    `${base}/:record_id`,
    {
      schema: {
        summary: 'One record',
        params: RecordParams,
        response: { 200: RecordResponse, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.get(await request.owner(), request.params.zone_id, request.params.record_id),
  );

  app.put(
    `${base}/:record_id`,
    {
      schema: {
        summary: 'Replace a record',
        params: RecordParams,
        body: ReplaceRecordBody,
        response: { 200: RecordResponse, ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request) =>
      service.replace(await request.owner(), request.params.zone_id, request.params.record_id, request.body),
  );

  app.delete(
    `${base}/:record_id`,
    {
      schema: {
        summary: 'Delete a record (not one another module manages, nor the last NS above a DS)',
        params: RecordParams,
        response: { 204: NoContent, ...errorResponses(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      await service.delete(await request.owner(), request.params.zone_id, request.params.record_id);
      return reply.code(204).send();
    },
  );
}
