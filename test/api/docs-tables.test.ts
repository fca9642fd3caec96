import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetTable, type BudgetRow } from '../../src/kernel/limits/budget.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';
import { generatedSections, interfaceRows, ROOT, section, tableCells } from '../../tools/docs-tables.ts';

/**
 * The per-action budgets of the API contract whose routes exist, as the contract gives them: the
 * budgets the routes declare must be these (a budget arriving with its route adds its row here).
 */
const CONTRACT_BUDGETS: Readonly<
  Record<string, { routes: string[]; count: number; windowS: number; scope: string }>
> = {
  // Storefront analytics: 10 hits a second per client address (docs/analytics.md).
  'analytics.ingest': { routes: ['POST /api/v1/t/:site_key'], count: 10, windowS: 1, scope: 'client_ip' },
  'container.power': {
    routes: ['POST /api/v1/client/servers/:uuid/power'],
    count: 24,
    windowS: 60,
    scope: 'target',
  },
  'container.software': {
    routes: [
      'DELETE /api/v1/client/servers/:uuid/software/:record_uuid',
      'POST /api/v1/client/servers/:uuid/software/:record_uuid/rollback',
      'POST /api/v1/client/servers/:uuid/software/:record_uuid/update',
      'POST /api/v1/client/servers/:uuid/software/install',
    ],
    count: 8,
    windowS: 600,
    scope: 'target',
  },
  'store.gift_card_address': {
    routes: ['POST /api/v1/orgs/:org_slug/store/carts/:cart_id/gift-cards'],
    count: 10,
    windowS: 600,
    scope: 'client_ip',
  },
  'store.gift_card_cart': {
    routes: ['POST /api/v1/orgs/:org_slug/store/carts/:cart_id/gift-cards'],
    count: 10,
    windowS: 600,
    scope: 'target',
  },
  'store.payment_address': {
    routes: [
      'POST /api/v1/orgs/:org_slug/store/carts/:cart_id/complete',
      'POST /api/v1/orgs/:org_slug/store/carts/:cart_id/payment-sessions',
    ],
    count: 60,
    windowS: 600,
    scope: 'client_ip',
  },
  'store.payment_cart': {
    routes: [
      'POST /api/v1/orgs/:org_slug/store/carts/:cart_id/complete',
      'POST /api/v1/orgs/:org_slug/store/carts/:cart_id/payment-sessions',
    ],
    count: 20,
    windowS: 600,
    scope: 'target',
  },
  'store.order_lookup': {
    routes: ['POST /api/v1/orgs/:org_slug/store/orders/lookup'],
    count: 10,
    windowS: 60,
    scope: 'client_ip',
  },
  'vps.power': {
    routes: ['POST /api/v1/orgs/:org_slug/vps/:uuid/power'],
    count: 24,
    windowS: 60,
    scope: 'target',
  },
  'vps.rebuild': {
    routes: ['POST /api/v1/orgs/:org_slug/vps/:uuid/rebuild'],
    count: 8,
    windowS: 600,
    scope: 'target',
  },
  'vps.backup': {
    routes: ['POST /api/v1/orgs/:org_slug/vps/:uuid/backups'],
    count: 8,
    windowS: 300,
    scope: 'target',
  },
  'vps.backup_restore': {
    routes: ['POST /api/v1/orgs/:org_slug/vps/:uuid/backups/:backup_id/restore'],
    count: 8,
    windowS: 300,
    scope: 'target',
  },
  'custom_domain.link': {
    routes: ['POST /api/v1/gameproxy/routes/:route_id/custom-domain'],
    count: 12,
    windowS: 3600,
    scope: 'target',
  },
  'custom_domain.verify': {
    routes: ['POST /api/v1/gameproxy/routes/:route_id/custom-domain/verify'],
    count: 12,
    windowS: 3600,
    scope: 'target',
  },
  'platform_domains.availability': {
    routes: ['GET /api/v1/client/platform-domains/availability'],
    count: 60,
    windowS: 60,
    scope: 'account',
  },
  'platform_domains.claim': {
    routes: ['POST /api/v1/client/platform-domains/claims'],
    count: 6,
    windowS: 3600,
    scope: 'account',
  },
  'storefront.free_order': {
    routes: ['POST /api/v1/orgs/:org_slug/portal/services/order', 'POST /api/v1/services/order'],
    count: 12,
    windowS: 600,
    scope: 'account',
  },
  'user.mfa_verify': {
    routes: [
      'POST /api/v1/auth/mfa/disable',
      'POST /api/v1/auth/mfa/enable',
      'POST /api/v1/auth/mfa/recovery-codes',
      'POST /api/v1/auth/mfa/verify',
    ],
    count: 10,
    windowS: 300,
    scope: 'account',
  },
};

describe('the tables of docs/ that the code holds (npm run docs:tables writes them)', () => {
  let t: TestApp;
  let budgets: BudgetRow[];
  beforeAll(async () => {
    t = await startTestApp({ env: { ROLE: 'api' } });
    budgets = budgetTable(t.node.routes);
  });
  afterAll(async () => t?.close());

  it('declares on its routes exactly the contract’s budgets of the routes that exist', () => {
    expect(
      Object.fromEntries(
        budgets.map(({ budget, routes }) => [
          budget.action,
          { routes, count: budget.count, windowS: budget.windowS, scope: budget.scope },
        ]),
      ),
    ).toEqual(CONTRACT_BUDGETS);
  });

  it('lists an interface of every module that has an interfaces file, the DNS module’s among them', () => {
    const rows = interfaceRows();
    expect(rows.some((r) => r.module === 'dns' && r.name === 'ManagedRecords')).toBe(true);
    expect(rows.find((r) => r.name === 'ZoneAccess')?.usedBy).toEqual(['load-balancing']);
    expect(rows.find((r) => r.name === 'DnsPublishing')?.usedBy).toEqual(['nodes/dns']);
    expect(
      rows.filter((r) => r.what === '').map((r) => `${r.module}: ${r.name}`),
      'interfaces without a doc comment',
    ).toEqual([]);
  });

  it('shows on each page the rows the code makes', () => {
    for (const { page, name, body } of generatedSections(budgets)) {
      const shown = section(readFileSync(path.join(ROOT, page), 'utf8'), name);
      expect(tableCells(shown), `${page} (${name}): run npm run docs:tables`).toEqual(tableCells(body));
    }
  });
});
