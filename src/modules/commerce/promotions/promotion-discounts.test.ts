import { describe, expect, it } from 'vitest';
import { cartDiscounts, refusalOf, type DiscountRule } from './promotion-discounts.ts';

const rule = (over: Partial<DiscountRule>): DiscountRule => ({
  id: 1,
  code: 'X',
  kind: 'percentage',
  percent: 10,
  amounts: {},
  appliesTo: 'order',
  productIds: [],
  collectionIds: [],
  minSubtotals: {},
  isAutomatic: false,
  ...over,
});
const line = (unit_price: number, quantity = 1, product_id: number | null = null, collection_id = null) => ({
  unit_price,
  quantity,
  product_id,
  collection_id,
});

describe('promotion discounts (minor units)', () => {
  it('rounds a percentage half up per line and never below 0', () => {
    const d = cartDiscounts([rule({ percent: 12.5 })], [line(333), line(5)], 'EUR');
    expect(d.lineDiscounts).toEqual([42, 1]); // 41.625 → 42, 0.625 → 1
    expect(cartDiscounts([rule({ percent: 100 })], [line(999, 3)], 'EUR').lineDiscounts).toEqual([2997]);
  });

  it('shares a fixed amount by what is left of each line, adding up exactly, capped at the lines', () => {
    const fixed = rule({ kind: 'fixed', amounts: { EUR: 100 } });
    expect(cartDiscounts([fixed], [line(1), line(1), line(1)], 'EUR').lineDiscounts).toEqual([1, 1, 1]);
    expect(cartDiscounts([fixed], [line(100), line(100), line(100)], 'EUR').lineDiscounts).toEqual([
      34, 33, 33,
    ]);
    expect(cartDiscounts([fixed], [line(250), line(50)], 'JPY').applied[0]).toMatchObject({
      applies: false,
      amount: 0,
    });
  });

  it('applies promotions in id order, each to what the earlier ones left', () => {
    const d = cartDiscounts(
      [rule({ id: 2, percent: 50 }), rule({ id: 1, kind: 'fixed', amounts: { EUR: 200 } })],
      [line(1000)],
      'EUR',
    );
    expect(d.applied.map((a) => [a.id, a.amount])).toEqual([
      [1, 200],
      [2, 400],
    ]);
    expect(d.lineDiscounts).toEqual([600]);
  });

  it('targets items by product or collection, and checks currency and minimum subtotal', () => {
    const items = rule({ appliesTo: 'items', productIds: [7], collectionIds: [3], percent: 10 });
    const d = cartDiscounts(
      [items],
      [line(1000, 1, 7), { ...line(500, 1, 8), collection_id: 3 }, line(800, 1, 9)],
      'EUR',
    );
    expect(d.lineDiscounts).toEqual([100, 50, 0]);
    expect(refusalOf(rule({ minSubtotals: { EUR: 5000 } }), 'EUR', 4999)).toEqual({
      why: 'min_subtotal',
      minimum: 5000,
    });
    expect(refusalOf(rule({ minSubtotals: { EUR: 5000 } }), 'USD', 10)).toBeNull();
    expect(refusalOf(rule({ kind: 'fixed', amounts: { EUR: 1 } }), 'USD', 10)).toEqual({ why: 'currency' });
  });
});
