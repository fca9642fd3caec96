import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Bus } from '../events/bus.ts';
import type { Clock } from '../clock.ts';
import { defineError } from '../errors/error-registry.ts';
import { declaredBudgets, isDefinedBudget, type Budget } from './budget.ts';

const RATE_LIMITED = 'Too many requests for this action. Please wait and try again.';

/** The per-action budget answer; `Retry-After` and the body give the whole window. */
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
  // A caller without an account (a shopper's client): its address, per organization it calls.
  client_ip: (r) => {
    const slug = params(r).org_slug;
    return typeof slug === 'string' ? `org:${slug}:ip:${r.ip}` : `ip:${r.ip}`;
  },
};

/** The budgets a request was counted against as it arrived: the first found full, or null. */
const countedOnArrival = new WeakMap<FastifyRequest, Promise<Budget | null>>();

/**
 * Applies the budgets routes declare: before a request of such a route is handled, counts it in
 * each budget's sliding window (on the bus: Redis when configured, so every API process shares
 * the count, with the injected clock) and refuses it with the 429 once the window is full.
 *
 * A budget per client address (scope `client_ip`, no key of a module's own) needs nothing but the
 * path and the address, so it is counted as the request arrives, beside the per-address request
 * limit: both counts go to Redis in one call. It is refused at preValidation, as the others are.
 */
export class BudgetEngine {
  private readonly keys = new Map<string, BudgetKey>();

  constructor(
    private readonly bus: Bus,
    private readonly clock: Clock,
  ) {}

  /** A module's own notion of whose call it is (the account behind an MFA token, ...). */
  setKey(budget: Budget, key: BudgetKey): void {
    this.keys.set(budget.action, key);
  }

  /** Counts one call of `budget` for `who`; throws the 429 when the window is full. */
  async charge(budget: Budget, who: string): Promise<void> {
    const result = await this.bus.slidingWindowHit(
      `budget:${budget.action}:${who}`,
      this.clock.now(),
      budget.windowS * 1000,
      budget.count,
    );
    if (!result.allowed) throw budgetExceeded(budget);
  }

  /** Whether `budget` is counted as its requests arrive (a client address's, keyed by the kernel). */
  private onArrival(budget: Budget): boolean {
    return budget.scope === 'client_ip' && budget.countedBy !== 'handler' && !this.keys.has(budget.action);
  }

  /** Starts counting the request against its route's per-address budgets (not awaited here). */
  private countOnArrival(request: FastifyRequest): void {
    const counts: Promise<Budget | null>[] = [];
    for (const budget of declaredBudgets(request.routeOptions.config)) {
      if (!this.onArrival(budget)) continue;
      const key = SCOPE_KEYS.client_ip(request) as string | null;
      if (key === null) continue;
      counts.push(
        this.bus
          .slidingWindowHit(
            `budget:${budget.action}:${key}`,
            this.clock.now(),
            budget.windowS * 1000,
            budget.count,
          )
          .then((result) => (result.allowed ? null : budget)),
      );
    }
    if (counts.length === 0) return;
    const full = Promise.all(counts).then((budgets) => budgets.find((b) => b !== null) ?? null);
    // Refused later, at preValidation; a request answered before then (another limit) drops it.
    full.catch(() => undefined);
    countedOnArrival.set(request, full);
  }

  /** Counts the request against every budget its route declares (after authentication, body parsed). */
  async chargeRequest(request: FastifyRequest): Promise<void> {
    const arrived = countedOnArrival.get(request);
    if (arrived !== undefined) {
      const full = await arrived;
      if (full !== null) throw budgetExceeded(full);
    }
    for (const budget of declaredBudgets(request.routeOptions.config)) {
      if (budget.countedBy === 'handler' || this.onArrival(budget)) continue;
      const key = await (this.keys.get(budget.action) ?? SCOPE_KEYS[budget.scope])(request);
      if (key !== null) await this.charge(budget, key);
    }
  }

  install(app: FastifyInstance): void {
    // One registry: a route may only declare a budget defined with defineBudget.
    app.addHook('onRoute', (route) => {
      for (const budget of declaredBudgets(route.config))
        if (!isDefinedBudget(budget))
          throw new Error(
            `${route.url} declares budget "${budget.action}", which defineBudget did not define`,
          );
    });
    // onRequest, before the per-address request limit's hook, so that both counts share a call.
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.routeOptions.config.budget !== undefined) this.countOnArrival(request);
      done();
    });
    // preValidation: the body is parsed (an MFA token names its account) and malformed calls count too.
    app.addHook('preValidation', (request, _reply, done) => {
      if (request.routeOptions.config.budget === undefined) return done();
      this.chargeRequest(request).then(() => done(), done);
    });
  }
}
