import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import {
  ServerParams,
  ServerResponse,
  ServersResponse,
  ServerUserBody,
  ServerUserParams,
  ServerUserResponse,
  ServerUsersResponse,
} from './servers-schemas.ts';
import type { ServersService } from './servers-service.ts';

/** Servers and their users (base /api/v1/client/servers), with an access token. */
export function registerServerRoutes(app: ModuleApp, service: ServersService): void {
  app.get(
    '',
    {
      schema: {
        summary: 'The servers the caller holds or is a user of, newest first',
        response: { 200: ServersResponse, ...errorResponses(401, 429) },
      },
    },
    async (request) => service.list(await request.owner()),
  );

  app.get(
    '/:uuid',
    {
      schema: {
        summary:
          'A server: its software, game version, loader and the caller’s permissions (in the order they are defined)',
        params: ServerParams,
        response: { 200: ServerResponse, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.get(await request.owner(), request.params.uuid),
  );

  app.get(
    '/:uuid/users',
    {
      schema: {
        summary:
          'The server’s users and their permissions, first added first (any user of the server reads them)',
        params: ServerParams,
        response: { 200: ServerUsersResponse, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.users(await request.owner(), request.params.uuid),
  );

  app.post(
    '/:uuid/users',
    {
      schema: {
        summary: 'Adds an account (by email) as a user of the server, or sets its permissions (holder only)',
        params: ServerParams,
        body: ServerUserBody,
        response: { 200: ServerUserResponse, ...errorResponses(401, 403, 404, 409, 415, 422, 429) },
      },
    },
    async (request) => service.putUser(await request.owner(), request.params.uuid, request.body),
  );

  app.delete(
    '/:uuid/users/:user_id',
    {
      schema: {
        summary: 'Removes a user from the server (holder only)',
        params: ServerUserParams,
        response: { 204: NoContent, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      await service.removeUser(await request.owner(), request.params.uuid, request.params.user_id);
      return reply.code(204).send();
    },
  );
}
