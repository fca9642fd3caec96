import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import {
  BandwidthResponse,
  ConfigResponse,
  ConsoleResponse,
  GraphsQuery,
  GraphsResponse,
  GuestResponse,
  InstanceParams,
  InstanceResponse,
  InstancesResponse,
  IpsResponse,
  ListQuery,
  LiveStatusResponse,
  OrgParams,
  RescueMediaResponse,
  TemplatesResponse,
} from './instances-schemas.ts';
import type { InstancesService } from './instances-service.ts';

/** The read routes of /orgs/{org_slug}/vps: any member of the organization. */
export function registerInstanceRoutes(app: ModuleApp, service: InstancesService): void {
  const config = { auth: 'org:member' } as const;
  const org = (request: { principal: { orgId?: number } }): number => request.principal.orgId!;
  app.get(
    '/:org_slug/vps',
    {
      config,
      schema: {
        summary: 'The organization’s instances with their live status, newest first (one list call per node)',
        params: OrgParams,
        querystring: ListQuery,
        response: { 200: InstancesResponse, ...errorResponses(502, 503) },
      },
    },
    async (request) => service.list(org(request), request.query.status),
  );
  app.get(
    '/:org_slug/vps/templates',
    {
      config,
      schema: {
        summary: 'The OS templates instances are made and rebuilt from, ordered by id',
        params: OrgParams,
        response: { 200: TemplatesResponse },
      },
    },
    async () => ({ items: await service.templatesOffered() }),
  );
  const one = <T>(
    path: string,
    summary: string,
    response: T,
    handler: (orgId: number, uuid: string) => Promise<unknown>,
    errors: readonly (409 | 502 | 503)[] = [502, 503],
  ): void => {
    app.get(
      `/:org_slug/vps/:uuid${path}`,
      {
        config,
        schema: {
          summary,
          params: InstanceParams,
          response: { 200: response as never, ...errorResponses(...errors) },
        },
      },
      async (request) => handler(org(request), request.params.uuid),
    );
  };
  one('', 'An instance (its ips IPv4 first)', InstanceResponse, (o, u) => service.get(o, u));
  one('/status', 'The live status: uptime, CPU, memory, network counters', LiveStatusResponse, (o, u) =>
    service.status(o, u),
  );
  one(
    '/config',
    'Virtual hardware, boot order, cloud-init user, SSH key fingerprints (ordered as the keys)',
    ConfigResponse,
    (o, u) => service.config(o, u),
  );
  one('/ips', 'The instance’s addresses, IPv4 first', IpsResponse, (o, u) => service.ips(o, u));
  one('/bandwidth', 'This month’s traffic against the plan’s', BandwidthResponse, (o, u) =>
    service.bandwidth(o, u),
  );
  one(
    '/guest',
    'What the guest agent says: OS and addresses, interfaces ordered as the agent lists them (409 when it does not answer)',
    GuestResponse,
    (o, u) => service.guest(o, u),
    [409, 502, 503],
  );
  one(
    '/console',
    'A one-time VNC ticket and its websocket URL, good for 60 seconds',
    ConsoleResponse,
    (o, u) => service.console(o, u),
  );
  one(
    '/rescue/media',
    'The ISO images a rescue boot may use, ordered as the storage lists them',
    RescueMediaResponse,
    (o, u) => service.rescueMedia(o, u),
  );
  app.get(
    '/:org_slug/vps/:uuid/graphs',
    {
      config,
      schema: {
        summary:
          'Usage over a time frame (rrddata averages): hour, day, week, month or year; oldest point first',
        params: InstanceParams,
        querystring: GraphsQuery,
        response: { 200: GraphsResponse, ...errorResponses(502, 503) },
      },
    },
    async (request) => service.graphs(org(request), request.params.uuid, request.query.timeframe ?? 'hour'),
  );
}
