import type { ModuleApp } from '../../../kernel/module/platform-module.ts';

/**
 * The audit log names the organization of the zone a call changes (routes under
 * /zones/{zone_id}/, of this module and of load balancing).
 */
export function auditZoneOrg(app: ModuleApp, orgOf: (zoneId: number) => Promise<number | null>): void {
  app.addHook('preHandler', async (request) => {
    const zoneId = (request.params as { zone_id?: unknown } | undefined)?.zone_id;
    if (request.method === 'GET' || typeof zoneId !== 'number') return;
    request.auditNote = { ...request.auditNote, orgId: await orgOf(zoneId) };
  });
}
