/**
 * A DNS node's cold start with its backends down, on real processes: `npm start`'s entry point
 * with ROLE=dns and two cluster workers, its PostgreSQL and Redis reached through TCP proxies the
 * test cuts and restores (the servers themselves are shared by the suite), beside a ROLE=api
 * process that reaches them directly. With the snapshot files from an earlier run, the node starts
 * and answers while both are down (zones and the member health it last knew), /readyz says 200 and names them under `degraded`, and once they
 * return it catches up (resync and bus) with what changed meanwhile. With four workers and a
 * database that takes connections but never answers, the node is ready from its snapshot files
 * within 5 s. Needs DATABASE_URL and REDIS_URL; skipped without them.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEALTH_SNAPSHOT_FILE_NAME } from '../../src/nodes/dns/health-snapshot-file.ts';
import { SNAPSHOT_FILE_NAME } from '../../src/nodes/dns/snapshot-file.ts';
import { freePort } from '../../src/testing/free-port.ts';
import { openProcessStage, type ProcessStage } from '../../src/testing/process-stage.ts';
import { eventually } from '../../src/testing/eventually.ts';
import { ask, callApi, startProcess, type Proc } from '../../src/testing/product-process.ts';
import { startTcpProxy, type TcpProxy } from '../../src/testing/tcp-proxy.ts';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const ZONES = '/api/v1/dns/zones';
const DOMAIN = 'cold.example';

if (!DATABASE_URL || !REDIS_URL) {
  console.warn('dns cold-start e2e skipped: needs DATABASE_URL and REDIS_URL (real PostgreSQL and Redis)');
}

/** The first /readyz ask (by when it was sent) that answers 200; asks go out every 100 ms. */
async function firstReady(url: string, timeoutMs: number): Promise<{ askedAt: number; body: unknown }> {
  const deadline = Date.now() + timeoutMs;
  let first: { askedAt: number; body: unknown } | null = null;
  const asks: Promise<void>[] = [];
  while (first === null && Date.now() < deadline) {
    const askedAt = Date.now();
    asks.push(
      fetch(`${url}/readyz`).then(
        async (res) => {
          const body: unknown = await res.json();
          if (res.status === 200 && (first === null || askedAt < first.askedAt)) first = { askedAt, body };
        },
        () => undefined,
      ),
    );
    await new Promise((r) => setTimeout(r, 100));
  }
  await Promise.all(asks);
  if (first === null) throw new Error(`/readyz did not answer 200 within ${timeoutMs} ms`);
  return first;
}

/** `url` with its host and port replaced by a local proxy's. */
function through(url: string, port: number): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
}

