import type { Kysely } from 'kysely';
import { HealthChecker } from '../health/health-checker.ts';
import type { ProbeResult } from '../health/health-target.ts';
import { createMemberProber } from '../health/probe-member.ts';
import type { AppContext } from '../kernel/app-context.ts';
import { DbMemberHealthStore } from '../modules/dns/members/member-health-store.ts';
import { memberProbeGuard } from '../modules/dns/members/member-probe-guard.ts';
import type { DnsTables } from '../modules/dns/shared/dns-tables.ts';

export interface CheckerRole {
  readonly checker: HealthChecker;
  stop(): Promise<void>;
}

/**
 * The checker role (ROLE=all or checker): probes every member with a check once per interval,
 * coordinated with the other checker processes through the bus, and publishes status changes.
 */
export async function startCheckerRole(
  ctx: AppContext,
  onProbe: (result: ProbeResult) => void = () => undefined,
): Promise<CheckerRole> {
  const store = new DbMemberHealthStore(ctx.db as Kysely<DnsTables>);
  const prober = createMemberProber({
    guard: memberProbeGuard(ctx.config.healthAllowPrivateTargets),
    clock: ctx.clock,
  });
  const checker = new HealthChecker({
    source: store,
    sink: store,
    bus: ctx.bus,
    clock: ctx.clock,
    // Every scheduled probe's result also goes to onProbe (metrics).
    probe: async (target) => {
      const result = await prober(target);
      onProbe(result);
      return result;
    },
    log: ctx.log,
    intervalMs: ctx.config.healthCheckIntervalS * 1000,
  });
  checker.start();
  ctx.log.info({ intervalS: ctx.config.healthCheckIntervalS }, 'health checker started');
  return { checker, stop: () => checker.stop() };
}
