import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createHttpServer } from '../http/create-http-server.ts';
import { createLogger } from '../log/logger.ts';
import { beforeIdQuery, limitOffsetQuery, nextBeforeId, pageOffset, pagePerPageQuery } from './paging.ts';

describe('paging helpers', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = createHttpServer({ logger: createLogger('silent'), bodyLimitBytes: 1024, trustProxy: false });
    app.get('/pages', { schema: { querystring: pagePerPageQuery(25, 100) } }, async (r) => r.query);
    app.get('/offsets', { schema: { querystring: limitOffsetQuery(100, 500) } }, async (r) => r.query);
    app.get('/before', { schema: { querystring: beforeIdQuery(50, 100) } }, async (r) => r.query);
    await app.ready();
  });
  afterAll(async () => app.close());

  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.json() };
  };

  it('applies defaults', async () => {
    expect((await get('/pages')).body).toEqual({ page: 1, per_page: 25 });
    expect((await get('/offsets')).body).toEqual({ limit: 100, offset: 0 });
    expect((await get('/before')).body).toEqual({ limit: 50 });
    expect((await get('/before?before_id=9&limit=3')).body).toEqual({ before_id: 9, limit: 3 });
  });

  it('answers 422 naming the parameter for a size below 1 or above the largest', async () => {
    for (const [url, loc, type] of [
      ['/pages?per_page=0', 'per_page', 'greater_than_equal'],
      ['/pages?per_page=101', 'per_page', 'less_than_equal'],
      ['/pages?page=0', 'page', 'greater_than_equal'],
      ['/offsets?limit=501', 'limit', 'less_than_equal'],
      ['/before?limit=0', 'limit', 'greater_than_equal'],
      ['/pages?per_page=abc', 'per_page', 'int_type'],
    ] as const) {
      const res = await get(url);
      expect(res.status, url).toBe(422);
      expect(res.body.detail[0], url).toMatchObject({ type, loc: ['query', loc] });
    }
  });

  it('computes offsets and the next before_id', () => {
    expect(pageOffset(1, 25)).toBe(0);
    expect(pageOffset(3, 25)).toBe(50);
    expect(nextBeforeId([9, 8, 7], 3)).toBe(7);
    expect(nextBeforeId([9, 8], 3)).toBeNull();
  });
});
