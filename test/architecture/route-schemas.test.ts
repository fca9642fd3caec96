import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

const API = '/api/v1/';

/**
 * Routes this test leaves out, by URL prefix, each with its reason. Anything else under /api/v1
 * (the DNS and locations modules today, every module added later) is held to the rule.
 */
const SKIPPED: readonly { readonly prefix: string; readonly why: string }[] = [];

const isSkipped = (url: string): boolean => SKIPPED.some((s) => url.startsWith(s.prefix));
const methods = (route: RouteOptions): string =>
  Array.isArray(route.method) ? route.method.join(',') : route.method;
const responseOf = (route: RouteOptions): Record<string, unknown> =>
  (route.schema as { response?: Record<string, unknown> } | undefined)?.response ?? {};

describe('architecture: every API route describes its answers (src/modules/README.md)', () => {
  let t: TestApp;
  let routes: RouteOptions[];
  beforeAll(async () => {
    t = await startTestApp();
    // HEAD routes are Fastify's copies of GET routes, schema included: each is checked once.
    routes = t.node.routes.filter((r) => r.url.startsWith(API) && !isSkipped(r.url) && r.method !== 'HEAD');
  });
  afterAll(async () => t?.close());

  it('sees the DNS and locations routes (the rule below is not checked on nothing)', () => {
    expect(routes.filter((r) => r.url.startsWith('/api/v1/dns/')).length).toBeGreaterThan(30);
    expect(routes.some((r) => r.url.startsWith('/api/v1/locations'))).toBe(true);
  });

  it('declares schema.response with a 2xx entry on every route under /api/v1', () => {
    const missing = routes
      .filter((r) => !Object.keys(responseOf(r)).some((status) => /^2(\d\d|xx)$/.test(status)))
      .map((r) => `${methods(r)} ${r.url}`);
    expect(missing, 'routes without a success response schema').toEqual([]);
  });

  it('declares the errors every route can answer: 429 (rate limit), 401 unless public, 422 with input', () => {
    const missing: string[] = [];
    for (const r of routes) {
      const declared = Object.keys(responseOf(r));
      const schema = (r.schema ?? {}) as Record<string, unknown>;
      const needed = ['429'];
      if (r.config?.auth !== 'public') needed.push('401');
      if (schema.params !== undefined || schema.querystring !== undefined || schema.body !== undefined) {
        needed.push('422');
      }
      for (const status of needed)
        if (!declared.includes(status)) missing.push(`${methods(r)} ${r.url}: ${status}`);
    }
    expect(missing, 'error statuses a route answers but does not declare').toEqual([]);
  });
});
