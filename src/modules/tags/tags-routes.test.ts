/**
 * Resource tags over real HTTP (embedded database or PostgreSQL): normalisation and the tag rule,
 * the 50-tag limit, replace, delete, the vocabulary's counts, the services list's tag filter, and
 * resources that are not the caller's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

const TAGS = '/api/v1/client/tags';

describe('resource tags', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let svc: number;
  let other: number;
  let zoneId: number;
  beforeAll(async () => {
    t = await startTestApp({ env: { ROLE: 'api' } });
    alice = (await t.signUp()).token;
    bob = (await t.signUp()).token;
    const order = async () =>
      (
        await t.request('POST', '/api/v1/services/order', {
          token: alice,
          body: { product_id: 1, pricing_id: 1 },
        })
      ).body.id as number;
    svc = await order();
    other = await order();
    zoneId = (
      await t.request('POST', '/api/v1/dns/zones', { token: alice, body: { domain: 'tagged.example' } })
    ).body.id;
  });
  afterAll(async () => t?.close());

  const call = (token: string, method: string, path: string, body?: unknown) =>
    t.request(method, `${TAGS}${path}`, { token, ...(body !== undefined ? { body } : {}) });

  it('adds tags lower-cased, refuses what is not a tag, replaces and removes', async () => {
    const path = `/sources/service/${svc}`;
    expect((await call(alice, 'POST', path, { tag: 'Prod' })).body).toEqual({ tags: ['prod'] });
    expect((await call(alice, 'POST', path, { tag: 'team:web' })).body).toEqual({
      tags: ['prod', 'team:web'],
    });
    expect((await call(alice, 'POST', path, { tag: 'prod' })).body).toEqual({ tags: ['prod', 'team:web'] });
    for (const bad of ['a b', '', 'x'.repeat(65), 'héllo']) {
      const res = await call(alice, 'POST', path, { tag: bad });
      expect(res.status, bad).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'tag']);
    }
    expect((await call(alice, 'GET', path)).body).toEqual({
      source_type: 'service',
      source_id: svc,
      tags: ['prod', 'team:web'],
    });
    expect((await call(alice, 'PUT', path, { tags: ['B', 'a', 'b', 'v1.2_x-y'] })).body).toEqual({
      tags: ['a', 'b', 'v1.2_x-y'],
    });
    const badPut = await call(alice, 'PUT', path, { tags: ['ok', 'not ok'] });
    expect([badPut.status, badPut.body.detail[0].loc]).toEqual([422, ['body', 'tags', 1]]);
    expect((await call(alice, 'GET', path)).body.tags).toEqual(['a', 'b', 'v1.2_x-y']); // unchanged
    expect((await call(alice, 'DELETE', `${path}/b`)).body).toEqual({ tags: ['a', 'v1.2_x-y'] });
    expect((await call(alice, 'DELETE', `${path}/absent`)).body).toEqual({ tags: ['a', 'v1.2_x-y'] });
  });

  it('holds at most 50 tags on a resource', async () => {
    const path = `/sources/service/${other}`;
    const fifty = Array.from({ length: 50 }, (_, i) => `t${i}`);
    expect((await call(alice, 'PUT', path, { tags: fifty })).body.tags).toHaveLength(50);
    const more = await call(alice, 'POST', path, { tag: 'one-more' });
    expect([more.status, more.body.detail[0].msg]).toEqual([422, 'A resource carries at most 50 tags']);
    expect((await call(alice, 'POST', path, { tag: 't7' })).status).toBe(200); // already there
    expect((await call(alice, 'PUT', path, { tags: [...fifty, 'x'] })).status).toBe(422);
    expect((await call(alice, 'PUT', path, { tags: ['prod', 'team:web'] })).body.tags).toEqual([
      'prod',
      'team:web',
    ]);
  });

  it('tags DNS zones; another account’s resource, and kinds without resources, are 404', async () => {
    expect((await call(alice, 'POST', `/sources/dns_zone/${zoneId}`, { tag: 'prod' })).body).toEqual({
      tags: ['prod'],
    });
    for (const path of [`/sources/dns_zone/${zoneId}`, `/sources/service/${svc}`]) {
      expect((await call(bob, 'GET', path)).status).toBe(404);
      const res = await call(bob, 'POST', path, { tag: 'mine' });
      expect([res.status, res.body]).toEqual([404, { detail: 'Resource not found' }]);
    }
    for (const type of ['vps', 'container_server'])
      expect((await call(alice, 'GET', `/sources/${type}/1`)).status).toBe(404);
    const bogus = await call(alice, 'GET', '/sources/bucket/1');
    expect([bogus.status, bogus.body.detail[0].loc]).toEqual([422, ['path', 'source_type']]);
  });

  it('the vocabulary counts the caller’s tagged resources, most used first', async () => {
    await call(alice, 'PUT', `/sources/service/${svc}`, { tags: ['prod', 'eu'] });
    const res = await call(alice, 'GET', '/vocabulary?source_type=service');
    expect(res.body).toEqual({
      items: [
        { tag: 'prod', resource_count: 2 },
        { tag: 'eu', resource_count: 1 },
        { tag: 'team:web', resource_count: 1 },
      ],
      source_type: 'service',
    });
    expect((await call(bob, 'GET', '/vocabulary?source_type=service')).body.items).toEqual([]);
    expect((await call(alice, 'GET', '/vocabulary?source_type=dns_zone')).body.items).toEqual([
      { tag: 'prod', resource_count: 1 },
    ]);
    expect((await call(alice, 'GET', '/vocabulary')).status).toBe(422);
    expect((await call(alice, 'GET', '/vocabulary?source_type=bogus')).status).toBe(422);
  });

  it('filters the services list by tag', async () => {
    const list = async (q: string) =>
      (await t.request('GET', `/api/v1/services/?${q}`, { token: alice })).body.map(
        (s: { id: number }) => s.id,
      );
    expect(await list('tag=eu')).toEqual([svc]);
    expect(await list('tag=PROD')).toEqual([other, svc]);
    expect(await list('tag=nothing')).toEqual([]);
  });
});
