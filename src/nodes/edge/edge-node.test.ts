/**
 * The edge role on real sockets: routes written to the database and announced on the bus answer
 * through the edge (a status request to a tiny game server), stop when deleted, follow their
 * verified custom domain, and show on /metrics. With DATABASE_URL and REDIS_URL, on two nodes.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningNode } from '../../apps/node.ts';
import { eventually } from '../../testing/eventually.ts';
import { insertGameRoute } from '../../testing/gameproxy-fixture.ts';
import {
  askStatus,
  startGameUpstream,
  statusText,
  tryLogin,
  type GameUpstream,
} from '../../testing/minecraft-status.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

const UNKNOWN = 'No such server here';
/** Tests ask often from one address: the default per-network rate would refuse them. */
const EDGE_ENV = { EDGE_CONN_RATE: '10000', EDGE_CONN_BURST: '10000', EDGE_UNKNOWN_TEXT: UNKNOWN };

interface DomainTables {
  gameproxy_custom_domains: {
    route_id: number;
    domain: string;
    subdomain: string | null;
    fqdn: string;
    status: string;
    next_check_at: Date;
    created_at: Date;
  };
  gameproxy_routes: { id: number };
}

const db = (t: TestApp) => t.node.runtime.database.db as unknown as Kysely<DomainTables>;
const announce = (t: TestApp, id: number) =>
  t.node.runtime.bus.publish('gameproxy.routes-changed', { routeIds: [id] });

/** The server list text `node`'s edge answers for `host`. */
async function textAt(node: RunningNode, host: string): Promise<string | null> {
  return statusText(await askStatus(node.edge!.port, host));
}

async function deleteRoute(t: TestApp, id: number): Promise<void> {
  await db(t).deleteFrom('gameproxy_routes').where('id', '=', id).execute();
  await announce(t, id);
}

