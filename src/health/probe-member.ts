import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Clock } from '../kernel/clock.ts';
import { probePort, type HealthTarget, type ProbeResult, type ProbeVerdict } from './health-target.ts';
import { httpProbe } from './http-probe.ts';
import { ForbiddenTargetError, type TargetGuard } from './target-guard.ts';
import { tcpProbe } from './tcp-probe.ts';

export interface ProbeDeps {
  readonly guard: TargetGuard;
  /** Stamps `checkedAt`. */
  readonly clock: Clock;
  /**
   * Local addresses probes leave from, one per family at most (HEALTH_SOURCE_ADDRESSES: a PoP's
   * published checker addresses, which origins may allow-list); none → the system's choice.
   */
  readonly sourceAddresses?: readonly string[];
  /** Monotonic milliseconds for `latencyMs` (tests may fake it); performance.now() by default. */
  readonly monotonicMs?: () => number;
}

/** Runs `target`'s check once and answers the verdict; never throws. */
export type MemberProber = (target: HealthTarget) => Promise<ProbeResult>;

export function createMemberProber(deps: ProbeDeps): MemberProber {
  const monotonic = deps.monotonicMs ?? (() => performance.now());
  const sources = deps.sourceAddresses ?? [];
  return async (target) => {
    const port = probePort(target.mode, target.port);
    const localAddress = sources.find((a) => isIP(a) === isIP(target.address));
    const timeoutMs = Math.max(1, target.timeoutS) * 1000;
    const started = monotonic();
    let verdict: ProbeVerdict;
    try {
      verdict =
        target.mode === 'tcp'
          ? await tcpProbe(
              { address: target.address, port, timeoutMs, timeoutS: target.timeoutS, localAddress },
              deps.guard,
            )
          : await httpProbe(
              {
                scheme: target.mode,
                address: target.address,
                port,
                path: target.path,
                timeoutMs,
                timeoutS: target.timeoutS,
                localAddress,
              },
              deps.guard,
            );
    } catch (error) {
      if (error instanceof ForbiddenTargetError)
        return { status: 'unhealthy', error: error.message, latencyMs: null, checkedAt: deps.clock.now() };
      verdict = error instanceof Error ? error.message.split('\n')[0]! : 'probe failed';
    }
    const latencyMs = Math.max(0, Math.round(monotonic() - started));
    return {
      status: verdict === null ? 'healthy' : 'unhealthy',
      error: verdict,
      latencyMs,
      checkedAt: deps.clock.now(),
    };
  };
}
