import { sql } from 'kysely';
import { expect } from 'vitest';
import { tablesOf } from '../kernel/runtime/runtime.ts';
import type { TestApp } from './test-app.ts';

export const ORGS = '/api/v1/orgs';
export const PASSWORD = 'correct horse battery';

/** Creates an organization through the API (the caller becomes its owner). */
export async function createOrg(t: TestApp, token: string, slug: string, name = `Org ${slug}`) {
  const res = await t.request('POST', ORGS, { token, body: { slug, name } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; slug: string };
}

/** Adds an existing main-site user to an organization with `role`. */
export async function addMember(
  t: TestApp,
  token: string,
  slug: string,
  email: string,
  role: 'admin' | 'member',
) {
  const res = await t.request('POST', `${ORGS}/${slug}/members`, { token, body: { email, role } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; user_id: number; role: string };
}

/** Registers a storefront customer of `slug` and signs them in. */
export async function storefrontCustomer(t: TestApp, slug: string, email: string) {
  const reg = await t.request('POST', `${ORGS}/${slug}/auth/register`, {
    body: { email, password: PASSWORD },
  });
  expect(reg.status, reg.text).toBe(201);
  const login = await t.request('POST', `${ORGS}/${slug}/auth/login`, {
    body: { email, password: PASSWORD },
  });
  expect(login.status, login.text).toBe(200);
  return {
    id: reg.body.id as number,
    token: login.body.access_token as string,
    refreshToken: login.body.refresh_token as string,
  };
}

/** Signs a member in to the staff console of `slug` (main-site credentials, no second factor). */
export async function staffLogin(t: TestApp, slug: string, email: string, password = PASSWORD) {
  const login = await t.request('POST', `${ORGS}/${slug}/staff/auth/login`, { body: { email, password } });
  expect(login.status, login.text).toBe(200);
  return { token: login.body.access_token as string, refreshToken: login.body.refresh_token as string };
}

/**
 * Gives a storefront customer of organization `orgId` credit (EUR, minor units) at `at`: no route
 * grants credit, so a `credit_add` ledger row is written as a top-up would write it.
 */
export async function grantCustomerCredit(
  t: TestApp,
  who: { readonly ownerId: number; readonly orgId: number; readonly customerId: number },
  minor: number,
  at: Date,
): Promise<void> {
  await sql`INSERT INTO billing_transactions (user_id, org_id, customer_id, type, amount_minor,
      credit_delta_minor, currency, balance_after_minor, gateway, created_at)
    VALUES (${who.ownerId}, ${who.orgId}, ${who.customerId}, 'credit_add', ${minor}, ${minor}, 'EUR',
      ${minor}, 'manual', ${at})`.execute(tablesOf(t.node.runtime));
}
