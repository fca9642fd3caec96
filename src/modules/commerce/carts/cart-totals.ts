import type { CommerceShippingOptionRow } from '../commerce-tables.ts';

/**
 * A cart's money, all in integer minor units of its currency: what the cart view shows and what
 * completion copies onto the order. Pure functions: the same cart always gives the same figures.
 */

/** What totals need of a line: its unit price and quantity. */
export interface PricedLine {
  readonly unit_price: number;
  readonly quantity: number;
}

/** The region's tax: a rate in percent (4 decimals at most) and whether prices include it. */
export interface CartTax {
  readonly ratePercent: number;
  readonly inclusive: boolean;
}

export interface CartTotals {
  /** Each line's unit price × quantity, in the order given. */
  readonly lineSubtotals: readonly number[];
  /** Each line's discount (promotions/promotion-discounts.ts), in the order given. */
  readonly lineDiscounts: readonly number[];
  /** Each line's tax, on what is left of it once discounted (an order item's `tax_minor`). */
  readonly lineTaxes: readonly number[];
  /** The lines' sum, at their prices (tax included when the region's prices include it). */
  readonly subtotal: number;
  /** The shipping methods' sum, at their prices (likewise). */
  readonly shippingTotal: number;
  /** The tax in the lines and methods: included in them, or added to them. */
  readonly taxTotal: number;
  readonly discountTotal: number;
  /** What the shopper pays: subtotal − discount + shipping (+ tax when prices exclude it). */
  readonly total: number;
}

/** Ten-thousandths of a percent: 19.5 % is 195000, so the rate is an exact integer. */
const RATE_SCALE = 1_000_000n;

/**
 * The tax in (`inclusive`) or on an amount, rounded half up to the minor unit. Each line and
 * each shipping method is taxed on its own, as an order keeps one tax amount per item.
 */
export function taxOf(amount: number, tax: CartTax): number {
  const rate = BigInt(Math.round(tax.ratePercent * 10_000));
  if (rate === 0n || amount === 0) return 0;
  const numerator = BigInt(amount) * rate;
  const denominator = tax.inclusive ? RATE_SCALE + rate : RATE_SCALE;
  return Number((numerator * 2n + denominator) / (denominator * 2n));
}

/**
 * `lineDiscounts` (none by default) come off their lines before tax: each line is taxed on what
 * is left of it once discounted.
 */
export function cartTotals(
  lines: readonly PricedLine[],
  shippingAmounts: readonly number[],
  tax: CartTax,
  lineDiscounts: readonly number[] = lines.map(() => 0),
): CartTotals {
  const lineSubtotals = lines.map((l) => l.unit_price * l.quantity);
  const subtotal = sum(lineSubtotals);
  const discountTotal = sum(lineDiscounts);
  const shippingTotal = sum(shippingAmounts);
  const lineTaxes = lineSubtotals.map((s, i) => taxOf(s - (lineDiscounts[i] ?? 0), tax));
  const taxTotal = sum(lineTaxes) + sum(shippingAmounts.map((a) => taxOf(a, tax)));
  const total = subtotal - discountTotal + shippingTotal + (tax.inclusive ? 0 : taxTotal);
  return { lineSubtotals, lineDiscounts, lineTaxes, subtotal, shippingTotal, taxTotal, discountTotal, total };
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** What offering a shipping option needs of a line: its profile, quantity and weight (grams). */
export interface ShippableLine extends PricedLine {
  readonly shipping_profile_id: number | null;
  readonly requires_shipping: boolean;
  readonly weight: number | null;
}

type OptionRule = Pick<
  CommerceShippingOptionRow,
  | 'shipping_profile_id'
  | 'price_type'
  | 'amount'
  | 'weight_rates'
  | 'min_subtotal'
  | 'max_subtotal'
  | 'is_return'
>;

/**
 * The price of an option for a cart, or null when the cart may not use it: a return option; no
 * line to ship in the option's profile; the cart's subtotal outside the option's bounds
 * (inclusive); by weight, a weight above every bracket. By weight weighs the lines of the
 * option's profile (what it carries), a line without weight counting 0 g.
 */
export function optionPrice(option: OptionRule, lines: readonly ShippableLine[]): number | null {
  if (option.is_return) return null;
  const carried = lines.filter(
    (l) => l.requires_shipping && l.shipping_profile_id === Number(option.shipping_profile_id),
  );
  if (carried.length === 0) return null;
  const subtotal = sum(lines.map((l) => l.unit_price * l.quantity));
  if (option.min_subtotal !== null && subtotal < Number(option.min_subtotal)) return null;
  if (option.max_subtotal !== null && subtotal > Number(option.max_subtotal)) return null;
  if (option.price_type === 'flat') return Number(option.amount ?? 0);
  const grams = sum(carried.map((l) => (l.weight ?? 0) * l.quantity));
  const bracket = option.weight_rates.find((w) => w.up_to_grams === null || grams <= w.up_to_grams);
  return bracket === undefined ? null : Number(bracket.amount);
}
