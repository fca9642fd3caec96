import { ORGS, createOrg } from './org-fixture.ts';
import type { TestApp, TestResponse } from './test-app.ts';

/** Every scope a shop's set-up needs (the Commerce API's writes). */
export const SHOP_SETUP_SCOPES = [
  'commerce.store:write',
  'commerce.catalog:write',
  'commerce.inventory:write',
  'commerce.orders:write',
] as const;

export interface Shop {
  readonly slug: string;
  readonly orgId: number;
  /** An organization key holding SHOP_SETUP_SCOPES (X-API-Key). */
  readonly orgKey: string;
  readonly salesChannelId: number;
  /** A `pk_test_` key of that channel (x-publishable-api-key). */
  readonly publishableKey: string;
  /** `/api/v1/orgs/<slug>/commerce/<path>` with the organization key; throws unless `status`. */
  admin<T = any>(method: string, path: string, body?: unknown, status?: number): Promise<T>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** `/api/v1/orgs/<slug>/store/<path>` with the publishable key (or `key`; null: none). */
  store(method: string, path: string, body?: unknown, key?: string | null): Promise<TestResponse<any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * An organization with Commerce on, an organization key with the set-up scopes, one sales channel
 * and a test-mode publishable key of it: the start of every shop test.
 */
export async function setUpShop(t: TestApp, ownerToken: string, slug: string): Promise<Shop> {
  const orgId = (await createOrg(t, ownerToken, slug)).id;
  const settings = await t.request('PATCH', `${ORGS}/${slug}/settings`, {
    token: ownerToken,
    body: { commerce_enabled: true },
  });
  if (settings.status !== 200) throw new Error(`commerce settings: ${settings.status} ${settings.text}`);
  const made = await t.request('POST', `${ORGS}/${slug}/api-keys`, {
    token: ownerToken,
    body: { label: 'shop set-up', permissions: { scopes: [...SHOP_SETUP_SCOPES] } },
  });
  if (made.status !== 201) throw new Error(`org key: ${made.status} ${made.text}`);
  const orgKey = made.body.raw_key as string;
  const admin = async (method: string, path: string, body?: unknown, status?: number) => {
    const res = await t.request(method, `${ORGS}/${slug}/commerce/${path}`, {
      headers: { 'x-api-key': orgKey },
      ...(body !== undefined ? { body } : {}),
    });
    const wanted = status ?? (method === 'POST' ? 201 : 200);
    if (res.status !== wanted) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const salesChannelId = (await admin('POST', 'sales-channels', { name: 'Web shop' })).id as number;
  const publishableKey = (
    await admin('POST', 'publishable-keys', { sales_channel_id: salesChannelId, mode: 'test' })
  ).key as string;
  const store = (method: string, path: string, body?: unknown, key: string | null = publishableKey) =>
    t.request(method, `${ORGS}/${slug}/store${path === '' ? '' : `/${path}`}`, {
      headers: key === null ? {} : { 'x-publishable-api-key': key },
      ...(body !== undefined ? { body } : {}),
    });
  return { slug, orgId, orgKey, salesChannelId, publishableKey, admin, store };
}
