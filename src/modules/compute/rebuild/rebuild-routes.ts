import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { InstanceParams, InstanceResponse } from '../instances/instances-schemas.ts';
import { vpsRebuildBudget } from './rebuild-budget.ts';
import type { RebuildService } from './rebuild-service.ts';

const RebuildBody = Type.Object(
  {
    template_id: Type.Integer({
      minimum: 1,
      maximum: 2 ** 31 - 1,
      description: 'An id of GET /vps/templates',
    }),
  },
  { additionalProperties: false },
);

/** POST /orgs/{org_slug}/vps/{uuid}/rebuild (owner or admin; the vps.rebuild budget). */
export function registerRebuildRoutes(app: ModuleApp, service: RebuildService): void {
  app.post(
    '/:org_slug/vps/:uuid/rebuild',
    {
      config: { auth: 'org:admin', budget: vpsRebuildBudget, audit: 'compute.instance.rebuild' },
      schema: {
        summary: 'Wipes the disk and installs the template again (stop, destroy, clone, cloud-init, start)',
        params: InstanceParams,
        body: RebuildBody,
        response: { 200: InstanceResponse, ...errorResponses(409, 415, 502, 503) },
      },
    },
    async (request) =>
      service.rebuild(request.principal.orgId!, request.params.uuid, request.body.template_id),
  );
}
