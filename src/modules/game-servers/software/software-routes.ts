import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { ServerParams } from '../servers/servers-schemas.ts';
import { powerBudget, softwareBudget } from './software-budgets.ts';
import {
  InstallBody,
  JobParams,
  JobResponse,
  PowerBody,
  PowerResponse,
  RecordParams,
  SoftwareListResponse,
  SoftwareUpdatesQuery,
  UpdateBody,
  UpdatesResponse,
} from './software-schemas.ts';
import type { SoftwareService } from './software-service.ts';
import type { SoftwareUpdateCheck } from './software-update-check.ts';

/** A server's software, its jobs and its power (base /api/v1/client/servers), with an access token. */
export function registerSoftwareRoutes(
  app: ModuleApp,
  service: SoftwareService,
  updates: SoftwareUpdateCheck,
): void {
  app.get(
    '/:uuid/updates',
    {
      schema: {
        summary:
          'One entry per addon with a newer build that fits the server (release builds first), in the order of the records’ paths',
        params: ServerParams,
        response: { 200: UpdatesResponse, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request) =>
      updates.updates(await request.owner(), request.params.uuid, {
        onlyAvailable: true,
        includePrerelease: false,
      }),
  );

  app.get(
    '/:uuid/software/updates',
    {
      schema: {
        summary:
          'The same check with options: beta and alpha builds as updates, every checked record (ordered by path)',
        params: ServerParams,
        querystring: SoftwareUpdatesQuery,
        response: { 200: UpdatesResponse, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request) =>
      updates.updates(await request.owner(), request.params.uuid, {
        onlyAvailable: request.query.all !== true,
        includePrerelease: request.query.include_prerelease === true,
        ...(request.query.sources === undefined
          ? {}
          : { only: request.query.sources.split(',') as ('modrinth' | 'curseforge')[] }),
        ...(request.query.game_version === undefined ? {} : { gameVersion: request.query.game_version }),
      }),
  );

  app.get(
    '/:uuid/software',
    {
      schema: {
        summary:
          'The addon files of the server (plugins, mods, datapacks), scanned now and identified by digest, ordered by path',
        params: ServerParams,
        response: { 200: SoftwareListResponse, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request) => service.list(await request.owner(), request.params.uuid),
  );

  app.post(
    '/:uuid/software/install',
    {
      config: { budget: softwareBudget },
      schema: {
        summary: 'Installs a build of a project as a job: staged now, loaded at the next start (202)',
        params: ServerParams,
        body: InstallBody,
        response: { 202: JobResponse, ...errorResponses(401, 403, 404, 409, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const job = await service.install(await request.owner(), request.params.uuid, request.body);
      return reply.code(202).send(job);
    },
  );

  app.post(
    '/:uuid/software/:record_uuid/update',
    {
      config: { budget: softwareBudget },
      schema: {
        summary: 'Updates a file to a build (the given one, or the newest that fits) as a job (202)',
        params: RecordParams,
        body: UpdateBody,
        response: { 202: JobResponse, ...errorResponses(401, 403, 404, 409, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const { uuid, record_uuid } = request.params;
      const job = await service.update(await request.owner(), uuid, record_uuid, request.body?.version_id);
      return reply.code(202).send(job);
    },
  );

  app.post(
    '/:uuid/software/:record_uuid/rollback',
    {
      config: { budget: softwareBudget },
      schema: {
        summary: 'Stages the file the last start replaced; it loads at the next start (202)',
        params: RecordParams,
        response: { 202: JobResponse, ...errorResponses(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const job = await service.rollback(
        await request.owner(),
        request.params.uuid,
        request.params.record_uuid,
      );
      return reply.code(202).send(job);
    },
  );

  app.delete(
    '/:uuid/software/:record_uuid',
    {
      config: { budget: softwareBudget },
      schema: {
        summary: 'Deletes the file, its staged build and its previous file',
        params: RecordParams,
        response: { 204: NoContent, ...errorResponses(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      await service.remove(await request.owner(), request.params.uuid, request.params.record_uuid);
      return reply.code(204).send();
    },
  );

  app.get(
    '/:uuid/jobs/:job_id',
    {
      schema: {
        summary: 'A software job: queued, running, completed or failed (with why)',
        params: JobParams,
        response: { 200: JobResponse, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request) => service.job(await request.owner(), request.params.uuid, request.params.job_id),
  );

  app.post(
    '/:uuid/power',
    {
      config: { budget: powerBudget },
      schema: {
        summary:
          'Start or restart: puts every staged build in place in one step (no game process is run here)',
        params: ServerParams,
        body: PowerBody,
        response: { 200: PowerResponse, ...errorResponses(401, 403, 404, 415, 422, 429) },
      },
    },
    async (request) => service.power(await request.owner(), request.params.uuid, request.body.action),
  );
}