describe('edge node: routes from the database', () => {
  let t: TestApp;
  let up: GameUpstream;
  beforeAll(async () => {
    up = await startGameUpstream('hello from alpha');
    t = await startTestApp({ env: EDGE_ENV });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await up?.close();
  });

  it('routes a new route by its address and every name under it, and no other name', async () => {
    const id = await insertGameRoute(t, {
      user_id: 1,
      subdomain: 'alpha',
      upstream_host: '127.0.0.1',
      upstream_port: up.port,
      status_cache_ttl_seconds: 0,
    });
    await eventually(
      async () => (await textAt(t.node, 'alpha.play.localhost')) === 'hello from alpha',
      2_000,
    );
    expect(await textAt(t.node, 'mc.alpha.play.localhost')).toBe('hello from alpha');
    expect(await textAt(t.node, 'beta.play.localhost')).toBe(UNKNOWN);
    expect(t.node.edge!.server.routes().ids()).toContain(id);
  });

  it('routes a custom domain once verified, not while pending', async () => {
    const id = await insertGameRoute(t, {
      user_id: 1,
      subdomain: 'custom',
      upstream_host: '127.0.0.1',
      upstream_port: up.port,
      online_motd: 'custom route',
    });
    const now = new Date();
    await db(t)
      .insertInto('gameproxy_custom_domains')
      .values({
        route_id: id,
        domain: 'example.com',
        subdomain: 'play',
        fqdn: 'play.example.com',
        status: 'pending',
        next_check_at: now,
        created_at: now,
      })
      .execute();
    await announce(t, id);
    await t.node.edge!.sync.reload();
    expect(await textAt(t.node, 'play.example.com')).toBe(UNKNOWN);
    await db(t)
      .updateTable('gameproxy_custom_domains')
      .set({ status: 'verified' })
      .where('route_id', '=', id)
      .execute();
    await announce(t, id);
    await eventually(async () => (await textAt(t.node, 'play.example.com')) === 'custom route', 2_000);
  });

  it('stops routing a deleted route', async () => {
    const id = await insertGameRoute(t, {
      user_id: 1,
      subdomain: 'gone',
      upstream_host: '127.0.0.1',
      upstream_port: up.port,
    });
    await eventually(async () => (await textAt(t.node, 'gone.play.localhost')) === 'hello from alpha', 2_000);
    await deleteRoute(t, id);
    await eventually(async () => (await textAt(t.node, 'gone.play.localhost')) === UNKNOWN, 2_000);
  });

  it('shows its counters and route table on /metrics', async () => {
    await textAt(t.node, 'alpha.play.localhost');
    await tryLogin(t.node.edge!.port, 'nobody.play.localhost');
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    const value = (line: string): number => Number(metrics.match(new RegExp(`^${line} (\\S+)$`, 'm'))?.[1]);
    expect(value('edge_route_table_routes')).toBe(t.node.edge!.server.routes().size);
    expect(value('edge_route_table_routes')).toBeGreaterThan(0);
    expect(value('edge_connections_total\\{result="status"\\}')).toBeGreaterThan(0);
    expect(value('edge_connections_total\\{result="unknown_host"\\}')).toBeGreaterThan(0);
    expect(value('edge_status_cache_total\\{result="miss"\\}')).toBeGreaterThan(0);
    expect(value('edge_active_connections')).toBeGreaterThanOrEqual(0);
    expect(metrics).toMatch(/^# TYPE edge_bytes_total counter$/m);
  });

  it('names the edge among the checks /readyz waits for', async () => {
    const ready = await fetch(`${t.url}/readyz`);
    expect(ready.status).toBe(200);
  });
});

describe.skipIf(process.env.DATABASE_URL === undefined)(
  'edge node: two edge processes on one database',
  () => {
    let t: TestApp;
    let peer: RunningNode;
    let up: GameUpstream;
    beforeAll(async () => {
      up = await startGameUpstream('two edges');
      t = await startTestApp({ env: { ...EDGE_ENV, GAMEPROXY_ALLOW_PRIVATE_UPSTREAMS: 'true' } });
      peer = await t.startPeer({ ROLE: 'edge' });
    }, 60_000);
    afterAll(async () => {
      await peer?.stop();
      await t?.close();
      await up?.close();
    });

    it('answers a route on both edges within 2 s of its announcement, and drops it on both once deleted', async () => {
      expect(peer.edge!.port).not.toBe(t.node.edge!.port);
      const started = Date.now();
      const id = await insertGameRoute(t, {
        user_id: 1,
        subdomain: 'both',
        upstream_host: '127.0.0.1',
        upstream_port: up.port,
      });
      await eventually(async () => {
        const answers = await Promise.all([
          textAt(t.node, 'both.play.localhost'),
          textAt(peer, 'both.play.localhost'),
        ]);
        return answers.every((a) => a === 'two edges');
      }, 2_000);
      expect(Date.now() - started).toBeLessThan(2_000);
      await deleteRoute(t, id);
      await eventually(async () => {
        const answers = await Promise.all([
          textAt(t.node, 'both.play.localhost'),
          textAt(peer, 'both.play.localhost'),
        ]);
        return answers.every((a) => a === UNKNOWN);
      }, 2_000);
    });

    it('answers a route made over the API on the edge-only node within 2 s, and stops once it is deleted', async () => {
      const { token } = await t.signUp();
      const started = Date.now();
      const made = await t.request<{ id: number; address: string }>('POST', '/api/v1/gameproxy/routes', {
        token,
        body: { subdomain: 'over-api', upstream_host: '127.0.0.1', upstream_port: up.port },
      });
      expect(made.status).toBe(201);
      expect(made.body.address).toBe('over-api.play.localhost');
      await eventually(async () => (await textAt(peer, 'over-api.play.localhost')) === 'two edges', 2_000);
      expect(Date.now() - started).toBeLessThan(2_000);
      const gone = await t.request('DELETE', `/api/v1/gameproxy/routes/${made.body.id}`, { token });
      expect(gone.status).toBe(204);
      await eventually(async () => (await textAt(peer, 'over-api.play.localhost')) === UNKNOWN, 2_000);
    });

    it('serves /metrics and /readyz of the edge-only node', async () => {
      await tryLogin(peer.edge!.port, 'nobody.play.localhost');
      const metrics = await (await fetch(`${peer.opsUrl}/metrics`)).text();
      expect(metrics).toMatch(/^edge_connections_total\{result="unknown_host"\} [1-9]/m);
      expect(metrics).toMatch(/^edge_route_table_routes \d+$/m);
      expect((await fetch(`${peer.opsUrl}/readyz`)).status).toBe(200);
    });
  },
);
