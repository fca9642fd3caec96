/**
 * Zone transfers in the API process: the settings routes, and the hook that keeps IXFR history
 * and sends NOTIFY after every committed change (ZoneChanges.onCommitted).
 */
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { DnsContext } from '../dns-context.ts';
import type { ZoneSource } from '../../../dns/index.ts';
import type { ZoneChanges } from '../shared/zone-changes.ts';
import type { ZonesRepository } from '../zones/zones-repository.ts';
import { TransferChangeHook } from './transfer-change-hook.ts';
import { TransfersRepository } from './transfers-repository.ts';
import { registerTransferRoutes } from './transfers-routes.ts';
import { TransfersService } from './transfers-service.ts';
import { ZoneVersions } from './zone-versions.ts';

export function registerZoneTransfers(
  app: ModuleApp,
  ctx: DnsContext,
  /** `published`: the zones' record sets as DNS nodes load them (their versions are kept for IXFR). */
  deps: { zones: ZonesRepository; changes: ZoneChanges; published: ZoneSource },
): void {
  const repo = new TransfersRepository(ctx.db);
  const versions = new ZoneVersions(repo, deps.published, ctx.clock);
  const hook = new TransferChangeHook(repo, versions, ctx.sealer, ctx.log);
  deps.changes.onCommitted((c) => hook.changed(c.zoneId));
  app.addHook('onClose', () => hook.stop());
  registerTransferRoutes(
    app,
    new TransfersService(repo, deps.zones, ctx.sealer, ctx.events, versions, ctx.clock),
  );
}
