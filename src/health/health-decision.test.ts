import { describe, expect, it } from 'vitest';
import {
  decideHealth,
  DEFAULT_HEALTH_POLICY,
  quorumVerdict,
  type HealthPolicy,
  type PopProbe,
  type StoredHealth,
  type Verdict,
} from './health-decision.ts';

/** Flap damping as a deployment or a pool opts into it: two verdicts in a row either way. */
const DAMPED: HealthPolicy = { quorum: 'majority', fall: 2, rise: 2 };

const probes = (spec: Record<string, Verdict>): PopProbe[] =>
  Object.entries(spec).map(([pop, status]) => ({ pop, status }));

/** Feeds single-PoP verdicts through the damping and answers the statuses after each. */
function run(start: StoredHealth, verdicts: Verdict[], policy: HealthPolicy = DEFAULT_HEALTH_POLICY) {
  let state = start;
  return verdicts.map((v) => {
    state = decideHealth(state, quorumVerdict([{ pop: 'FRA', status: v }], policy.quorum), policy);
    return state.status;
  });
}

describe('health quorum', () => {
  it('with one PoP is that PoP’s verdict', () => {
    expect(quorumVerdict(probes({ FRA: 'unhealthy' }), 'majority').status).toBe('unhealthy');
    expect(quorumVerdict(probes({ FRA: 'healthy' }), 'majority').status).toBe('healthy');
    expect(quorumVerdict(probes({ FRA: 'unhealthy' }), 3).status).toBe('unhealthy');
  });

  it('majority: unhealthy only when more than half of the PoPs say so', () => {
    const one = quorumVerdict(probes({ FRA: 'unhealthy', AMS: 'healthy', SIN: 'healthy' }), 'majority');
    expect(one).toEqual({ status: 'healthy', unhealthyPops: ['FRA'], pops: 3 });
    expect(quorumVerdict(probes({ FRA: 'unhealthy', AMS: 'healthy' }), 'majority').status).toBe('healthy');
    const two = quorumVerdict(probes({ FRA: 'unhealthy', AMS: 'unhealthy', SIN: 'healthy' }), 'majority');
    expect(two.status).toBe('unhealthy');
  });

  it('a number N: unhealthy when at least N PoPs (at most all that probed) say so', () => {
    const spec = probes({ FRA: 'unhealthy', AMS: 'healthy', SIN: 'healthy' });
    expect(quorumVerdict(spec, 1).status).toBe('unhealthy');
    expect(quorumVerdict(spec, 2).status).toBe('healthy');
    expect(quorumVerdict(probes({ FRA: 'unhealthy', AMS: 'unhealthy' }), 5).status).toBe('unhealthy');
  });
});

describe('health transitions', () => {
  it('by default one failed check takes a healthy member down and one passed check brings it back', () => {
    expect(DEFAULT_HEALTH_POLICY).toEqual({ quorum: 'majority', fall: 1, rise: 1 });
    const healthy = { status: 'healthy' as const, streak: 0 };
    expect(run(healthy, ['unhealthy', 'healthy', 'unhealthy', 'unhealthy', 'healthy'])).toEqual([
      'unhealthy',
      'healthy',
      'unhealthy',
      'unhealthy',
      'healthy',
    ]);
    const d = decideHealth(
      healthy,
      quorumVerdict(probes({ FRA: 'unhealthy' }), 'majority'),
      DEFAULT_HEALTH_POLICY,
    );
    expect(d.change).toEqual({ from: 'healthy', to: 'unhealthy', reason: 'unhealthy at 1 of 1 PoPs (FRA)' });
  });
});

describe('flap damping (opted into)', () => {
  it('the first verdict of an unknown member decides at once', () => {
    expect(run({ status: 'unknown', streak: 0 }, ['unhealthy'])).toEqual(['unhealthy']);
    const d = decideHealth(
      { status: 'unknown', streak: 0 },
      quorumVerdict(probes({ FRA: 'healthy' }), 'majority'),
      DEFAULT_HEALTH_POLICY,
    );
    expect(d.change).toEqual({
      from: 'unknown',
      to: 'healthy',
      reason: 'first check: healthy at 1 of 1 PoPs',
    });
  });

  it('goes down after 2 failed decisions in a row and back after 2 passes', () => {
    const healthy = { status: 'healthy' as const, streak: 0 };
    expect(run(healthy, ['unhealthy', 'unhealthy', 'healthy', 'healthy'], DAMPED)).toEqual([
      'healthy',
      'unhealthy',
      'unhealthy',
      'healthy',
    ]);
  });

  it('a member alternating pass and fail stays in one state', () => {
    const alternating: Verdict[] = Array.from({ length: 20 }, (_, i) => (i % 2 ? 'unhealthy' : 'healthy'));
    expect(new Set(run({ status: 'healthy', streak: 0 }, alternating, DAMPED))).toEqual(new Set(['healthy']));
    expect(new Set(run({ status: 'unhealthy', streak: 0 }, alternating, DAMPED))).toEqual(
      new Set(['unhealthy']),
    );
  });

  it('names the quorum and the run in the reason; fall 1 with rise 3 changes down at once', () => {
    const d = decideHealth(
      { status: 'healthy', streak: 1 },
      quorumVerdict(probes({ FRA: 'unhealthy', AMS: 'unhealthy', SIN: 'healthy' }), 'majority'),
      DAMPED,
    );
    expect(d).toEqual({
      status: 'unhealthy',
      streak: 0,
      change: {
        from: 'healthy',
        to: 'unhealthy',
        reason: 'unhealthy at 2 of 3 PoPs (FRA, AMS), 2 checks in a row',
      },
    });
    const policy = { quorum: 'majority' as const, fall: 1, rise: 3 };
    expect(
      run({ status: 'healthy', streak: 0 }, ['unhealthy', 'healthy', 'healthy', 'healthy'], policy),
    ).toEqual(['unhealthy', 'unhealthy', 'unhealthy', 'healthy']);
  });
});
