import { isDeepStrictEqual } from 'node:util';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { CommerceCartRow } from '../commerce-tables.ts';
import type {
  ShippingOptionWithCurrency,
  ShippingSetupRepository,
} from '../shipping/shipping-setup-repository.ts';
import { insufficientInventory, variantNotPriced, variantUnavailable } from './cart-errors.ts';
import { optionPrice } from './cart-totals.ts';
import type { LoadedCart } from './cart-view.ts';
import type { CartLineRow, CartsRepository, SellableVariant } from './carts-repository.ts';

type Loc = readonly (string | number)[];

export interface LineInput {
  variant_id: number;
  quantity?: number;
  metadata?: Record<string, unknown>;
}

/** An option the cart may use, with its price for the cart (minor units). */
export interface OfferedOption {
  readonly option: ShippingOptionWithCurrency;
  readonly amount: number;
}

/**
 * What changing a cart's lines involves, inside the change's transaction: the variant sold here
 * (published, in the key's channel, priced in the cart's currency), merging into the same
 * variant's line with equal metadata, stock, re-pricing, and the shipping methods kept in step.
 */
export class CartPricing {
  constructor(
    private readonly repo: CartsRepository,
    private readonly now: Date,
  ) {}

  /** A variant the cart can sell, or the reason it cannot (422 unknown, 409 otherwise). */
  async sellable(cart: CommerceCartRow, variantId: number, loc: Loc): Promise<SellableVariant> {
    const v = await this.repo.sellableVariant(
      Number(cart.org_id),
      variantId,
      Number(cart.sales_channel_id),
      cart.currency_code,
    );
    if (v === null) throw invalidField(loc, 'Unknown variant', variantId);
    if (v.product_status !== 'published') throw variantUnavailable(variantId, 'its product is not published');
    if (!v.in_channel) throw variantUnavailable(variantId, 'its product is not sold in this sales channel');
    if (v.price === null) throw variantNotPriced(variantId, cart.currency_code);
    return v;
  }

  /** Adds a line, or adds to the same variant's line with deep-equal metadata; answers its id. */
  async addLine(cart: CommerceCartRow, input: LineInput, loc: Loc): Promise<number> {
    const variant = await this.sellable(cart, input.variant_id, [...loc, 'variant_id']);
    const quantity = input.quantity ?? 1;
    const metadata = input.metadata ?? {};
    const lines = await this.repo.lines(Number(cart.id));
    const same = lines.find(
      (l) => Number(l.variant_id) === input.variant_id && isDeepStrictEqual(l.metadata, metadata),
    );
    await this.checkStock(cart, variant, lines, quantity);
    const price = Number(variant.price);
    if (same !== undefined) {
      await this.repo.updateLine(
        Number(same.id),
        { quantity: same.quantity + quantity, unit_price: price },
        this.now,
      );
      return Number(same.id);
    }
    return this.repo.insertLine(
      {
        cart_id: Number(cart.id),
        variant_id: input.variant_id,
        product_id: Number(variant.product_id),
        title: variant.product_title,
        variant_title: variant.title,
        sku: variant.sku,
        quantity,
        unit_price: price,
        metadata,
        shipping_profile_id:
          variant.shipping_profile_id === null ? null : Number(variant.shipping_profile_id),
        requires_shipping: variant.shipping_profile_id !== null,
      },
      this.now,
    );
  }

  /** Sets a line's quantity; more of the variant is checked against stock, less never is. */
  async setQuantity(cart: CommerceCartRow, line: CartLineRow, quantity: number): Promise<void> {
    if (quantity > line.quantity && line.variant_id !== null) {
      const variant = await this.sellable(cart, Number(line.variant_id), ['body', 'quantity']);
      const lines = await this.repo.lines(Number(cart.id));
      await this.checkStock(cart, variant, lines, quantity - line.quantity);
    }
    await this.repo.updateLine(Number(line.id), { quantity }, this.now);
  }

  /**
   * A variant that manages its inventory and takes no backorders needs the cart's whole
   * quantity of it (every line of it, plus `adding`) available in the stock locations serving
   * the cart's sales channel; a variant without SKU has no stock.
   */
  private async checkStock(
    cart: CommerceCartRow,
    variant: SellableVariant,
    lines: readonly CartLineRow[],
    adding: number,
  ): Promise<void> {
    if (!variant.manage_inventory || variant.allow_backorder) return;
    const wanted =
      adding +
      lines.filter((l) => Number(l.variant_id) === Number(variant.id)).reduce((n, l) => n + l.quantity, 0);
    const available =
      variant.sku === null
        ? 0
        : await this.repo.available(Number(cart.org_id), Number(cart.sales_channel_id), variant.sku);
    if (wanted > available) throw insufficientInventory(Number(variant.id), Math.max(available, 0));
  }

  /** Prices every line anew in `currency`; a variant without a price there answers 409 naming it. */
  async reprice(cartId: number, currency: string): Promise<void> {
    const lines = await this.repo.lines(cartId);
    const prices = await this.repo.prices(
      lines.filter((l) => l.variant_id !== null).map((l) => Number(l.variant_id)),
      currency,
    );
    for (const line of lines) {
      if (line.variant_id === null) continue;
      const price = prices.get(Number(line.variant_id));
      if (price === undefined) throw variantNotPriced(Number(line.variant_id), currency);
      if (price !== Number(line.unit_price))
        await this.repo.updateLine(Number(line.id), { unit_price: price }, this.now);
    }
  }

  /** The options of the cart's region it may use now, priced (cart-totals.ts, optionPrice). */
  async offered(loaded: LoadedCart, shipping: ShippingSetupRepository): Promise<OfferedOption[]> {
    if (loaded.region === null) return [];
    const options = await shipping.options(Number(loaded.cart.org_id), Number(loaded.region.id));
    const lines = loaded.lines.map((l) => ({
      unit_price: Number(l.unit_price),
      quantity: l.quantity,
      shipping_profile_id: l.shipping_profile_id === null ? null : Number(l.shipping_profile_id),
      requires_shipping: l.requires_shipping,
      weight: l.weight,
    }));
    const out: OfferedOption[] = [];
    for (const option of options) {
      const amount = optionPrice(option, lines);
      if (amount !== null) out.push({ option, amount });
    }
    return out;
  }

  /**
   * Keeps the chosen shipping methods in step with the cart after a change: a method whose option
   * the cart may no longer use (another region, the subtotal out of bounds, nothing left to ship
   * in its profile, the option deleted) goes; the others take their price for the cart now.
   */
  async refreshMethods(loaded: LoadedCart, shipping: ShippingSetupRepository): Promise<void> {
    if (loaded.methods.length === 0) return;
    const offered = await this.offered(loaded, shipping);
    for (const method of loaded.methods) {
      const match = offered.find((o) => Number(o.option.id) === Number(method.shipping_option_id));
      if (match === undefined) await this.repo.deleteMethod(Number(method.id));
      else if (match.amount !== Number(method.amount))
        await this.repo.setMethodAmount(Number(method.id), match.amount);
    }
  }
}
