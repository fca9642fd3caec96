/**
 * The seed's per-action budgets ("Limits › Per-action budgets"), one row each, as data: which
 * routes share a budget, how many calls in which window, and whose calls are counted together.
 * The engine (budget-engine.ts) applies a row to every route it names that exists; a row whose
 * routes do not exist yet still stands here, tested through the engine.
 */
export type BudgetScope =
  /** Per server, instance or route: the calls on one target object (its path id). */
  | 'target'
  /** Per account: the signed-in user's calls, on any target. */
  | 'account'
  /** Per owning account or organization (the organization of an /orgs/{slug}/ path). */
  | 'owner'
  /** Per person or API key. */
  | 'person_or_key'
  /** Per app (its uuid). */
  | 'app';

export interface BudgetRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route's path as registered, with Fastify parameters (`:uuid`). */
  readonly path: string;
}

export interface Budget {
  readonly action: string;
  readonly routes: readonly BudgetRoute[];
  readonly count: number;
  readonly windowS: number;
  readonly scope: BudgetScope;
  /** Apps budgets answer without `action`, with a message naming what ran out. */
  readonly exhausted?: string;
}

const post = (path: string): BudgetRoute => ({ method: 'POST', path: `/api/v1${path}` });
const MINUTE = 60;
const HOUR = 3600;

/** Routes under /client/servers/{uuid}/software/ that install, change or update software. */
const SOFTWARE_ROUTES: readonly BudgetRoute[] = [
  post('/client/servers/:uuid/software/install'),
  post('/client/servers/:uuid/software/:record_uuid/update'),
  post('/client/servers/:uuid/software/:record_uuid/change'),
  { method: 'DELETE', path: '/api/v1/client/servers/:uuid/software/:record_uuid' },
];

/** Every change under /client/apps/ and /orgs/{org_slug}/apps/. */
const APP_WRITE_ROUTES: readonly BudgetRoute[] = ['/client/apps', '/orgs/:org_slug/apps'].flatMap((base) => [
  post(base),
  { method: 'PATCH', path: `/api/v1${base}/:app_uuid` } as const,
  { method: 'DELETE', path: `/api/v1${base}/:app_uuid` } as const,
  post(`${base}/:app_uuid/deployments`),
  post(`${base}/:app_uuid/redeploy`),
  post(`${base}/:app_uuid/rollback`),
  post(`${base}/:app_uuid/domains`),
  post(`${base}/:app_uuid/domains/:hostname/verify`),
  { method: 'DELETE', path: `/api/v1${base}/:app_uuid/domains/:hostname` } as const,
]);

