import type { Kysely } from 'kysely';
import type { TestApp } from './test-app.ts';

/** A game route row as a test writes it (what the table needs; the rest takes defaults). */
export interface RouteRowInput {
  readonly user_id: number;
  readonly subdomain: string;
  readonly base_domain?: string;
  readonly org_id?: number | null;
  readonly mode?: 'proxy' | 'status_only';
  readonly upstream_service_id?: number | null;
  readonly upstream_host?: string | null;
  readonly upstream_port?: number | null;
  readonly online_motd?: string | null;
  readonly offline_motd?: string | null;
  readonly favicon?: string | null;
  readonly version_name?: string | null;
  readonly status_cache_ttl_seconds?: number;
  readonly proxy_protocol?: boolean;
  readonly real_ip?: boolean;
}

interface Tables {
  gameproxy_routes: Required<RouteRowInput> & {
    id?: number;
    display_name: string | null;
    description: string | null;
    location_id: number | null;
    created_at: Date;
    updated_at: Date;
  };
}

/**
 * Writes a game route straight into the product's database and announces it on the bus, as the
 * control API does (for tests of what reads routes: the edge node, custom domains, boosts).
 */
export async function insertGameRoute(t: TestApp, input: RouteRowInput): Promise<number> {
  const db = t.node.runtime.database.db as unknown as Kysely<Tables>;
  const now = new Date(t.node.runtime.clock.now());
  const row = await db
    .insertInto('gameproxy_routes')
    .values({
      org_id: null,
      mode: 'proxy',
      upstream_service_id: null,
      upstream_host: null,
      upstream_port: null,
      online_motd: null,
      offline_motd: null,
      favicon: null,
      version_name: null,
      status_cache_ttl_seconds: 10,
      proxy_protocol: false,
      real_ip: false,
      base_domain: 'play.localhost',
      display_name: null,
      description: null,
      location_id: null,
      created_at: now,
      updated_at: now,
      ...input,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  await t.node.runtime.bus.publish('gameproxy.routes-changed', { routeIds: [id] });
  return id;
}

/** The user id behind an access token's account (for rows a test writes for that account). */
export async function userIdOf(t: TestApp, token: string): Promise<number> {
  const me = await t.request<{ id: number }>('GET', '/api/v1/auth/me', { token });
  if (me.status !== 200) throw new Error(`GET /auth/me answered ${me.status}`);
  return me.body.id;
}
