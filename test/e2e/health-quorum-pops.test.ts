/**
 * Health quorum across PoPs on real processes: three checker processes of different PoPs (the
 * ROLE=all process of FRA, and ROLE=checker processes of AMS and SIN) on one PostgreSQL and Redis,
 * each probing from its own source address (HEALTH_SOURCE_ADDRESSES). The origin answers 503 to
 * one PoP's address — that PoP's network to the member is broken — and the member stays healthy
 * over DNS; when a second PoP loses it, the majority takes it down. HEALTH_FALL and HEALTH_RISE are
 * 1, so the quorum alone keeps the member up. Skipped without DATABASE_URL and REDIS_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../src/testing/eventually.ts';
import { startSwitchableServer, type SwitchableHttpServer } from '../../src/testing/probe-target-servers.ts';
import { openProcessStage, type ProcessStage } from '../../src/testing/process-stage.ts';
import { ask, callApi, startProcess, type Proc } from '../../src/testing/product-process.ts';

const withBackends = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const DOMAIN = 'quorum.example';
const SOURCES = { FRA: '127.0.0.11', AMS: '127.0.0.12', SIN: '127.0.0.13' } as const;
const ORIGIN = '127.0.0.1';
const BACKUP = '127.0.0.9';

interface History {
  probes: { at: string; pop: string; status: string; latency_ms: number | null; error: string | null }[];
  changes: { at: string; from: string; to: string; reason: string }[];
}

describe.skipIf(!withBackends)('health quorum over three checker processes of different PoPs', () => {
  let stage: ProcessStage;
  let origin: SwitchableHttpServer;
  let apiUrl: string;
  let dnsPort: number;
  let sinOps: string;
  let token: string;
  let memberPath: string;

  const call = <T>(method: string, p: string, body?: unknown) => callApi<T>(apiUrl, method, p, body, token);
  const www = () => ask(dnsPort, `www.${DOMAIN}`, 'udp');
  const history = () => call<History>('GET', `${memberPath}/health-history?limit=60`);
  const probesFrom = (address: string) => origin.requests.filter((r) => r.from === address).length;

  beforeAll(async () => {
    stage = await openProcessStage('quorum');
    origin = await startSwitchableServer(200, undefined, ORIGIN);
    const health = {
      ...stage.env,
      HEALTH_CHECK_INTERVAL_S: '1',
      HEALTH_ALLOW_PRIVATE_TARGETS: 'true',
      HEALTH_FALL: '1',
      HEALTH_RISE: '1',
    };
    const fra = startProcess({
      ...health,
      ROLE: 'all',
      POP: 'FRA',
      HEALTH_SOURCE_ADDRESSES: SOURCES.FRA,
      DNS_WORKERS: '0',
      RRL_RATE: '0',
      DATA_DIR: stage.dataDir(),
    });
    const checker = (pop: 'AMS' | 'SIN'): Proc =>
      startProcess({
        ...health,
        ROLE: 'checker',
        POP: pop,
        HEALTH_SOURCE_ADDRESSES: SOURCES[pop],
        DATA_DIR: stage.dataDir(),
      });
    apiUrl = String((await fra.waitFor((l) => l.msg === 'API listening', 60_000)).url);
    dnsPort = Number((await fra.waitFor((l) => l.msg === 'DNS listening', 60_000)).port);
    const ams = checker('AMS');
    const sin = checker('SIN');
    token = await stage.signUp(apiUrl);
    const zone = await call<{ id: number }>('POST', '/api/v1/dns/zones', { domain: DOMAIN });
    const zonePath = `/api/v1/dns/zones/${zone.id}`;
    const main = await call<{ id: number; members: { id: number }[] }>('POST', `${zonePath}/pools`, {
      name: 'origin',
      members: [{ address: ORIGIN, health_mode: 'http', health_port: origin.port, health_timeout_s: 1 }],
    });
    const backup = await call<{ id: number }>('POST', `${zonePath}/pools`, {
      name: 'backup',
      members: [{ address: BACKUP }],
    });
    await call('POST', `${zonePath}/load-balancers`, {
      hostname: 'www',
      default_pools: [main.id],
      fallback_pool_id: backup.id,
    });
    memberPath = `${zonePath}/pools/${main.id}/members/${main.members[0]!.id}`;
    sinOps = String((await sin.waitFor((l) => l.msg === 'ops endpoints listening', 60_000)).url);
    await ams.waitFor((l) => l.msg === 'health checker started', 60_000);
    await eventually(async () => {
      expect(await www()).toEqual([ORIGIN]);
      for (const address of Object.values(SOURCES)) expect(probesFrom(address)).toBeGreaterThan(0);
    }, 20_000);
  }, 120_000);

  afterAll(async () => {
    await stage?.close();
    await origin?.close();
  }, 30_000);

  it('one PoP that cannot reach the member is outvoted: the member stays healthy', async () => {
    origin.statusFrom.set(SOURCES.SIN, 503);
    const sinBefore = probesFrom(SOURCES.SIN);
    const answers = new Set<string>();
    while (probesFrom(SOURCES.SIN) < sinBefore + 4) {
      answers.add(JSON.stringify(await www()));
      await new Promise((r) => setTimeout(r, 100));
    }
    expect([...answers]).toEqual([JSON.stringify([ORIGIN])]);
    const h = await history();
    const latest = (pop: string) => h.probes.find((p) => p.pop === pop)!;
    expect(latest('SIN')).toMatchObject({ status: 'unhealthy', error: 'HTTP 503 Service Unavailable' });
    expect(latest('AMS')).toMatchObject({ status: 'healthy', error: null });
    expect(latest('FRA')).toMatchObject({ status: 'healthy', error: null });
    expect(h.changes.map((c) => c.to)).toEqual(['healthy']); // the first check only
    // The SIN checker counted what it saw.
    const metrics = await (await fetch(`${sinOps}/metrics`)).text();
    expect(metrics).toMatch(/^health_probe_results_total\{pop="SIN",result="unhealthy"\} [1-9]/m);
  });

  it('when a second PoP loses it, the majority takes it down; it returns when they recover', async () => {
    origin.statusFrom.set(SOURCES.AMS, 503);
    await eventually(async () => expect(await www()).toEqual([BACKUP]), 10_000);
    const down = (await history()).changes[0]!;
    expect(down).toMatchObject({
      from: 'healthy',
      to: 'unhealthy',
      reason: 'unhealthy at 2 of 3 PoPs (AMS, SIN)',
    });
    origin.statusFrom.clear();
    await eventually(async () => expect(await www()).toEqual([ORIGIN]), 10_000);
    expect((await history()).changes[0]).toMatchObject({ from: 'unhealthy', to: 'healthy' });
  });
});
