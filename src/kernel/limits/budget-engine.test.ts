import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryBus } from '../events/memory-bus.ts';
import { createHttpServer } from '../http/create-http-server.ts';
import { createLogger } from '../log/logger.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { BudgetEngine } from './budget-engine.ts';
import { budgetTable, defineBudget, type Budget } from './budget.ts';

/** One budget of each scope, as modules define theirs; the routes below declare them. */
const perServer = defineBudget({ action: 'test.power', count: 3, windowS: 60, scope: 'target' });
const perAccount = defineBudget({ action: 'test.probe', count: 2, windowS: 300, scope: 'account' });
const perOwner = defineBudget({
  action: 'test.create',
  count: 2,
  windowS: 3600,
  scope: 'owner',
  exhausted: 'Creation limit reached: 2 an hour. Please wait and try again.',
});
const perKey = defineBudget({ action: 'test.write', count: 4, windowS: 3600, scope: 'person_or_key' });
const perApp = defineBudget({ action: 'test.deploy', count: 2, windowS: 600, scope: 'app' });
const perAddress = defineBudget({ action: 'test.lookup', count: 2, windowS: 60, scope: 'client_ip' });
const byHandler = defineBudget({
  action: 'test.free_order',
  count: 2,
  windowS: 600,
  scope: 'account',
  countedBy: 'handler',
});

const ROUTES: readonly { method: 'POST' | 'PATCH'; url: string; budget: Budget | readonly Budget[] }[] = [
  { method: 'POST', url: '/servers/:uuid/power', budget: perServer },
  { method: 'POST', url: '/servers/:uuid/power/cycle', budget: perServer },
  { method: 'POST', url: '/servers/:uuid/probe', budget: perAccount },
  { method: 'POST', url: '/orgs/:org_slug/apps', budget: perOwner },
  { method: 'PATCH', url: '/apps/:app_uuid', budget: perKey },
  { method: 'POST', url: '/apps/:app_uuid/deployments', budget: [perKey, perApp] },
  { method: 'POST', url: '/orders', budget: byHandler },
  { method: 'POST', url: '/orgs/:org_slug/lookup', budget: perAddress },
];

