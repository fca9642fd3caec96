import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Bus } from '../events/bus.ts';
import type { Clock } from '../clock.ts';
import { defineError } from '../errors/error-registry.ts';
import { BUDGETS, type Budget } from './budget-table.ts';

const RATE_LIMITED = 'Too many requests for this action. Please wait and try again.';

/** Seed "Errors": the per-action budget answer; `Retry-After` and the body give the whole window. */
export const budgetExceeded = defineError(
  'limits.budget_exceeded',
  429,
  (budget: Budget) =>
    budget.exhausted !== undefined
      ? { error: 'rate_limited', message: budget.exhausted, retry_after_seconds: budget.windowS }
      : {
          error: 'rate_limited',
          message: RATE_LIMITED,
          action: budget.action,
          retry_after_seconds: budget.windowS,
        },
  (budget: Budget) => ({ 'Retry-After': String(budget.windowS) }),
);

/** Whose calls a request counts as, for one budget; null: the budget does not apply to it. */
export type BudgetKey = (request: FastifyRequest) => string | null | Promise<string | null>;

function params(request: FastifyRequest): Record<string, unknown> {
  return (request.params ?? {}) as Record<string, unknown>;
}

const SCOPE_KEYS: Readonly<Record<Budget['scope'], BudgetKey>> = {
  // The object the route acts on is its first path parameter (the server, instance or route);
  // deeper parameters (a backup, a software record) name parts of that same object.
  target: (r) => {
    const first = /:([a-z_]+)/.exec(r.routeOptions.url ?? '')?.[1];
    return first === undefined ? (r.routeOptions.url ?? null) : `${first}=${String(params(r)[first])}`;
  },
  account: (r) => (r.principal?.userId !== undefined ? `user:${r.principal.userId}` : null),
  owner: (r) => {
    const slug = params(r).org_slug;
    if (typeof slug === 'string') return `org:${slug}`;
    return r.principal?.userId !== undefined ? `user:${r.principal.userId}` : null;
  },
  person_or_key: (r) => {
    if (r.principal?.keyId !== undefined) return `key:${r.principal.keyId}`;
    return r.principal?.userId !== undefined ? `user:${r.principal.userId}` : null;
  },
  app: (r) => {
    const app = params(r).app_uuid;
    return typeof app === 'string' ? `app:${app}` : null;
  },
};

/**
 * Applies the budget table: before a request of a route a budget names is handled, counts it in
 * the budget's sliding window (on the bus: Redis when configured, so every API process shares the
 * count, with the injected clock) and refuses it with the seed's 429 once the window is full.
 */
export class BudgetEngine {
  private readonly byRoute = new Map<string, Budget[]>();
  private readonly byAction = new Map<string, Budget>();
  private readonly keys = new Map<string, BudgetKey>();

  constructor(
    private readonly bus: Bus,
    private readonly clock: Clock,
    readonly table: readonly Budget[] = BUDGETS,
  ) {
    for (const budget of table) {
      this.byAction.set(budget.action, budget);
      for (const route of budget.routes) {
        const key = `${route.method} ${route.path}`;
        this.byRoute.set(key, [...(this.byRoute.get(key) ?? []), budget]);
      }
    }
  }

  /** A module's own notion of whose call it is (the account behind an MFA token, ...). */
  setKey(action: string, key: BudgetKey): void {
    this.keys.set(action, key);
  }

  budget(action: string): Budget {
    const budget = this.byAction.get(action);
    if (budget === undefined) throw new Error(`no budget named ${action}`);
    return budget;
  }

  /** The budgets a route is subject to. */
  budgetsFor(method: string, path: string): readonly Budget[] {
    return this.byRoute.get(`${method} ${path}`) ?? [];
  }

  /** Counts one call of `action` for `who`; throws the seed's 429 when the window is full. */
  async charge(action: string, who: string): Promise<void> {
    const budget = this.budget(action);
    const result = await this.bus.slidingWindowHit(
      `budget:${budget.action}:${who}`,
      this.clock.now(),
      budget.windowS * 1000,
      budget.count,
    );
    if (!result.allowed) throw budgetExceeded(budget);
  }

  /** Counts the request against every budget of its route (after authentication, body parsed). */
  async chargeRequest(request: FastifyRequest): Promise<void> {
    const url = request.routeOptions.url;
    if (url === undefined) return;
    for (const budget of this.budgetsFor(request.method, url)) {
      const key = await (this.keys.get(budget.action) ?? SCOPE_KEYS[budget.scope])(request);
      if (key !== null) await this.charge(budget.action, key);
    }
  }

  install(app: FastifyInstance): void {
    // preValidation: the body is parsed (an MFA token names its account) and malformed calls count too.
    app.addHook('preValidation', async (request) => {
      if (this.byRoute.size > 0) await this.chargeRequest(request);
    });
  }
}
