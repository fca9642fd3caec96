import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryBus } from '../events/memory-bus.ts';
import { createHttpServer } from '../http/create-http-server.ts';
import { createLogger } from '../log/logger.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { BudgetEngine } from './budget-engine.ts';
import { BUDGETS, type Budget } from './budget-table.ts';

/** A path of a budget route with its parameters filled in. */
function concrete(path: string, fill: string): string {
  return path.replace(/:([a-z_]+)/g, (_, name: string) => `${name}-${fill}`);
}

describe('per-action budgets: every row of the seed’s table, through the engine', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 23));
  let app: FastifyInstance;
  beforeAll(async () => {
    app = createHttpServer({ logger: createLogger('silent'), bodyLimitBytes: 1 << 20, trustProxy: false });
    // The signed-in caller, as the authentication layer would set it.
    app.decorateRequest('principal', null as never);
    app.addHook('onRequest', async (request) => {
      const user = request.headers['x-user'];
      (request as { principal: unknown }).principal = {
        realm: 'main',
        credential: 'access_token',
        userId: Number(user ?? 1),
      };
    });
    new BudgetEngine(new MemoryBus(clock), clock).install(app);
    const seen = new Set<string>();
    for (const b of BUDGETS) {
      for (const r of b.routes) {
        if (seen.has(`${r.method} ${r.path}`)) continue;
        seen.add(`${r.method} ${r.path}`);
        app.route({ method: r.method, url: r.path, handler: async () => ({ ok: true }) });
      }
    }
    await app.ready();
  });
  afterAll(async () => app?.close());

  const call = (method: string, url: string, user = 1) =>
    app.inject({ method: method as 'POST', url, headers: { 'x-user': String(user) } });

  it('has the seed’s 26 rows', () => {
    expect(BUDGETS).toHaveLength(26);
    expect(new Set(BUDGETS.map((b) => b.action)).size).toBe(26);
  });

  const driven = BUDGETS.filter((b) => b.routes.length > 0);
  it.each(driven.map((b) => [b.action, b] as [string, Budget]))(
    '%s: the first call over the budget answers 429',
    async (_action, budget) => {
      clock.advance(24 * 3600_000); // every earlier window has passed
      const fill = budget.action.replace(/[^a-z]/g, '');
      // Calls spread over the budget's routes that address the same kind of target (they share
      // one count), leaving out routes of other budgets too (apps.deploy's are in apps.write).
      const firstParam = (path: string) => /:([a-z_]+)/.exec(path)?.[1];
      const inOther = (r: { method: string; path: string }) =>
        BUDGETS.some(
          (o) =>
            o.action !== budget.action && o.routes.some((x) => x.method === r.method && x.path === r.path),
        );
      const own = budget.routes.filter((r) => !inOther(r));
      const base = own[0] ?? budget.routes[0]!;
      const routes = own.filter((r) => firstParam(r.path) === firstParam(base.path));
      if (routes.length === 0) routes.push(base);
      for (let i = 0; i < budget.count; i++) {
        const r = routes[i % routes.length]!;
        const res = await call(r.method, concrete(r.path, fill));
        expect(res.statusCode, `call ${i + 1} of ${budget.count}: ${r.method} ${r.path} ${res.body}`).toBe(
          200,
        );
      }
      const r = routes[0]!;
      const over = await call(r.method, concrete(r.path, fill));
      expect(over.statusCode).toBe(429);
      expect(over.headers['retry-after']).toBe(String(budget.windowS));
      const body = over.json() as { detail: Record<string, unknown> };
      if (budget.exhausted === undefined) {
        expect(body).toEqual({
          detail: {
            error: 'rate_limited',
            message: 'Too many requests for this action. Please wait and try again.',
            action: budget.action,
            retry_after_seconds: budget.windowS,
          },
        });
      } else {
        expect(body).toEqual({
          detail: { error: 'rate_limited', message: budget.exhausted, retry_after_seconds: budget.windowS },
        });
        expect(body.detail).not.toHaveProperty('action');
      }
      // The count is per scope: another target (per server) or another account (per account) goes on.
      const other =
        budget.scope === 'account' ||
        budget.scope === 'person_or_key' ||
        (budget.scope === 'owner' && !r.path.includes(':org_slug'))
          ? await call(r.method, concrete(r.path, fill), 2)
          : await call(r.method, concrete(r.path, `${fill}x`));
      expect(other.statusCode).toBe(200);
      // The window passes: allowed again.
      clock.advance(budget.windowS * 1000 + 1);
      expect((await call(r.method, concrete(r.path, fill))).statusCode).toBe(200);
    },
  );

  it('charges a budget without a route (storefront.free_order) through charge()', async () => {
    const engine = new BudgetEngine(new MemoryBus(clock), clock);
    for (let i = 0; i < 12; i++) await engine.charge('storefront.free_order', 'user:7');
    await expect(engine.charge('storefront.free_order', 'user:7')).rejects.toMatchObject({
      status: 429,
      detail: { action: 'storefront.free_order', retry_after_seconds: 600 },
    });
    await engine.charge('storefront.free_order', 'user:8');
  });
});
