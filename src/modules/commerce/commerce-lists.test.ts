import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../kernel/runtime/runtime.ts';
import { ORGS, createOrg } from '../../testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { CommerceListsRepository } from './lists/commerce-lists-repository.ts';
import type { CommerceTables } from './commerce-tables.ts';

describe('Commerce API lists: paging, order, filters', () => {
  let t: TestApp;
  let token: string;
  let orgId: number;
  let repo: CommerceListsRepository;
  const T0 = Date.UTC(2026, 5, 1, 12);
  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await t.signUp());
    orgId = (await createOrg(t, token, 'shop-lists')).id;
    await t.request('PATCH', `${ORGS}/shop-lists/settings`, { token, body: { commerce_enabled: true } });
    repo = new CommerceListsRepository(tablesOf<CommerceTables>(t.node.runtime));
    // 7 orders an hour apart; two share a placed time (ties broken by id, newest first).
    for (let i = 0; i < 7; i++) {
      await repo.insertOrder({
        org_id: orgId,
        order_number: `#10${i}`,
        email: i % 2 === 0 ? `even${i}@shop.example` : `odd${i}@shop.example`,
        customer_id: null,
        status: 'placed',
        currency: 'EUR',
        total: `${i}9.90`,
        placed_at: new Date(T0 + (i === 6 ? 5 : i) * 3600_000),
      });
    }
    for (let i = 0; i < 5; i++)
      await repo.insertEvent({ org_id: orgId, name: `commerce.thing.${i}`, data: { n: i } });
    for (let i = 0; i < 3; i++)
      await repo.insertPromotion({
        org_id: orgId,
        code: `SAVE${i}`,
        kind: 'percent',
        value: '10.00',
        status: 'active',
      });
    await repo.insertGiftCard({
      org_id: orgId,
      code_last4: 'AB12',
      balance: '25.00',
      currency: 'EUR',
      status: 'active',
    });
    for (let i = 0; i < 3; i++) {
      await repo.insertProduct({
        org_id: orgId,
        title: `P${i}`,
        handle: `p${i}`,
        status: 'published',
        updated_at: new Date(T0 - i * 1000),
      });
    }
  });
  afterAll(async () => t?.close());
  const get = (path: string) => t.request('GET', `${ORGS}/shop-lists/commerce/${path}`, { token });

  it('pages orders newest first with ties by id, counts them all, filters q and the placed range (upper end excluded)', async () => {
    const all = await get('orders');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ count: 7, limit: 50, offset: 0 });
    expect(all.body.orders.map((o: { order_number: string }) => o.order_number)).toEqual([
      '#106',
      '#105',
      '#104',
      '#103',
      '#102',
      '#101',
      '#100',
    ]);
    expect(all.body.orders[0]).toEqual({
      id: expect.any(Number),
      order_number: '#106',
      email: 'even6@shop.example',
      customer_id: null,
      status: 'placed',
      currency: 'EUR',
      total: '69.90',
      placed_at: new Date(T0 + 5 * 3600_000).toISOString(),
      created_at: expect.any(String),
    });
    const page = await get('orders?limit=2&offset=2');
    expect(page.body).toMatchObject({ count: 7, limit: 2, offset: 2 });
    expect(page.body.orders.map((o: { order_number: string }) => o.order_number)).toEqual(['#104', '#103']);
    expect(
      (await get('orders?q=ODD')).body.orders.map((o: { order_number: string }) => o.order_number),
    ).toEqual(['#105', '#103', '#101']);
    expect((await get('orders?q=%23102')).body.count).toBe(1);
    const from = new Date(T0 + 1 * 3600_000).toISOString();
    const to = new Date(T0 + 3 * 3600_000).toISOString();
    const ranged = await get(`orders?placed_from=${from}&placed_to=${to}`);
    expect(ranged.body.orders.map((o: { order_number: string }) => o.order_number)).toEqual(['#102', '#101']);
    expect(ranged.body.count).toBe(2);
    for (const q of ['limit=0', 'limit=201', 'offset=-1', 'placed_from=yesterday'])
      expect((await get(`orders?${q}`)).status, q).toBe(422);
    expect((await get('orders?limit=200')).status).toBe(200);
  });

  it('lists products most recently changed first', async () => {
    const res = await get('products');
    expect(res.body).toMatchObject({ count: 3, limit: 50, offset: 0 });
    expect(res.body.products.map((p: { title: string }) => p.title)).toEqual(['P0', 'P1', 'P2']);
  });

  it('pages events, promotions and gift cards by before_id, next_before_id null at the end', async () => {
    const first = await get('events?limit=2');
    expect(first.body.events.map((e: { name: string }) => e.name)).toEqual([
      'commerce.thing.4',
      'commerce.thing.3',
    ]);
    expect(first.body.events[0]).toEqual({
      id: expect.any(Number),
      name: 'commerce.thing.4',
      data: { n: 4 },
      created_at: expect.any(String),
    });
    const second = await get(`events?limit=2&before_id=${first.body.next_before_id}`);
    expect(second.body.events.map((e: { name: string }) => e.name)).toEqual([
      'commerce.thing.2',
      'commerce.thing.1',
    ]);
    const last = await get(`events?limit=2&before_id=${second.body.next_before_id}`);
    expect(last.body.events.map((e: { name: string }) => e.name)).toEqual(['commerce.thing.0']);
    expect(last.body.next_before_id).toBeNull();
    // A page that ends exactly at the last row says so too.
    const exact = await get('promotions?limit=3');
    expect(exact.body.promotions).toHaveLength(3);
    expect(exact.body.next_before_id).toBeNull();
    expect(exact.body.promotions[0]).toMatchObject({ code: 'SAVE2', value: '10.00' });
    const cards = await get('gift-cards');
    expect(cards.body).toEqual({
      gift_cards: [
        {
          id: expect.any(Number),
          code_last4: 'AB12',
          balance: '25.00',
          currency: 'EUR',
          status: 'active',
          created_at: expect.any(String),
        },
      ],
      next_before_id: null,
    });
    for (const q of ['limit=0', 'limit=201', 'before_id=0'])
      expect((await get(`events?${q}`)).status, q).toBe(422);
  });

  it('shows one organization’s rows only', async () => {
    await createOrg(t, token, 'shop-other');
    await t.request('PATCH', `${ORGS}/shop-other/settings`, { token, body: { commerce_enabled: true } });
    const other = await t.request('GET', `${ORGS}/shop-other/commerce/orders`, { token });
    expect(other.body).toEqual({ orders: [], count: 0, limit: 50, offset: 0 });
  });
});
