import type { Kysely, Transaction } from 'kysely';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { CommerceTables } from '../commerce-tables.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { majorUnits } from '../money/money-amounts.ts';
import { loadCartPromotionRules } from '../promotions/cart-promotion-rules.ts';
import { ShopRegionsRepository, type RegionWithCountries } from '../regions/shop-regions-repository.ts';
import { ShippingSetupRepository } from '../shipping/shipping-setup-repository.ts';
import { giftCardCover, type AppliedGiftCardsReader } from './cart-gift-card-cover.ts';
import { cartCompleted, cartNotFound, lineItemNotFound, storeWithoutRegion } from './cart-errors.ts';
import { CartPricing, type LineInput } from './cart-pricing.ts';
import type { CartTotals } from './cart-totals.ts';
import { cartView, totalsOf, type CartView, type LoadedCart, type OfferedOptionView } from './cart-view.ts';
import { CartsRepository, type CartPatch } from './carts-repository.ts';

/** Who is asking: the publishable key's organization, sales channel and mode. */
export interface CartScope {
  readonly orgId: number;
  readonly salesChannelId: number;
  readonly mode: 'test' | 'live';
}

type Address = Record<string, unknown>;
type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

export interface CreateCartInput {
  region_id?: number | null;
  country_code?: string | null;
  currency_code?: string | null;
  email?: string | null;
  sales_channel_id?: number | null;
  locale?: string | null;
  metadata?: Record<string, unknown>;
  items?: LineInput[];
}

export interface UpdateCartInput {
  email?: string | null;
  shipping_address?: Address | null;
  billing_address?: Address | null;
  region_id?: number;
  country_code?: string | null;
  note?: string | null;
  locale?: string | null;
  metadata?: Record<string, unknown>;
}

interface Change {
  readonly repo: CartsRepository;
  readonly trx: Transaction<CommerceTables>;
  readonly loaded: LoadedCart;
  readonly pricing: CartPricing;
}

/**
 * The Store API's carts (docs/commerce.md, "Carts"), and what completing one reuses: `load`,
 * `lock` (the cart row held FOR UPDATE in the caller's transaction, a completed cart refused),
 * `totals` and `markCompleted`. Every write locks the cart, checks it is the calling key's
 * (organization, sales channel, mode: else 404) and still open (else 409), changes it, keeps
 * its shipping methods in step and announces `commerce.cart.updated`, all in one transaction.
 */
