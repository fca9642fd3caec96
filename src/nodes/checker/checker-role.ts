import { HealthChecker } from '../../health/health-checker.ts';
import type { HealthTarget, ProbeResult } from '../../health/health-target.ts';
import { createMemberProber } from '../../health/probe-member.ts';
import type { MetricsRegistry } from '../../kernel/metrics/metrics-registry.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { dnsConfig } from '../../modules/dns/index.ts';
import { createMemberHealthChecks } from '../../modules/load-balancing/index.ts';

export interface CheckerRole {
  readonly checker: HealthChecker;
  stop(): Promise<void>;
}

/**
 * The checker role (ROLE=all or checker): probes every member with a check once per interval,
 * coordinated with the other checker processes through the bus, and publishes status changes.
 */
export async function startCheckerRole(ctx: Runtime, metrics?: MetricsRegistry): Promise<CheckerRole> {
  const { pop } = ctx.config.section(dnsConfig);
  const { store, guard, settings } = createMemberHealthChecks(ctx);
  const onProbe = metrics !== undefined ? probeMetrics(metrics, pop) : () => undefined;
  const prober = createMemberProber({
    guard,
    clock: ctx.clock,
    sourceAddresses: settings.healthSourceAddresses,
  });
  const checker = new HealthChecker({
    source: store,
    sink: store,
    bus: ctx.bus,
    clock: ctx.clock,
    pop,
    // Every scheduled probe's result also goes to onProbe (metrics).
    probe: async (target) => {
      const result = await prober(target);
      onProbe(target, result);
      return result;
    },
    log: ctx.log,
    intervalMs: settings.healthCheckIntervalS * 1000,
  });
  checker.start();
  ctx.log.info({ intervalS: settings.healthCheckIntervalS, pop }, 'health checker started');
  return { checker, stop: () => checker.stop() };
}

/** Upper bounds in seconds of the probe-duration buckets. */
const PROBE_BUCKETS_S = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function probeMetrics(
  metrics: MetricsRegistry,
  pop: string,
): (target: HealthTarget, result: ProbeResult) => void {
  const probes = metrics.counter(
    'health_probe_results_total',
    'Health probes run by this checker, by its PoP and result (healthy, unhealthy).',
    ['pop', 'result'],
  );
  const duration = metrics.histogram(
    'health_probe_duration_seconds',
    'Time from the start of a probe to its verdict (probes that attempted a connection).',
    PROBE_BUCKETS_S,
  );
  const status = metrics.gauge(
    'health_member_status',
    'What this checker last found of each member it probed: 1 healthy, 0 unhealthy (labels are ids).',
    ['zone', 'pool', 'member'],
  );
  return (target, result) => {
    probes.inc({ pop, result: result.status });
    if (result.latencyMs !== null) duration.observe(result.latencyMs / 1000);
    status.set(result.status === 'healthy' ? 1 : 0, {
      zone: String(target.zoneId),
      pool: String(target.poolId),
      member: String(target.memberId),
    });
  };
}
