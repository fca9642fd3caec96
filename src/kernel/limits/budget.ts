/**
 * Per-action budgets, as a mechanism: a module defines each of its budgets once (`defineBudget`),
 * and each route it applies to declares it in its route config (`config: { budget }`), as it
 * declares `auth`. The kernel counts the calls (budget-engine.ts), refuses a route that declares a
 * budget nobody defined, and makes the table of every budget and its routes from the two
 * (budgetTable), which docs/keys-and-limits.md shows.
 */

export type BudgetScope =
  /** Per server, instance or route: the calls on one target object (its first path parameter). */
  | 'target'
  /** Per account: the signed-in user's calls, on any target. */
  | 'account'
  /** Per owning account or organization (the organization of an /orgs/{slug}/ path). */
  | 'owner'
  /** Per person or API key. */
  | 'person_or_key'
  /** Per app (its uuid). */
  | 'app'
  /** Per client address (the request's IP), within the organization of an /orgs/{slug}/ path. */
  | 'client_ip';

export interface Budget {
  /** Its stable name, `<area>.<action>`, answered in the 429's `action`. */
  readonly action: string;
  readonly count: number;
  readonly windowS: number;
  readonly scope: BudgetScope;
  /** Apps budgets answer without `action`, with a message naming what ran out. */
  readonly exhausted?: string;
  /**
   * 'handler': the route's handler counts a call only when it applies (a zero-cost order), with
   * BudgetEngine.charge; the route still declares the budget. Default 'route': every call counts.
   */
  readonly countedBy?: 'route' | 'handler';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The per-action budget(s) the route's calls count against (defineBudget). */
    budget?: Budget | readonly Budget[];
  }
}

const ACTION_RE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;
const registry = new Map<string, Budget>();

/** Declares a budget once; a second budget of the same action is a programming error caught at start. */
export function defineBudget(budget: Budget): Budget {
  if (!ACTION_RE.test(budget.action)) throw new Error(`budget "${budget.action}" must read <area>.<action>`);
  if (registry.has(budget.action)) throw new Error(`budget "${budget.action}" is defined twice`);
  if (!(Number.isInteger(budget.count) && budget.count > 0 && Number.isInteger(budget.windowS)))
    throw new Error(`budget "${budget.action}" needs a whole count and window`);
  const frozen = Object.freeze({ ...budget });
  registry.set(budget.action, frozen);
  return frozen;
}

/** Whether `budget` is the one defineBudget registered under its action. */
export function isDefinedBudget(budget: Budget): boolean {
  return registry.get(budget.action) === budget;
}

/** The budgets a route config declares, as a list. */
export function declaredBudgets(
  config: { readonly budget?: Budget | readonly Budget[] } | undefined,
): readonly Budget[] {
  const declared = config?.budget;
  if (declared === undefined) return [];
  return Array.isArray(declared) ? (declared as readonly Budget[]) : [declared as Budget];
}

/** One row of the budget table: a budget and the routes that declare it. */
export interface BudgetRow {
  readonly budget: Budget;
  /** `METHOD /api/v1/path`, sorted. */
  readonly routes: readonly string[];
}

/** Every budget some route declares, with its routes, by action. */
export function budgetTable(
  routes: readonly { readonly method: string | string[]; readonly url: string; readonly config?: unknown }[],
): BudgetRow[] {
  const byAction = new Map<string, { budget: Budget; routes: Set<string> }>();
  for (const route of routes) {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    for (const budget of declaredBudgets(route.config as { budget?: Budget | readonly Budget[] })) {
      const row = byAction.get(budget.action) ?? { budget, routes: new Set<string>() };
      for (const method of methods) row.routes.add(`${method} ${route.url}`);
      byAction.set(budget.action, row);
    }
  }
  return [...byAction.values()]
    .map((r) => ({ budget: r.budget, routes: [...r.routes].sort() }))
    .sort((a, b) => a.budget.action.localeCompare(b.budget.action));
}