describe.skipIf(!DATABASE_URL || !REDIS_URL)(
  'DNS node cold start while PostgreSQL and Redis are down',
  () => {
    let stage: ProcessStage;
    let db: TcpProxy;
    let redis: TcpProxy;
    let apiUrl: string;
    let token: string;
    let zoneId: number;
    let dnsDataDir: string;
    let shared: Record<string, string>;

    const call = <T>(method: string, p: string, body?: unknown): Promise<T> =>
      callApi<T>(apiUrl, method, p, body, token);
    const addA = (name: string, content: string) =>
      call('POST', `${ZONES}/${zoneId}/records`, { name, type: 'A', content, ttl: 60 });
    const startDns = (): Proc =>
      startProcess({
        ...shared,
        ROLE: 'dns',
        DNS_WORKERS: '2',
        DATA_DIR: dnsDataDir,
        DATABASE_URL: through(shared.DATABASE_URL!, db.port),
        REDIS_URL: through(REDIS_URL!, redis.port),
      });

    beforeAll(async () => {
      stage = await openProcessStage('cold');
      shared = { ...stage.env, SEALING_KEY: randomBytes(32).toString('base64') };
      const pgUrl = new URL(DATABASE_URL!);
      const redisUrl = new URL(REDIS_URL!);
      db = await startTcpProxy(pgUrl.hostname, Number(pgUrl.port || 5432));
      redis = await startTcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
      const api = startProcess({
        ...shared,
        ROLE: 'api',
        DATA_DIR: stage.dataDir(),
        HEALTH_ALLOW_PRIVATE_TARGETS: 'true',
      });
      apiUrl = String((await api.waitFor((l) => l.msg === 'API listening', 60_000)).url);
      token = await stage.signUp(apiUrl);
      zoneId = (await call<{ id: number }>('POST', ZONES, { domain: DOMAIN })).id;
      await addA('www', '192.0.2.1');
      // A load balancer whose origin is down (a check on a closed port): DNS answers the fallback.
      const origin = await call<{ id: number; members: { id: number }[] }>(
        'POST',
        `${ZONES}/${zoneId}/pools`,
        {
          name: 'origin',
          members: [
            { address: '127.0.0.1', health_mode: 'tcp', health_port: await freePort(), health_timeout_s: 1 },
          ],
        },
      );
      const backup = await call<{ id: number }>('POST', `${ZONES}/${zoneId}/pools`, {
        name: 'backup',
        members: [{ address: '127.0.0.2' }],
      });
      await call('POST', `${ZONES}/${zoneId}/load-balancers`, {
        hostname: 'lb',
        default_pools: [origin.id],
        fallback_pool_id: backup.id,
      });
      const check = await call<{ health_status: string }>(
        'POST',
        `${ZONES}/${zoneId}/pools/${origin.id}/members/${origin.members[0]!.id}/health-check`,
      );
      expect(check.health_status).toBe('unhealthy');
      dnsDataDir = stage.dataDir();
    }, 120_000);

    afterAll(async () => {
      await db?.restore().catch(() => undefined);
      await redis?.restore().catch(() => undefined);
      await stage?.close();
      await db?.close();
      await redis?.close();
    }, 30_000);

    it('starts with two workers from the snapshot file, says what is degraded, and catches up', async () => {
      // An earlier run with everything up leaves its snapshot file.
      const first = startDns();
      const firstPort = Number((await first.waitFor((l) => l.msg === 'DNS listening', 90_000)).port);
      await eventually(async () =>
        expect(await ask(firstPort, `www.${DOMAIN}`, 'udp')).toEqual(['192.0.2.1']),
      );
      await eventually(async () =>
        expect(await ask(firstPort, `lb.${DOMAIN}`, 'udp')).toEqual(['127.0.0.2']),
      );
      await eventually(async () => {
        expect(existsSync(path.join(dnsDataDir, SNAPSHOT_FILE_NAME))).toBe(true);
        expect(existsSync(path.join(dnsDataDir, HEALTH_SNAPSHOT_FILE_NAME))).toBe(true);
      }, 10_000);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);

      await db.cut();
      await redis.cut();
      const cold = startDns();
      const opsUrl = String((await cold.waitFor((l) => l.msg === 'ops endpoints listening', 60_000)).url);
      const port = Number((await cold.waitFor((l) => l.msg === 'DNS listening', 90_000)).port);
      for (const transport of ['udp', 'tcp'] as const) {
        for (let i = 0; i < 10; i++) {
          expect(await ask(port, `www.${DOMAIN}`, transport)).toEqual(['192.0.2.1']);
          // The health it last knew, not `unknown` (which would answer the dead origin).
          expect(await ask(port, `lb.${DOMAIN}`, transport)).toEqual(['127.0.0.2']);
        }
      }
      const degraded = await fetch(`${opsUrl}/readyz`);
      expect(degraded.status).toBe(200);
      expect(await degraded.json()).toEqual({ status: 'ready', degraded: ['postgres', 'redis'] });

      // A change committed while the node cannot see it; it keeps answering what it knows.
      await addA('meanwhile', '192.0.2.2');
      await new Promise((r) => setTimeout(r, 3_000));
      expect(cold.child.exitCode).toBeNull();
      expect(await ask(port, `meanwhile.${DOMAIN}`, 'udp')).toEqual([]);

      await db.restore();
      await redis.restore();
      // Caught up by resync, on every worker (TCP alternates between them).
      await eventually(async () => {
        for (const transport of ['udp', 'tcp', 'tcp'] as const)
          expect(await ask(port, `meanwhile.${DOMAIN}`, transport)).toEqual(['192.0.2.2']);
      }, 30_000);
      await eventually(async () => {
        const ready = await fetch(`${opsUrl}/readyz`);
        expect(await ready.json()).toEqual({ status: 'ready' });
      }, 30_000);
      // And the bus again: a new change arrives as an event, well before the next periodic resync.
      await addA('after', '192.0.2.3');
      await eventually(async () => {
        for (const transport of ['udp', 'tcp', 'tcp'] as const)
          expect(await ask(port, `after.${DOMAIN}`, transport)).toEqual(['192.0.2.3']);
      }, 5_000);
      cold.child.kill('SIGTERM');
      expect(await cold.exited).toBe(0);
    }, 240_000);

    it('with four workers and PostgreSQL not answering, is ready from the snapshot file within 5 s', async () => {
      // An earlier run with everything up leaves its snapshot files (in a data directory of its own).
      const dataDir = stage.dataDir();
      const env = { ...shared, ROLE: 'dns', DNS_WORKERS: '4', DATA_DIR: dataDir, REDIS_URL: REDIS_URL! };
      const first = startProcess(env);
      const firstPort = Number((await first.waitFor((l) => l.msg === 'DNS listening', 90_000)).port);
      await eventually(async () =>
        expect(await ask(firstPort, `lb.${DOMAIN}`, 'udp')).toEqual(['127.0.0.2']),
      );
      await eventually(async () => {
        expect(existsSync(path.join(dataDir, SNAPSHOT_FILE_NAME))).toBe(true);
        expect(existsSync(path.join(dataDir, HEALTH_SNAPSHOT_FILE_NAME))).toBe(true);
      }, 10_000);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);

      // PostgreSQL's host takes connections and never answers: every attempt lasts the connection
      // timeout (5 s). The workers start at once from the snapshot file and reach the database in
      // the background, so readiness waits on no database attempt. As an operator runs it (the
      // bundle): the time is the node's, not the TypeScript loader's.
      const held: Socket[] = [];
      const silent = createServer((socket) => held.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const down = new URL(shared.DATABASE_URL!);
        down.hostname = '127.0.0.1';
        down.port = String((silent.address() as AddressInfo).port);
        const cold = startProcess({ ...env, DATABASE_URL: down.toString() }, 'npm start');
        const ops = await cold.waitFor((l) => l.msg === 'ops endpoints listening', 120_000);
        // Asked every 100 ms, each ask on its own: a not-ready answer may wait up to 1 s on the hung
        // database (`degraded`), and the node is ready from the first ask that answers 200.
        const ready = await firstReady(String(ops.url), 30_000);
        expect(ready.body).toEqual({ status: 'ready', degraded: ['postgres'] });
        const readyAt = ready.askedAt;
        expect(readyAt - Number(ops.time)).toBeLessThan(5_000);
        // Every worker serves the snapshot file without an answer from the database.
        const served = cold.lines.filter((l) => l.msg === 'database unreachable: serving the snapshot file');
        expect(served.map((l) => l.dnsWorker).sort()).toEqual([0, 1, 2, 3]);
        for (const l of served) expect(l.err).toBe('no answer within the start wait');
        const port = Number((await cold.waitFor((l) => l.msg === 'DNS listening', 1_000)).port);
        for (let i = 0; i < 8; i++) {
          expect(await ask(port, `www.${DOMAIN}`, 'tcp')).toEqual(['192.0.2.1']);
          expect(await ask(port, `lb.${DOMAIN}`, 'udp')).toEqual(['127.0.0.2']);
        }
        cold.child.kill('SIGTERM');
        expect(await cold.exited).toBe(0);
      } finally {
        for (const socket of held) socket.destroy();
        silent.close();
      }
    }, 240_000);
  },
);