export class CartsService {
  private readonly repo: CartsRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
    /** The gift cards applied to a cart (the gift cards feature's reader); none without it. */
    private readonly appliedGiftCards: AppliedGiftCardsReader = () => Promise.resolve([]),
  ) {
    this.repo = new CartsRepository(ctx.db);
  }

  private now(): Date {
    return new Date(this.ctx.clock.now());
  }

  /** The cart with its region, lines and methods, when it is the key's (else 404). */
  async load(scope: CartScope, cartId: number, trx?: Transaction<CommerceTables>): Promise<LoadedCart> {
    return this.read(trx ?? this.ctx.db, scope, cartId, false);
  }

  /** Whether the key's cart is still open (one query; another key's cart is 404). */
  async isOpen(scope: CartScope, cartId: number): Promise<boolean> {
    const cart = await this.repo.cart(scope.orgId, cartId);
    if (cart === null || Number(cart.sales_channel_id) !== scope.salesChannelId || cart.mode !== scope.mode)
      throw cartNotFound();
    return cart.completed_at === null;
  }

  /** As `load`, the cart row locked until `trx` ends; a completed cart answers 409. */
  async lock(trx: Transaction<CommerceTables>, scope: CartScope, cartId: number): Promise<LoadedCart> {
    const loaded = await this.read(trx, scope, cartId, true);
    if (loaded.cart.completed_at !== null) throw cartCompleted(cartId);
    return loaded;
  }

  /** The cart's money in minor units (cart-totals.ts). */
  totals(loaded: LoadedCart): CartTotals {
    return totalsOf(loaded);
  }

  async markCompleted(trx: Transaction<CommerceTables>, cartId: number): Promise<void> {
    await this.repo.withTx(trx).markCompleted(cartId, this.now());
  }

  private async read(db: Db, scope: CartScope, id: number, lock: boolean): Promise<LoadedCart> {
    const repo = new CartsRepository(db);
    const cart = await repo.cart(scope.orgId, id, lock);
    if (cart === null || Number(cart.sales_channel_id) !== scope.salesChannelId || cart.mode !== scope.mode)
      throw cartNotFound();
    // One query after another: a transaction runs on one connection.
    const region =
      cart.region_id === null
        ? null
        : await new ShopRegionsRepository(db).byId(scope.orgId, Number(cart.region_id));
    const lines = await repo.lines(id);
    const methods = await repo.methods(id);
    const promotions = await loadCartPromotionRules(db, cart, lines, this.now());
    const giftCards = await this.appliedGiftCards(db, id, cart.currency_code, this.now());
    return { cart, region, lines, methods, promotions, giftCards };
  }

  async get(scope: CartScope, cartId: number): Promise<CartView> {
    return cartView(await this.load(scope, cartId));
  }

  async create(scope: CartScope, input: CreateCartInput): Promise<CartView> {
    if (input.sales_channel_id !== undefined && input.sales_channel_id !== null)
      if (input.sales_channel_id !== scope.salesChannelId)
        throw invalidField(
          ['body', 'sales_channel_id'],
          'Not the sales channel of this key',
          input.sales_channel_id,
        );
    return this.log.change(scope.orgId, async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      const region = await this.pickRegion(uow.trx, scope.orgId, input);
      const country =
        upper(input.country_code) ?? (region.countries.length === 1 ? region.countries[0]! : null);
      const id = await repo.insertCart(
        {
          org_id: scope.orgId,
          sales_channel_id: scope.salesChannelId,
          mode: scope.mode,
          region_id: Number(region.id),
          currency_code: region.currency_code,
          email: input.email ?? null,
          shipping_address: null,
          billing_address: null,
          country_code: country,
          locale: input.locale ?? null,
          note: null,
          metadata: input.metadata ?? {},
        },
        this.now(),
      );
      const pricing = new CartPricing(repo, this.now());
      const cart = (await repo.cart(scope.orgId, id))!;
      for (const [i, item] of (input.items ?? []).entries())
        await pricing.addLine(cart, item, ['body', 'items', i]);
      const view = await this.settle(uow, scope, id, pricing);
      return { result: view, events: [['commerce.cart.created', { id, mode: scope.mode }]] };
    });
  }

  /**
   * The cart's region: `region_id`; else the region holding `country_code`; else the oldest
   * region of `currency_code`; else the shop's oldest. A country given must be in it, a currency
   * given must be its (422 naming the field).
   */
  private async pickRegion(
    trx: Transaction<CommerceTables>,
    orgId: number,
    input: CreateCartInput,
  ): Promise<RegionWithCountries> {
    const repo = this.repo.withTx(trx);
    const country = upper(input.country_code);
    const currency = upper(input.currency_code);
    let id = input.region_id ?? null;
    if (id === null && country !== null) {
      id = await repo.regionOfCountry(orgId, country);
      if (id === null)
        throw invalidField(
          ['body', 'country_code'],
          'No region of the store serves this country',
          input.country_code,
        );
    }
    if (id === null && currency !== null) {
      id = await repo.firstRegion(orgId, currency);
      if (id === null)
        throw invalidField(
          ['body', 'currency_code'],
          'No region of the store sells in this currency',
          input.currency_code,
        );
    }
    id ??= await repo.firstRegion(orgId, null);
    if (id === null) throw storeWithoutRegion();
    const region = await new ShopRegionsRepository(trx).byId(orgId, id);
    if (region === null) throw invalidField(['body', 'region_id'], 'Unknown region', input.region_id);
    if (country !== null && !region.countries.includes(country))
      throw invalidField(
        ['body', 'country_code'],
        'The country is not in the cart’s region',
        input.country_code,
      );
    if (currency !== null && currency !== region.currency_code)
      throw invalidField(
        ['body', 'currency_code'],
        `The region sells in ${region.currency_code}`,
        input.currency_code,
      );
    return region;
  }

  /** One write to an open cart of the key, in one transaction with its event; answers the cart. */
  private async write(
    scope: CartScope,
    cartId: number,
    work: (c: Change) => Promise<void>,
  ): Promise<CartView> {
    return this.log.change(scope.orgId, async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      const loaded = await this.lock(uow.trx, scope, cartId);
      const pricing = new CartPricing(repo, this.now());
      await work({ repo, trx: uow.trx, loaded, pricing });
      const view = await this.settle(uow, scope, cartId, pricing);
      return { result: view, events: [['commerce.cart.updated', { id: cartId, mode: scope.mode }]] };
    });
  }

  /** After a change: methods kept in step, the cart stamped, and read back. */
  private async settle(
    uow: UnitOfWork<CommerceTables>,
    scope: CartScope,
    cartId: number,
    pricing: CartPricing,
  ): Promise<CartView> {
    const shipping = new ShippingSetupRepository(uow.trx);
    await pricing.refreshMethods(await this.load(scope, cartId, uow.trx), shipping);
    await this.repo.withTx(uow.trx).updateCart(cartId, {}, this.now());
    return cartView(await this.load(scope, cartId, uow.trx));
  }

  async update(scope: CartScope, cartId: number, input: UpdateCartInput): Promise<CartView> {
    return this.write(scope, cartId, async ({ repo, trx, loaded, pricing }) => {
      const { region, country, regionChanged } = await this.placeOf(trx, scope.orgId, loaded, input);
      const patch: CartPatch = { country_code: country };
      if (region !== null && regionChanged) {
        patch.region_id = Number(region.id);
        patch.currency_code = region.currency_code;
      }
      const shipTo =
        input.shipping_address === undefined ? loaded.cart.shipping_address : input.shipping_address;
      if (input.shipping_address !== undefined) patch.shipping_address = input.shipping_address;
      // A region change drops an address its new region does not serve, as Medusa does.
      if (
        regionChanged &&
        shipTo !== null &&
        typeof shipTo.country_code === 'string' &&
        shipTo.country_code !== country
      )
        patch.shipping_address = null;
      for (const k of ['email', 'billing_address', 'note', 'locale', 'metadata'] as const)
        if (input[k] !== undefined) (patch as Record<string, unknown>)[k] = input[k];
      await repo.updateCart(cartId, patch, this.now());
      if (input.region_id !== undefined || input.country_code !== undefined)
        await pricing.reprice(cartId, region?.currency_code ?? loaded.cart.currency_code);
    });
  }

  /**
   * Where the cart sells after a PATCH: `region_id`, or the region of `country_code`, or the one
   * it had; the country given (or the shipping address's) must be in it (422 naming the field).
   * A region change without a country keeps the cart's country when the new region has it, else
   * takes the region's only country, else none.
   */
  private async placeOf(
    trx: Transaction<CommerceTables>,
    orgId: number,
    loaded: LoadedCart,
    input: UpdateCartInput,
  ): Promise<{ region: RegionWithCountries | null; country: string | null; regionChanged: boolean }> {
    const repo = this.repo.withTx(trx);
    const regions = new ShopRegionsRepository(trx);
    const addressCountry = upper(input.shipping_address?.country_code as string | undefined);
    const givenCountry = input.country_code === undefined ? addressCountry : upper(input.country_code);
    if (addressCountry !== null && givenCountry !== addressCountry)
      throw invalidField(
        ['body', 'shipping_address', 'country_code'],
        'Not the cart’s country_code',
        addressCountry,
      );
    const countryLoc =
      input.country_code === undefined
        ? ['body', 'shipping_address', 'country_code']
        : ['body', 'country_code'];
    let region = loaded.region;
    if (input.region_id !== undefined) {
      region = await regions.byId(orgId, input.region_id);
      if (region === null) throw invalidField(['body', 'region_id'], 'Unknown region', input.region_id);
    } else if (
      input.country_code !== undefined &&
      givenCountry !== null &&
      (region === null || !region.countries.includes(givenCountry))
    ) {
      // Only `country_code` moves the cart to another region; an address must fit the cart's.
      const id = await repo.regionOfCountry(orgId, givenCountry);
      if (id === null)
        throw invalidField(countryLoc, 'No region of the store serves this country', givenCountry);
      region = await regions.byId(orgId, id);
    }
    if (givenCountry !== null && (region === null || !region.countries.includes(givenCountry)))
      throw invalidField(countryLoc, 'The country is not in the cart’s region', givenCountry);
    const regionChanged = region !== null && Number(region.id) !== Number(loaded.cart.region_id);
    let country = input.country_code === null ? null : (givenCountry ?? loaded.cart.country_code);
    if (regionChanged && country !== null && !region!.countries.includes(country)) country = null;
    if (regionChanged && country === null && region!.countries.length === 1) country = region!.countries[0]!;
    return { region, country, regionChanged };
  }

  async addLine(scope: CartScope, cartId: number, input: LineInput): Promise<CartView> {
    return this.write(scope, cartId, async ({ loaded, pricing }) => {
      await pricing.addLine(loaded.cart, input, ['body']);
    });
  }

  /** Sets a line's quantity; 0 removes it. */
  async setLineQuantity(
    scope: CartScope,
    cartId: number,
    lineId: number,
    quantity: number,
  ): Promise<CartView> {
    return this.write(scope, cartId, async ({ repo, loaded, pricing }) => {
      const line = loaded.lines.find((l) => Number(l.id) === lineId);
      if (line === undefined) throw lineItemNotFound();
      if (quantity === 0) await repo.deleteLine(lineId);
      else await pricing.setQuantity(loaded.cart, line, quantity);
    });
  }

  async deleteLine(scope: CartScope, cartId: number, lineId: number): Promise<CartView> {
    return this.setLineQuantity(scope, cartId, lineId, 0);
  }

  /** The options the cart may use now, priced, each naming its shipping profile. */
  async shippingOptions(scope: CartScope, cartId: number): Promise<OfferedOptionView[]> {
    const loaded = await this.load(scope, cartId);
    const offered = await new CartPricing(this.repo, this.now()).offered(
      loaded,
      new ShippingSetupRepository(this.ctx.db),
    );
    const chosen = new Set(loaded.methods.map((m) => Number(m.shipping_option_id)));
    return offered.map(({ option, amount }) => ({
      id: Number(option.id),
      name: option.name,
      region_id: Number(option.region_id),
      shipping_profile_id: Number(option.shipping_profile_id),
      price_type: option.price_type,
      amount: majorUnits(amount, loaded.cart.currency_code),
      currency_code: loaded.cart.currency_code,
      is_selected: chosen.has(Number(option.id)),
    }));
  }

  /** Chooses an option the cart may use (else 422 naming `option_id`), replacing its profile's method. */
  async addShippingMethod(scope: CartScope, cartId: number, optionId: number): Promise<CartView> {
    return this.write(scope, cartId, async ({ repo, trx, loaded, pricing }) => {
      const offered = await pricing.offered(loaded, new ShippingSetupRepository(trx));
      const match = offered.find((o) => Number(o.option.id) === optionId);
      if (match === undefined)
        throw invalidField(['body', 'option_id'], 'Not a shipping option this cart may use', optionId);
      await repo.putMethod(
        {
          cart_id: cartId,
          shipping_option_id: optionId,
          shipping_profile_id: Number(match.option.shipping_profile_id),
          name: match.option.name,
          amount: match.amount,
        },
        this.now(),
      );
    });
  }

  /** What the shopper pays at a provider: the total less what the applied gift cards cover. */
  amountDue(loaded: LoadedCart): number {
    const total = totalsOf(loaded).total;
    return total - giftCardCover(loaded.giftCards, total).totalMinor;
  }

  /** The region's payment providers; no payment is needed when nothing is left to pay. */
  async paymentProviders(
    scope: CartScope,
    cartId: number,
  ): Promise<{ providers: { id: string }[]; payment_required: boolean }> {
    const loaded = await this.load(scope, cartId);
    const providers = (loaded.region?.payment_providers ?? []).map((id) => ({ id }));
    return { providers, payment_required: this.amountDue(loaded) > 0 };
  }
}

const upper = (code: string | null | undefined): string | null =>
  code === null || code === undefined ? null : code.trim().toUpperCase();
