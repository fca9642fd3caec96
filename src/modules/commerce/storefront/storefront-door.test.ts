import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORGS } from '../../../testing/org-fixture.ts';
import { setUpShop, type Shop } from '../../../testing/shop-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

describe('Store API door: the publishable key (x-publishable-api-key)', () => {
  let t: TestApp;
  let owner: string;
  let shop: Shop;
  let other: Shop;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token: owner } = await t.signUp());
    shop = await setUpShop(t, owner, 'door-a');
    other = await setUpShop(t, owner, 'door-b');
  });
  afterAll(async () => t?.close());

  it('answers the store with the key’s sales channel and mode', async () => {
    await shop.admin('PATCH', 'store', { name: 'Door shop', support_email: 'help@door.example' });
    const res = await shop.store('GET', '');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      name: 'Door shop',
      default_currency_code: 'EUR',
      support_email: 'help@door.example',
      sales_channel_id: shop.salesChannelId,
      mode: 'test',
    });
  });

  it('refuses no key, a malformed or unknown key (401), and another shop’s key (404)', async () => {
    expect((await shop.store('GET', '', undefined, null)).status).toBe(401);
    expect((await shop.store('GET', '', undefined, 'pk_test_short')).status).toBe(401);
    const forged = shop.publishableKey.slice(0, -4) + 'AAAA';
    expect((await shop.store('GET', '', undefined, forged)).status).toBe(401);
    expect((await shop.store('GET', '', undefined, other.publishableKey)).status).toBe(404);
    // Neither an owner's token nor an organization key opens the Store API.
    const asOwner = await t.request('GET', `${ORGS}/door-a/store`, { token: owner });
    expect(asOwner.status).toBe(401);
    const asOrgKey = await t.request('GET', `${ORGS}/door-a/store`, {
      headers: { 'x-api-key': shop.orgKey },
    });
    expect(asOrgKey.status).toBe(401);
  });

  it('refuses a revoked key at once, and every key while Commerce is off (404)', async () => {
    const made = await shop.admin('POST', 'publishable-keys', {
      sales_channel_id: shop.salesChannelId,
      mode: 'live',
    });
    expect((await shop.store('GET', '', undefined, made.key)).body.mode).toBe('live');
    await shop.admin('POST', `publishable-keys/${made.id}/revoke`, undefined, 200);
    expect((await shop.store('GET', '', undefined, made.key)).status).toBe(401);
    await t.request('PATCH', `${ORGS}/door-b/settings`, { token: owner, body: { commerce_enabled: false } });
    const off = await other.store('GET', '');
    expect(off.status).toBe(404);
    expect(off.body.detail).toBe('Commerce is not enabled for this organization.');
  });
});
