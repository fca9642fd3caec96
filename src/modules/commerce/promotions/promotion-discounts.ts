/**
 * A cart's discounts from its promotions, in integer minor units of its currency: pure functions,
 * so the cart view, the payment session and completion always agree. Promotions apply in id
 * order, each to what earlier ones left of a line; no line is ever discounted below 0.
 */

/** What a discount needs of a promotion (read from commerce_promotions). */
export interface DiscountRule {
  readonly id: number;
  readonly code: string;
  /** `fixed`, or a percentage (the list's older rows say `percent`). */
  readonly kind: string;
  /** The percent for a percentage promotion (10.5 is 10.5 %). */
  readonly percent: number;
  /** A fixed promotion's amount per currency (upper case), minor units. */
  readonly amounts: Readonly<Record<string, number>>;
  readonly appliesTo: 'order' | 'items';
  readonly productIds: readonly number[];
  readonly collectionIds: readonly number[];
  /** The least cart subtotal per currency, minor units; a currency not named has none. */
  readonly minSubtotals: Readonly<Record<string, number>>;
  readonly isAutomatic: boolean;
}

/** What a discount needs of a cart line. */
export interface DiscountLine {
  readonly unit_price: number;
  readonly quantity: number;
  readonly product_id: number | null;
  readonly collection_id: number | null;
}

export interface AppliedPromotion {
  readonly id: number;
  readonly code: string;
  readonly isAutomatic: boolean;
  /** Whether its conditions hold for the cart now (currency, minimum subtotal). */
  readonly applies: boolean;
  /** The discount it gave, minor units (0 when it does not apply or nothing was left). */
  readonly amount: number;
}

export interface CartDiscounts {
  /** Per line, in the order given. */
  readonly lineDiscounts: readonly number[];
  /** Every promotion given, in id order, with its discount (0 when it does not apply). */
  readonly applied: readonly AppliedPromotion[];
}

/** Why a promotion does not apply to a cart now (beyond its window and usage, checked elsewhere). */
export type RuleRefusal =
  { readonly why: 'currency' } | { readonly why: 'min_subtotal'; readonly minimum: number };

export const NO_DISCOUNTS = (lines: number): CartDiscounts => ({
  lineDiscounts: new Array<number>(lines).fill(0),
  applied: [],
});

/** Whether `rule` may apply to a cart of `currency` with this subtotal. */
export function refusalOf(rule: DiscountRule, currency: string, subtotal: number): RuleRefusal | null {
  if (rule.kind === 'fixed' && rule.amounts[currency] === undefined) return { why: 'currency' };
  const minimum = rule.minSubtotals[currency];
  if (minimum !== undefined && subtotal < minimum) return { why: 'min_subtotal', minimum };
  return null;
}

export function cartDiscounts(
  rules: readonly DiscountRule[],
  lines: readonly DiscountLine[],
  currency: string,
): CartDiscounts {
  const subtotals = lines.map((l) => l.unit_price * l.quantity);
  const subtotal = subtotals.reduce((a, b) => a + b, 0);
  const left = [...subtotals];
  const applied: AppliedPromotion[] = [];
  for (const rule of [...rules].sort((a, b) => a.id - b.id)) {
    const head = { id: rule.id, code: rule.code, isAutomatic: rule.isAutomatic };
    if (refusalOf(rule, currency, subtotal) !== null) {
      applied.push({ ...head, applies: false, amount: 0 });
      continue;
    }
    const targets = lines.flatMap((l, i) => (targeted(rule, l) ? [i] : []));
    const taken =
      rule.kind === 'fixed'
        ? spread(Math.min(rule.amounts[currency]!, sumAt(left, targets)), targets, left)
        : targets.map((i) => percentOf(left[i]!, rule.percent));
    targets.forEach((i, k) => (left[i] = left[i]! - taken[k]!));
    applied.push({ ...head, applies: true, amount: sum(taken) });
  }
  return { lineDiscounts: subtotals.map((s, i) => s - left[i]!), applied };
}

/** An order promotion takes every line; an item promotion its products' and collections' lines. */
function targeted(rule: DiscountRule, line: DiscountLine): boolean {
  if (rule.appliesTo === 'order') return true;
  return (
    (line.product_id !== null && rule.productIds.includes(line.product_id)) ||
    (line.collection_id !== null && rule.collectionIds.includes(line.collection_id))
  );
}

/** `percent` of an amount, rounded half up to the minor unit (percent has at most 2 decimals). */
function percentOf(amount: number, percent: number): number {
  const hundredths = BigInt(Math.round(percent * 100));
  const share = (BigInt(amount) * hundredths * 2n + 10_000n) / 20_000n;
  return Math.min(amount, Number(share));
}

/**
 * A fixed amount shared among the target lines in proportion to what is left of each (largest
 * remainder, ties to the earlier line), so the shares add up to the amount exactly.
 */
function spread(amount: number, targets: readonly number[], left: readonly number[]): number[] {
  const base = sumAt(left, targets);
  if (base === 0 || amount === 0) return targets.map(() => 0);
  const exact = targets.map((i) => (BigInt(amount) * BigInt(left[i]!)) / BigInt(base));
  const shares = exact.map(Number);
  const rest = targets.map((i) => (BigInt(amount) * BigInt(left[i]!)) % BigInt(base));
  let missing = amount - sum(shares);
  const order = targets
    .map((_, k) => k)
    .sort((a, b) => (rest[b]! > rest[a]! ? 1 : rest[b]! < rest[a]! ? -1 : a - b));
  for (const k of order) {
    if (missing === 0) break;
    shares[k] = shares[k]! + 1;
    missing--;
  }
  return shares;
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const sumAt = (xs: readonly number[], at: readonly number[]): number => sum(at.map((i) => xs[i]!));
