/**
 * A member's health decided from probes of several PoPs, on the real database (embedded or
 * PostgreSQL) with a moved clock: quorum, flap damping (opted into by the pool), the 3-minute
 * window, the history route and its 7 days, and a reset by a new address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HEALTH_POLICY } from '../../../health/health-decision.ts';
import type { HealthTarget } from '../../../health/health-target.ts';
import { tablesOf } from '../../../kernel/runtime/runtime.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import type { LoadBalancingTables } from '../load-balancing-tables.ts';
import { MemberHealthRepository } from './member-health-repository.ts';
import { DbMemberHealthStore } from './member-health-store.ts';

const ZONES = '/api/v1/dns/zones';
const MINUTE = 60_000;

describe('member health decided over PoPs (quorum, damping, history)', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 24, 12));
  let t: TestApp;
  let token: string;
  let email: string;
  let stores: Record<'FRA' | 'AMS' | 'SIN', DbMemberHealthStore>;
  let zoneId: number;
  let poolId: number;
  let domains = 0;

  beforeAll(async () => {
    t = await startTestApp({ clock, env: { ROLE: 'api', HEALTH_ALLOW_PRIVATE_TARGETS: 'true' } });
    ({ token, email } = await t.signUp());
    const db = new MemberHealthRepository(tablesOf<LoadBalancingTables>(t.node.runtime));
    stores = {
      FRA: new DbMemberHealthStore(db, 'FRA', DEFAULT_HEALTH_POLICY),
      AMS: new DbMemberHealthStore(db, 'AMS', DEFAULT_HEALTH_POLICY),
      SIN: new DbMemberHealthStore(db, 'SIN', DEFAULT_HEALTH_POLICY),
    };
    const zone = await t.request('POST', ZONES, { token, body: { domain: `quorum${++domains}.example` } });
    zoneId = zone.body.id as number;
    // The pool opts into flap damping (two checks in a row either way); the deployment keeps 1 and 1.
    const pool = await t.request('POST', `${ZONES}/${zoneId}/pools`, {
      token,
      body: { name: 'p', health_fall: 2, health_rise: 2 },
    });
    expect(pool.status, pool.text).toBe(201);
    poolId = pool.body.id as number;
  });
  afterAll(async () => t?.close());

  const membersPath = (pool = poolId) => `${ZONES}/${zoneId}/pools/${pool}/members`;

  async function newMember(pool = poolId): Promise<HealthTarget> {
    const res = await t.request('POST', membersPath(pool), {
      token,
      body: { address: '127.0.0.1', health_mode: 'http', health_port: 9 },
    });
    expect(res.status, res.text).toBe(201);
    return {
      memberId: res.body.id as number,
      zoneId,
      poolId: pool,
      address: '127.0.0.1',
      mode: 'http',
      path: '/',
      port: 9,
      timeoutS: 5,
    };
  }

  /** One probe of `pop`, 10 s after the previous one. */
  async function probe(target: HealthTarget, pop: keyof typeof stores, ok: boolean) {
    clock.advance(10_000);
    return stores[pop].record(target, {
      status: ok ? 'healthy' : 'unhealthy',
      error: ok ? null : 'HTTP 503 Service Unavailable',
      latencyMs: 12,
      checkedAt: clock.now(),
    });
  }

  async function memberStatus(target: HealthTarget): Promise<string> {
    const pool = await t.request('GET', `${ZONES}/${zoneId}/pools/${poolId}`, { token });
    const members = pool.body.members as { id: number; health_status: string }[];
    return members.find((x) => x.id === target.memberId)!.health_status;
  }

  const history = (target: HealthTarget, query = '') =>
    t.request('GET', `${membersPath()}/${target.memberId}/health-history${query}`, { token });

  it('without damping on the pool, one failed check takes a member down and one passed check brings it back', async () => {
    const plain = await t.request('POST', `${ZONES}/${zoneId}/pools`, { token, body: { name: 'plain' } });
    const m = await newMember(plain.body.id as number);
    expect(await probe(m, 'FRA', true)).toEqual({ previous: 'unknown', status: 'healthy' });
    expect(await probe(m, 'FRA', false)).toEqual({ previous: 'healthy', status: 'unhealthy' });
    expect(await probe(m, 'FRA', true)).toEqual({ previous: 'unhealthy', status: 'healthy' });
    // A pool that asks for three failures in a row gets them, whatever the deployment's default.
    const patched = await t.request('PATCH', `${ZONES}/${zoneId}/pools/${plain.body.id}`, {
      token,
      body: { health_fall: 3 },
    });
    expect(patched.status, patched.text).toBe(200);
    expect((await probe(m, 'FRA', false))!.status).toBe('healthy');
    expect((await probe(m, 'FRA', false))!.status).toBe('healthy');
    expect((await probe(m, 'FRA', false))!.status).toBe('unhealthy');
    expect((await probe(m, 'FRA', true))!.status).toBe('healthy');
  });

  it('a member alternating pass and fail stays in one state', async () => {
    const m = await newMember();
    expect(await probe(m, 'FRA', true)).toEqual({ previous: 'unknown', status: 'healthy' });
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) seen.add((await probe(m, 'FRA', i % 2 === 1))!.status);
    expect(seen).toEqual(new Set(['healthy']));
    // Two failures in a row take it down; two passes bring it back.
    await probe(m, 'FRA', false);
    expect(await probe(m, 'FRA', false)).toEqual({ previous: 'healthy', status: 'unhealthy' });
    expect(await memberStatus(m)).toBe('unhealthy');
    await probe(m, 'FRA', true);
    expect(await probe(m, 'FRA', true)).toEqual({ previous: 'unhealthy', status: 'healthy' });
  });

  it('one PoP that cannot reach the member is outvoted; two of three take it down', async () => {
    const m = await newMember();
    await probe(m, 'AMS', true);
    await probe(m, 'SIN', true);
    for (let round = 0; round < 5; round++) {
      expect((await probe(m, 'FRA', false))!.status).toBe('healthy');
      await probe(m, 'AMS', true);
      await probe(m, 'SIN', true);
    }
    expect(await memberStatus(m)).toBe('healthy');
    // AMS loses it too: 2 of 3, and after two such decisions in a row the member is down.
    await probe(m, 'AMS', false);
    expect((await probe(m, 'FRA', false))!.status).toBe('unhealthy');
    const h = await history(m, '?limit=3');
    expect(h.status).toBe(200);
    expect(h.body.probes.map((p: { pop: string }) => p.pop)).toEqual(['FRA', 'AMS', 'SIN']);
    expect(h.body.probes[0]).toEqual({
      at: new Date(clock.now()).toISOString(),
      pop: 'FRA',
      status: 'unhealthy',
      latency_ms: 12,
      error: 'HTTP 503 Service Unavailable',
    });
    expect(h.body.changes).toEqual([
      {
        at: new Date(clock.now()).toISOString(),
        from: 'healthy',
        to: 'unhealthy',
        reason: 'unhealthy at 2 of 3 PoPs (AMS, FRA), 2 checks in a row',
      },
      {
        at: expect.any(String),
        from: 'unknown',
        to: 'healthy',
        reason: 'first check: healthy at 1 of 1 PoPs',
      },
    ]);
  });

  it('only probes of the last 3 minutes count', async () => {
    const m = await newMember();
    await probe(m, 'AMS', false);
    await probe(m, 'SIN', false);
    expect(await memberStatus(m)).toBe('unhealthy');
    clock.advance(3 * MINUTE);
    // AMS and SIN went quiet: FRA alone decides (two passes in a row).
    await probe(m, 'FRA', true);
    expect((await probe(m, 'FRA', true))!.status).toBe('healthy');
  });

  it('a new address starts over: the first probe decides, older probes do not count', async () => {
    const m = await newMember();
    await probe(m, 'AMS', false);
    await probe(m, 'SIN', false);
    const moved = await t.request('PATCH', `${membersPath()}/${m.memberId}`, {
      token,
      body: { address: '127.0.0.2' },
    });
    expect(moved.body.health_status).toBe('unknown');
    expect(await probe(m, 'FRA', true)).toEqual({ previous: 'unknown', status: 'healthy' });
  });

  it('keeps 7 days of history', async () => {
    const m = await newMember();
    await probe(m, 'FRA', false);
    clock.advance(8 * 24 * 60 * MINUTE);
    token = await t.signIn(email);
    await probe(m, 'FRA', true);
    await probe(m, 'FRA', true);
    const h = await history(m);
    expect(h.body.probes).toHaveLength(2);
    expect(h.body.probes[0].status).toBe('healthy');
    expect(h.body.changes.map((c: { to: string }) => c.to)).toEqual(['healthy']);
  });

  it('history: 50 by default, limit 1–500, another account’s member is a 404', async () => {
    const m = await newMember();
    for (let i = 0; i < 55; i++) await probe(m, 'FRA', true);
    expect((await history(m)).body.probes).toHaveLength(50);
    expect((await history(m, '?limit=0')).status).toBe(422);
    expect((await history(m, '?limit=501')).status).toBe(422);
    const mallory = (await t.signUp()).token;
    const other = await t.request('GET', `${membersPath()}/${m.memberId}/health-history`, { token: mallory });
    expect(other.status).toBe(404);
  });
});
