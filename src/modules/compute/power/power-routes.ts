import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { InstanceParams } from '../instances/instances-schemas.ts';
import { vpsPowerBudget } from './power-budget.ts';
import { PowerBody, PowerResponse } from './power-schemas.ts';
import type { PowerService } from './power-service.ts';

/** POST /orgs/{org_slug}/vps/{uuid}/power (owner or admin; the vps.power budget). */
export function registerPowerRoutes(app: ModuleApp, service: PowerService): void {
  app.post(
    '/:org_slug/vps/:uuid/power',
    {
      config: { auth: 'org:admin', budget: vpsPowerBudget, audit: 'compute.instance.power' },
      schema: {
        summary:
          'Start, stop (hard), shutdown (ACPI), reboot, reset, suspend (pause) or resume; 409 when the action makes no sense now',
        params: InstanceParams,
        body: PowerBody,
        response: { 200: PowerResponse, ...errorResponses(409, 415, 502, 503) },
      },
    },
    async (request) => service.power(request.principal.orgId!, request.params.uuid, request.body.action),
  );
}
