import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

interface Operation {
  readonly summary?: string;
  readonly description?: string;
  readonly security?: Record<string, string[]>[];
  readonly responses: Record<string, { content?: Record<string, { schema?: unknown; example?: unknown }> }>;
  readonly parameters?: { name: string; in: string }[];
  readonly requestBody?: unknown;
}
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};

/** `/zones/:zone_id` (Fastify) → `/zones/{zone_id}` (OpenAPI). */
const openApiPath = (url: string): string => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;
  beforeAll(async () => {
    t = await startTestApp();
    const res = await t.request('GET', '/api/v1/openapi.json');
    expect(res.status, res.text).toBe(200);
    doc = res.body as Document;
  });
  afterAll(async () => t?.close());

  it('is valid OpenAPI 3.1 by a maintained validator', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every registered /api/v1 route with its method', () => {
    const missing: string[] = [];
    for (const route of t.node.routes) {
      if (!route.url.startsWith('/api/v1/') || route.url === '/api/v1/openapi.json') continue;
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        const op = doc.paths[openApiPath(route.url)]?.[method.toLowerCase()];
        if (op === undefined) missing.push(`${method} ${route.url}`);
      }
    }
    expect(missing).toEqual([]);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(60);
  });

  it('gives each route its parameters, body, answers with examples, and credential kinds', () => {
    const zone = doc.paths['/api/v1/dns/zones/{zone_id}/records']!;
    expect(zone.get!.parameters!.map((p) => `${p.in}:${p.name}`)).toContain('path:zone_id');
    expect(zone.post!.requestBody).toBeDefined();
    expect(Object.keys(zone.post!.responses).sort()).toEqual(
      expect.arrayContaining(['201', '401', '404', '409', '422', '429']),
    );
    const example = (op: Operation, status: string) =>
      op.responses[status]?.content?.['application/json']?.example;
    expect(example(zone.post!, '401')).toEqual({ detail: 'Not authenticated' });
    expect(example(zone.post!, '422')).toMatchObject({ detail: [{ loc: ['body', 'content'] }] });
    expect(zone.post!.security).toEqual([{ accessToken: [] }]);

    expect(doc.paths['/api/v1/auth/login']!.post!.security).toEqual([]);
    const commerce = Object.entries(doc.paths).find(([p]) => p.includes('/commerce/'))!;
    const op = Object.values(commerce[1])[0]!;
    expect(op.security!.map((s) => Object.keys(s)[0])).toEqual(['organizationKey', 'accessToken']);
    expect(doc.paths['/api/v1/orgs/{org_slug}/store']!.get!.security).toEqual([{ publishableKey: [] }]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'accessToken',
      'organizationKey',
      'partnerKey',
      'publishableKey',
      'relayKey',
      'staffToken',
      'storefrontToken',
    ]);
  });

  it('states the order of every list route', () => {
    const unordered: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      const get = ops.get;
      const ok = get?.responses['200']?.content?.['application/json']?.schema as
        { type?: string; properties?: Record<string, { type?: string }> } | undefined;
      if (get === undefined || ok === undefined) continue;
      const isList =
        ok.type === 'array' || Object.values(ok.properties ?? {}).some((p) => p.type === 'array');
      const text = `${get.summary ?? ''} ${get.description ?? ''}`;
      // A bare "by" is not enough: "filtered by name" or "by type" state no order.
      if (isList && !/\b(order|ordered|sorted|first|last)\b/i.test(text)) unordered.push(path);
    }
    expect(unordered).toEqual([]);
  });
});