describe('per-action budgets declared on routes, through the engine', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 23));
  let app: FastifyInstance;
  let engine: BudgetEngine;
  beforeAll(async () => {
    app = createHttpServer({ logger: createLogger('silent'), bodyLimitBytes: 1 << 20, trustProxy: false });
    // The caller, as the authentication layer would set it: a user, or an API key.
    app.decorateRequest('principal', null as never);
    app.addHook('onRequest', async (request) => {
      const key = request.headers['x-key'];
      (request as { principal: unknown }).principal = {
        realm: 'main',
        credential: key !== undefined ? 'org_key' : 'access_token',
        userId: Number(request.headers['x-user'] ?? 1),
        ...(key !== undefined ? { keyId: Number(key) } : {}),
      };
    });
    engine = new BudgetEngine(new MemoryBus(clock), clock);
    engine.install(app);
    for (const r of ROUTES)
      app.route({
        method: r.method,
        url: r.url,
        config: { budget: r.budget },
        handler: async () => ({ ok: true }),
      });
    app.route({
      method: 'POST',
      url: '/orders/free',
      config: { budget: byHandler },
      handler: async (request) => {
        await engine.charge(byHandler, `user:${request.principal.userId}`);
        return { ok: true };
      },
    });
    await app.ready();
  });
  afterAll(async () => app?.close());

  const call = (method: string, url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: method as 'POST', url, headers });
  const statuses = async (n: number, method: string, url: string, headers: Record<string, string> = {}) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await call(method, url, headers)).statusCode);
    return out;
  };

  it('counts per target: the routes of one server share its count, another server has its own', async () => {
    expect(await statuses(2, 'POST', '/servers/a/power')).toEqual([200, 200]);
    expect(await statuses(2, 'POST', '/servers/a/power/cycle')).toEqual([200, 429]);
    expect(await statuses(1, 'POST', '/servers/b/power')).toEqual([200]);
    const over = await call('POST', '/servers/a/power');
    expect(over.headers['retry-after']).toBe('60');
    expect(over.json()).toEqual({
      detail: {
        error: 'rate_limited',
        message: 'Too many requests for this action. Please wait and try again.',
        action: 'test.power',
        retry_after_seconds: 60,
      },
    });
    clock.advance(60_001);
    expect(await statuses(1, 'POST', '/servers/a/power')).toEqual([200]);
  });

  it('counts per account across targets, per owner, per person or key, per app', async () => {
    expect(await statuses(3, 'POST', '/servers/x/probe')).toEqual([200, 200, 429]);
    expect(await statuses(1, 'POST', '/servers/y/probe')).toEqual([429]);
    expect(await statuses(1, 'POST', '/servers/x/probe', { 'x-user': '2' })).toEqual([200]);

    expect(await statuses(3, 'POST', '/orgs/acme/apps')).toEqual([200, 200, 429]);
    expect(await statuses(1, 'POST', '/orgs/other/apps')).toEqual([200]);
    const exhausted = (await call('POST', '/orgs/acme/apps')).json() as { detail: Record<string, unknown> };
    expect(exhausted.detail).toEqual({
      error: 'rate_limited',
      message: 'Creation limit reached: 2 an hour. Please wait and try again.',
      retry_after_seconds: 3600,
    });

    // Two budgets on one route: the app's (2) runs out before the key's (4).
    expect(await statuses(3, 'POST', '/apps/one/deployments', { 'x-key': '9' })).toEqual([200, 200, 429]);
    expect(await statuses(2, 'PATCH', '/apps/one', { 'x-key': '9' })).toEqual([200, 429]);
    expect(await statuses(1, 'PATCH', '/apps/one', { 'x-key': '10' })).toEqual([200]);
  });

  it('counts per client address within the organization of the path', async () => {
    const from = (ip: string, org = 'shop') =>
      app.inject({ method: 'POST', url: `/orgs/${org}/lookup`, remoteAddress: ip });
    const codes = async (...calls: Promise<{ statusCode: number }>[]) =>
      (await Promise.all(calls)).map((r) => r.statusCode);
    expect(await codes(from('10.0.0.1'), from('10.0.0.1'))).toEqual([200, 200]);
    expect(await codes(from('10.0.0.1'))).toEqual([429]);
    expect(await codes(from('10.0.0.2'), from('10.0.0.1', 'other'))).toEqual([200, 200]);
  });

  it('leaves a budget counted by the handler to the handler (BudgetEngine.charge)', async () => {
    expect(await statuses(3, 'POST', '/orders')).toEqual([200, 200, 200]);
    expect(await statuses(3, 'POST', '/orders/free', { 'x-user': '7' })).toEqual([200, 200, 429]);
    expect(await statuses(1, 'POST', '/orders/free', { 'x-user': '8' })).toEqual([200]);
  });

  it('refuses a route declaring a budget defineBudget did not define, and a budget defined twice', async () => {
    const other = createHttpServer({
      logger: createLogger('silent'),
      bodyLimitBytes: 1024,
      trustProxy: false,
    });
    new BudgetEngine(new MemoryBus(clock), clock).install(other);
    const madeUp: Budget = { action: 'test.made_up', count: 1, windowS: 60, scope: 'account' };
    expect(() =>
      other.route({ method: 'POST', url: '/x', config: { budget: madeUp }, handler: async () => ({}) }),
    ).toThrow(/declares budget "test.made_up", which defineBudget did not define/);
    expect(() => defineBudget({ ...perServer })).toThrow(/defined twice/);
    await other.close();
  });

  it('tables every declared budget with its routes', () => {
    const rows = budgetTable(
      ROUTES.map((r) => ({ method: r.method, url: r.url, config: { budget: r.budget } })),
    );
    expect(rows.map((r) => [r.budget.action, r.routes])).toEqual([
      ['test.create', ['POST /orgs/:org_slug/apps']],
      ['test.deploy', ['POST /apps/:app_uuid/deployments']],
      ['test.free_order', ['POST /orders']],
      ['test.lookup', ['POST /orgs/:org_slug/lookup']],
      ['test.power', ['POST /servers/:uuid/power', 'POST /servers/:uuid/power/cycle']],
      ['test.probe', ['POST /servers/:uuid/probe']],
      ['test.write', ['PATCH /apps/:app_uuid', 'POST /apps/:app_uuid/deployments']],
    ]);
  });
});
