import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../kernel/db/database.ts';
import { migrate } from '../../../kernel/db/run-migrations.ts';
import { openDatabase } from '../../../kernel/db/open-database.ts';
import type { LoadBalancingTables } from '../load-balancing-tables.ts';
import { SteeringLoader } from './steering-loader.ts';
import { SteeringRepository } from './steering-repository.ts';
import { sql } from 'kysely';

const url = process.env.DATABASE_URL ?? null;
const schema = url ? `test_steering_${randomBytes(4).toString('hex')}` : undefined;

describe('the steering configuration the data plane takes', () => {
  let database: Database<LoadBalancingTables>;
  let zoneId: number;
  let ids: { eu: number; us: number; m1: number; m2: number; m3: number; lb: number };

  beforeAll(async () => {
    database = await openDatabase<LoadBalancingTables>({ url, dataDir: null, ...(schema ? { schema } : {}) });
    await migrate(database as Database<unknown>);
    const db = database.db;
    const user = await sql<{
      id: number;
    }>`INSERT INTO identity_users (email, password_hash) VALUES ('s@example.com', 'x') RETURNING id`.execute(
      db,
    );
    // The zone is the DNS module's row: written as SQL, these tables know nothing of it.
    const zone = await sql<{ id: number }>`
      INSERT INTO dns_zones (user_id, domain, serial)
      VALUES (${Number(user.rows[0]!.id)}, 'steer.example', 2026112201) RETURNING id`.execute(db);
    zoneId = Number(zone.rows[0]!.id);
    const pool = async (name: string, extra: Record<string, unknown> = {}) =>
      Number(
        (
          await db
            .insertInto('load_balancing_pools')
            .values({ zone_id: zoneId, name, ...extra } as never)
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    const eu = await pool('eu', {
      primary_location_code: 'FRA',
      algorithm: 'failover',
      session_affinity: 'client_ip',
    });
    const us = await pool('us', { enabled: false });
    const member = async (poolId: number, values: Record<string, unknown>) =>
      Number(
        (
          await db
            .insertInto('load_balancing_members')
            .values({ zone_id: zoneId, pool_id: poolId, ...values } as never)
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    const m1 = await member(eu, { address: '1.1.1.1', weight: 5, priority: 1, health_status: 'healthy' });
    const m2 = await member(eu, {
      address: '2606:4700:0:0:0:0:0:1111',
      address_type: 'AAAA',
      enabled: false,
      health_status: 'unhealthy',
    });
    const m3 = await member(us, { address: '8.8.8.8' });
    const lb = await db
      .insertInto('load_balancing_load_balancers')
      .values({
        zone_id: zoneId,
        name: 'www',
        hostname: 'www.steer.example',
        steering_policy: 'geo',
        default_pools: sql`${JSON.stringify([us, eu])}::jsonb`,
        fallback_pool_id: eu,
        region_pools: sql`${JSON.stringify({ WEU: [eu] })}::jsonb`,
        country_pools: sql`${JSON.stringify({ US: [us] })}::jsonb`,
        location_pools: sql`${JSON.stringify({ FRA: [eu, us] })}::jsonb`,
        on_all_unhealthy: 'servfail',
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    ids = { eu, us, m1, m2, m3, lb: Number(lb.id) };
  });

  afterAll(async () => {
    await database?.close();
    if (url && schema) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });

  it('builds ZoneSteering from the tables, for one zone and for all', async () => {
    const loader = new SteeringLoader(new SteeringRepository(database.db));
    const one = (await loader.load(zoneId)).get(zoneId);
    expect(one).toEqual({
      pools: [
        {
          id: ids.eu,
          name: 'eu',
          algorithm: 'failover',
          enabled: true,
          sessionAffinity: 'client_ip',
          primaryLocation: { code: 'FRA', latitude: expect.any(Number), longitude: expect.any(Number) },
          members: [
            { id: ids.m1, address: '1.1.1.1', family: 4, weight: 5, priority: 1, enabled: true },
            { id: ids.m2, address: '2606:4700::1111', family: 6, weight: 1, priority: 0, enabled: false },
          ],
        },
        {
          id: ids.us,
          name: 'us',
          algorithm: 'weighted_rr',
          enabled: false,
          sessionAffinity: 'none',
          primaryLocation: null,
          members: [{ id: ids.m3, address: '8.8.8.8', family: 4, weight: 1, priority: 0, enabled: true }],
        },
      ],
      loadBalancers: [
        {
          id: ids.lb,
          name: 'www',
          hostname: 'www.steer.example',
          ttl: 30,
          enabled: true,
          sessionAffinity: 'none',
          policy: 'geo',
          locationStrategy: 'pop',
          defaultPools: [ids.us, ids.eu],
          fallbackPoolId: ids.eu,
          regionPools: { WEU: [ids.eu] },
          countryPools: { US: [ids.us] },
          locationPools: { FRA: [ids.eu, ids.us] },
          onAllUnhealthy: 'servfail',
        },
      ],
    });
    expect((await loader.load()).get(zoneId)).toEqual(one);
  });

  it('reads every member health_status', async () => {
    const health = await new SteeringRepository(database.db).memberHealth();
    expect(health.get(ids.m1)).toBe('healthy');
    expect(health.get(ids.m2)).toBe('unhealthy');
    expect(health.get(ids.m3)).toBe('unknown');
  });
});
