import { Type } from 'typebox';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { Principal } from '../../../kernel/auth/principal.ts';
import type { ServiceActor, ServiceDirectory, ServiceLifecycle } from '../../services/index.ts';
import { orgServiceNotFound } from '../resellers-errors.ts';

const Params = Type.Object({
  org_slug: Type.String({ minLength: 1, maxLength: 64 }),
  id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }),
});
const SuspendBody = Type.Object(
  { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) },
  { additionalProperties: false },
);
const ServiceState = Type.Object(
  { id: Type.Integer(), status: Type.String(), status_reason: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: true },
);

/**
 * POST /orgs/{org_slug}/services/{id}/suspend|unsuspend: an owner or admin suspends a service the
 * organization holds (another's, or a member's own, is 404) through the services registry.
 */
export function registerOrgServiceRoutes(
  app: ModuleApp,
  services: ServiceDirectory,
  lifecycle: ServiceLifecycle,
): void {
  const held = async (
    principal: Principal,
    owner: Parameters<ServiceDirectory['summaryFor']>[0],
    id: number,
  ) => {
    const summary = await services.summaryFor(owner, id, 'write');
    // summaryFor also answers the caller's own services: only the organization's count here.
    if (summary === null || summary.orgId !== principal.orgId) throw orgServiceNotFound();
    return summary.id;
  };
  const actor = (principal: Principal, ip: string): ServiceActor => ({
    userId: principal.userId ?? null,
    realm: principal.realm,
    ip,
  });

  app.post(
    '/:org_slug/services/:id/suspend',
    {
      schema: {
        description:
          'Suspends an active service of the organization (`reason` optional, default `Suspended by the reseller`); ' +
          'the organization’s webhooks receive `service.suspended`. A service not active is 409.',
        params: Params,
        body: SuspendBody,
        response: { 200: ServiceState },
      },
      config: { auth: 'org:admin', audit: 'resellers.service.suspend' },
    },
    async (request) => {
      const id = await held(request.principal!, await request.owner(), request.params.id);
      return lifecycle.suspend(
        id,
        request.body.reason ?? 'Suspended by the reseller',
        actor(request.principal!, request.ip),
      );
    },
  );

  app.post(
    '/:org_slug/services/:id/unsuspend',
    {
      schema: {
        description:
          'Lifts the suspension of a service of the organization; its webhooks receive `service.unsuspended`. ' +
          'A service not suspended is 409.',
        params: Params,
        response: { 200: ServiceState },
      },
      config: { auth: 'org:admin', audit: 'resellers.service.unsuspend' },
    },
    async (request) => {
      const id = await held(request.principal!, await request.owner(), request.params.id);
      return lifecycle.unsuspend(id, actor(request.principal!, request.ip));
    },
  );
}
