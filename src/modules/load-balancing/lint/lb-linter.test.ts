import { describe, expect, it } from 'vitest';
import type { SteeringLoadBalancer, SteeringPool } from '../../../dns/index.ts';
import { member } from '../../../testing/steering-fixture.ts';
import { lintLoadBalancer, lintPool, lintZone, type LintInput } from './lb-linter.ts';

const FRA = { code: 'FRA', latitude: 50.1, longitude: 8.7 };
const pool = (id: number, over: Partial<SteeringPool> = {}): SteeringPool => ({
  id,
  name: `p${id}`,
  algorithm: 'weighted_rr',
  enabled: true,
  sessionAffinity: 'none',
  primaryLocation: FRA,
  members: [member(id * 10, `203.0.113.${id}`), member(id * 10 + 1, `2001:db8::${id}`)],
  ...over,
});
const lb = (over: Partial<SteeringLoadBalancer> = {}): SteeringLoadBalancer => ({
  id: 1,
  name: 'www',
  hostname: 'www.example.com',
  ttl: 30,
  enabled: true,
  sessionAffinity: 'none',
  policy: 'geo',
  locationStrategy: 'pop',
  defaultPools: [1, 2],
  fallbackPoolId: 3,
  regionPools: { WEU: [2, 1] },
  countryPools: { BR: [3, 1] },
  locationPools: { FRA: [1] },
  onAllUnhealthy: 'serve_last',
  ...over,
});
function input(over: Partial<LintInput> = {}, unmonitored: number[] = []): LintInput {
  return {
    loadBalancers: [lb()],
    pools: [pool(1), pool(2), pool(3)],
    healthModeOf: (id) => (unmonitored.includes(id) ? 'none' : 'http'),
    deploymentPops: new Set(['FRA', 'AMS']),
    ...over,
  };
}
const codes = (findings: { code: string }[]) => findings.map((f) => f.code);

describe('load-balancing linter', () => {
  it('finds nothing in a clean configuration', () => {
    expect(lintZone(input())).toEqual([]);
  });

  it('pool_unreachable: listed only after a pool that is never skipped', () => {
    const i = input(
      { loadBalancers: [lb({ defaultPools: [1, 2], regionPools: {}, countryPools: {}, locationPools: {} })] },
      [10, 11],
    );
    expect(lintLoadBalancer(i.loadBalancers[0]!, i)).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'pool_unreachable', path: 'default_pools.1' }),
    ]);
    // Listed first somewhere else: reachable there.
    const j = input({ loadBalancers: [lb({ defaultPools: [1, 2], regionPools: { WEU: [2] } })] }, [10, 11]);
    expect(codes(lintLoadBalancer(j.loadBalancers[0]!, j))).not.toContain('pool_unreachable');
  });

  it('country_same_as_region: a country entry that repeats its region', () => {
    const i = input({ loadBalancers: [lb({ countryPools: { DE: [2, 1] } })] });
    expect(lintLoadBalancer(i.loadBalancers[0]!, i)).toEqual([
      expect.objectContaining({ severity: 'info', code: 'country_same_as_region', path: 'country_pools.DE' }),
    ]);
  });

  it('unknown_pop: a location_pools key that is no PoP of this deployment', () => {
    const i = input({ loadBalancers: [lb({ locationPools: { FRA: [1], SYD: [2] } })] });
    expect(lintLoadBalancer(i.loadBalancers[0]!, i)).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'unknown_pop', path: 'location_pools.SYD' }),
    ]);
  });

  it('proximity_pool_without_location: proximity steering over a pool with no location', () => {
    const i = input({
      loadBalancers: [lb({ policy: 'proximity', regionPools: {}, countryPools: {}, locationPools: {} })],
      pools: [pool(1), pool(2, { primaryLocation: null }), pool(3)],
    });
    expect(lintLoadBalancer(i.loadBalancers[0]!, i)).toEqual([
      expect.objectContaining({ code: 'proximity_pool_without_location', path: 'default_pools.1' }),
    ]);
  });

  it('fallback_is_only_default', () => {
    const i = input({ loadBalancers: [lb({ defaultPools: [3], fallbackPoolId: 3 })] });
    expect(codes(lintLoadBalancer(i.loadBalancers[0]!, i))).toEqual(['fallback_is_only_default']);
  });

  it('no_enabled_members and no_members_of_family', () => {
    const v4only = input({
      pools: [1, 2, 3].map((id) => pool(id, { members: [member(id * 10, `203.0.113.${id}`)] })),
    });
    expect(lintLoadBalancer(v4only.loadBalancers[0]!, v4only)).toEqual([
      expect.objectContaining({ severity: 'info', code: 'no_members_of_family' }),
    ]);
    const none = input({
      pools: [1, 2, 3].map((id) =>
        pool(id, { members: [member(id * 10, `203.0.113.${id}`, { enabled: false })] }),
      ),
    });
    expect(lintLoadBalancer(none.loadBalancers[0]!, none)).toEqual([
      expect.objectContaining({ severity: 'error', code: 'no_enabled_members' }),
    ]);
  });

  it('short_ttl_with_affinity', () => {
    const i = input({ loadBalancers: [lb({ ttl: 10, sessionAffinity: 'client_ip' })] });
    expect(lintLoadBalancer(i.loadBalancers[0]!, i)).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'short_ttl_with_affinity', path: 'ttl' }),
    ]);
  });

  it('failover_member_unmonitored and pool_unreferenced, with object paths in the zone list', () => {
    const i = input({ pools: [pool(1, { algorithm: 'failover' }), pool(2), pool(3), pool(4)] }, [10]);
    expect(lintPool(i.pools[0]!, i)).toEqual([
      expect.objectContaining({ code: 'failover_member_unmonitored', path: 'members.10.health_mode' }),
    ]);
    expect(lintZone(i)).toEqual([
      expect.objectContaining({
        code: 'failover_member_unmonitored',
        path: 'pools.1.members.10.health_mode',
      }),
      expect.objectContaining({ severity: 'info', code: 'pool_unreferenced', path: 'pools.4' }),
    ]);
  });
});
