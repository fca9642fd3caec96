import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemberProber } from '../../../health/probe-member.ts';
import { FORBIDDEN_TARGET_TEXT } from '../../../health/target-guard.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { startSwitchableServer, type SwitchableHttpServer } from '../../../testing/probe-target-servers.ts';
import { memberProbeGuard } from './member-probe-guard.ts';

describe('member probe guard (the classifier at connect time)', () => {
  let server: SwitchableHttpServer;
  beforeAll(async () => {
    server = await startSwitchableServer(200);
  });
  afterAll(async () => server.close());

  it('in production mode never sends a probe to a private or loopback address', async () => {
    const probe = createMemberProber({ guard: memberProbeGuard(false), clock: new ManualClock() });
    for (const mode of ['http', 'https', 'tcp'] as const) {
      const r = await probe({
        memberId: 1,
        zoneId: 1,
        poolId: 1,
        address: '127.0.0.1',
        mode,
        path: '/',
        port: server.port,
        timeoutS: 1,
      });
      expect(r).toMatchObject({ status: 'unhealthy', error: FORBIDDEN_TARGET_TEXT, latencyMs: null });
    }
    expect(server.requests).toEqual([]);
  });

  it('follows the classifier: public yes, private only when allowed, reserved never', () => {
    expect(memberProbeGuard(false)('8.8.8.8')).toBe(true);
    expect(memberProbeGuard(false)('10.1.2.3')).toBe(false);
    expect(memberProbeGuard(true)('10.1.2.3')).toBe(true);
    expect(memberProbeGuard(true)('127.0.0.1')).toBe(true);
    expect(memberProbeGuard(true)('169.254.169.254')).toBe(false);
    expect(memberProbeGuard(true)('not-an-address')).toBe(false);
  });
});
