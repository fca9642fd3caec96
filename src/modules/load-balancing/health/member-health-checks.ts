import type { Runtime } from '../../../kernel/runtime/runtime.ts';
import { dnsConfig } from '../../dns/index.ts';
import { loadBalancingContext } from '../load-balancing-context.ts';
import type { MemberHealthChecks } from '../load-balancing-interfaces.ts';
import { MemberHealthRepository } from './member-health-repository.ts';
import { DbMemberHealthStore } from './member-health-store.ts';
import { memberProbeGuard } from './member-probe-guard.ts';

/** What a checker node runs, its probes counted for this node's PoP (POP). */
export function createMemberHealthChecks(runtime: Runtime): MemberHealthChecks {
  const ctx = loadBalancingContext(runtime);
  const { pop } = runtime.config.section(dnsConfig);
  return {
    store: new DbMemberHealthStore(new MemberHealthRepository(ctx.db), pop, ctx.settings.healthPolicy),
    guard: memberProbeGuard(ctx.settings.healthAllowPrivateTargets),
    settings: ctx.settings,
  };
}