export const BUDGETS: readonly Budget[] = [
  {
    action: 'container.power',
    routes: [post('/client/servers/:uuid/power')],
    count: 24,
    windowS: MINUTE,
    scope: 'target',
  },
  {
    action: 'container.wake',
    routes: [post('/client/servers/:uuid/wake')],
    count: 48,
    windowS: MINUTE,
    scope: 'target',
  },
  {
    action: 'container.backup',
    routes: [post('/client/servers/:uuid/backups')],
    count: 8,
    windowS: 5 * MINUTE,
    scope: 'target',
  },
  {
    action: 'container.backup_restore',
    routes: [post('/client/servers/:uuid/backups/:backup_uuid/restore')],
    count: 8,
    windowS: 5 * MINUTE,
    scope: 'target',
  },
  {
    action: 'container.file_compress',
    routes: [post('/client/servers/:uuid/files/compress'), post('/client/servers/:uuid/files/decompress')],
    count: 24,
    windowS: MINUTE,
    scope: 'target',
  },
  {
    action: 'container.file_pull',
    routes: [post('/client/servers/:uuid/files/pull')],
    count: 24,
    windowS: MINUTE,
    scope: 'target',
  },
  {
    action: 'container.import',
    routes: [
      post('/client/servers/:uuid/import/start'),
      post('/client/servers/:uuid/import/test-connection'),
    ],
    count: 12,
    windowS: 5 * MINUTE,
    scope: 'target',
  },
  { action: 'container.software', routes: SOFTWARE_ROUTES, count: 8, windowS: 10 * MINUTE, scope: 'target' },
  {
    action: 'container.database',
    routes: [post('/client/servers/:uuid/databases')],
    count: 24,
    windowS: MINUTE,
    scope: 'target',
  },
  {
    action: 'vps.power',
    routes: [post('/client/vps/:uuid/power')],
    count: 24,
    windowS: MINUTE,
    scope: 'target',
  },
  {
    action: 'vps.rebuild',
    routes: [post('/client/vps/:uuid/rebuild')],
    count: 8,
    windowS: 10 * MINUTE,
    scope: 'target',
  },
  {
    action: 'vps.backup',
    routes: [post('/client/vps/:uuid/backups')],
    count: 8,
    windowS: 5 * MINUTE,
    scope: 'target',
  },
  {
    action: 'vps.backup_restore',
    routes: [post('/client/vps/:uuid/backups/:backup_id/restore')],
    count: 8,
    windowS: 5 * MINUTE,
    scope: 'target',
  },
  {
    action: 'custom_domain.link',
    routes: [
      post('/client/external-servers/:service_id/custom-domain'),
      post('/gameproxy/routes/:route_id/custom-domain'),
    ],
    count: 12,
    windowS: HOUR,
    scope: 'target',
  },
  {
    action: 'custom_domain.verify',
    routes: [
      post('/client/external-servers/:service_id/custom-domain/verify'),
      post('/gameproxy/routes/:route_id/custom-domain/verify'),
    ],
    count: 12,
    windowS: HOUR,
    scope: 'target',
  },
  {
    action: 'external_server.update',
    routes: [{ method: 'PATCH', path: '/api/v1/client/external-servers/:service_id' }],
    count: 30,
    windowS: 5 * MINUTE,
    scope: 'target',
  },
  {
    action: 'external_server.probe',
    routes: [post('/client/external-servers/:service_id/test')],
    count: 20,
    windowS: MINUTE,
    scope: 'account',
  },
  {
    action: 'platform_domains.availability',
    routes: [{ method: 'GET', path: '/api/v1/client/platform-domains/availability' }],
    count: 60,
    windowS: MINUTE,
    scope: 'account',
  },
  {
    action: 'platform_domains.claim',
    routes: [post('/client/platform-domains/claims')],
    count: 6,
    windowS: HOUR,
    scope: 'account',
  },
  {
    action: 'crypto.deposit_check',
    routes: [post('/billing/crypto/check')],
    count: 12,
    windowS: MINUTE,
    scope: 'account',
  },
  // Counted only when the ordered price is zero: the services module charges it (BudgetEngine.charge).
  { action: 'storefront.free_order', routes: [], count: 12, windowS: 10 * MINUTE, scope: 'account' },
  {
    action: 'user.mfa_verify',
    routes: [
      post('/auth/mfa/verify'),
      post('/auth/mfa/enable'),
      post('/auth/mfa/disable'),
      post('/auth/mfa/recovery-codes'),
    ],
    count: 10,
    windowS: 5 * MINUTE,
    scope: 'account',
  },
  {
    action: 'apps.create',
    routes: [post('/client/apps'), post('/orgs/:org_slug/apps')],
    count: 20,
    windowS: HOUR,
    scope: 'owner',
    exhausted: 'App creation limit reached: 20 apps an hour. Please wait and try again.',
  },
  {
    action: 'apps.write',
    routes: APP_WRITE_ROUTES,
    count: 120,
    windowS: HOUR,
    scope: 'person_or_key',
    exhausted: 'App change limit reached: 120 changes an hour. Please wait and try again.',
  },
  {
    action: 'apps.deploy',
    routes: ['/client/apps', '/orgs/:org_slug/apps'].flatMap((b) => [
      post(`${b}/:app_uuid/deployments`),
      post(`${b}/:app_uuid/redeploy`),
      post(`${b}/:app_uuid/rollback`),
    ]),
    count: 30,
    windowS: 10 * MINUTE,
    scope: 'app',
    exhausted: 'Deployment limit reached for this app: 30 in 10 minutes. Please wait and try again.',
  },
  {
    action: 'apps.domain_verify',
    routes: ['/client/apps', '/orgs/:org_slug/apps'].map((b) =>
      post(`${b}/:app_uuid/domains/:hostname/verify`),
    ),
    count: 30,
    windowS: 10 * MINUTE,
    scope: 'app',
    exhausted: 'Domain verification limit reached for this app: 30 in 10 minutes. Please wait and try again.',
  },
];
