import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { CommerceContext } from '../commerce-context.ts';
import { shippingOptionNotFound, shippingProfileNotFound, stillInUse } from '../commerce-errors.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { minorUnits } from '../money/money-amounts.ts';
import { ShippingSetupRepository, type ShippingOptionFields } from './shipping-setup-repository.ts';
import {
  shippingOptionView,
  shippingProfileView,
  type ShippingOptionView,
  type ShippingProfileView,
} from './shipping-setup-view.ts';

export interface ShippingOptionInput {
  name: string;
  region_id: number;
  shipping_profile_id: number;
  price_type: 'flat' | 'weight';
  amount?: number | null;
  weight_rates?: { up_to_grams: number | null; amount: number }[];
  min_subtotal?: number | null;
  max_subtotal?: number | null;
  is_return?: boolean;
}

/**
 * Shipping profiles (which products ship together) and shipping options: per region, a flat price
 * or a price by the cart's weight, offered when the cart's subtotal meets the option's bounds;
 * `is_return` options are for returns. Amounts are in the region's currency.
 */
export class ShippingSetupService {
  private readonly repo: ShippingSetupRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
  ) {
    this.repo = new ShippingSetupRepository(ctx.db);
  }

  private now(): Date {
    return new Date(this.ctx.clock.now());
  }

  async profiles(orgId: number): Promise<ShippingProfileView[]> {
    return (await this.repo.profiles(orgId)).map(shippingProfileView);
  }

  async createProfile(orgId: number, input: { name: string; type?: string }): Promise<ShippingProfileView> {
    return this.log.change(orgId, async ({ trx }) => {
      const row = await this.repo
        .withTx(trx)
        .insertProfile(orgId, input.name, input.type ?? 'default', this.now());
      return {
        result: shippingProfileView(row),
        events: [['commerce.shipping_profile.created', { id: Number(row.id) }]],
      };
    });
  }

  async updateProfile(
    orgId: number,
    id: number,
    input: { name?: string; type?: string },
  ): Promise<ShippingProfileView> {
    return this.log.change(orgId, async ({ trx }) => {
      const row = await this.repo.withTx(trx).updateProfile(orgId, id, input, this.now());
      if (row === null) throw shippingProfileNotFound();
      return { result: shippingProfileView(row), events: [['commerce.shipping_profile.updated', { id }]] };
    });
  }

  /** Deletes a profile no shipping option uses (else 409); its products keep no profile. */
  async deleteProfile(orgId: number, id: number): Promise<{ id: number; deleted: boolean }> {
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      if ((await repo.profile(orgId, id)) === null) throw shippingProfileNotFound();
      if ((await repo.optionsOfProfile(id)) > 0) throw stillInUse('shipping profile', 'shipping options');
      await repo.deleteProfile(orgId, id);
      return { result: { id, deleted: true }, events: [['commerce.shipping_profile.deleted', { id }]] };
    });
  }

  async options(orgId: number, regionId: number | undefined): Promise<ShippingOptionView[]> {
    return (await this.repo.options(orgId, regionId)).map(shippingOptionView);
  }

  async createOption(orgId: number, input: ShippingOptionInput): Promise<ShippingOptionView> {
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      const currency = await repo.regionCurrency(orgId, input.region_id);
      if (currency === null) throw invalidField(['body', 'region_id'], 'Unknown region', input.region_id);
      if ((await repo.profile(orgId, input.shipping_profile_id)) === null)
        throw invalidField(
          ['body', 'shipping_profile_id'],
          'Unknown shipping profile',
          input.shipping_profile_id,
        );
      const fields = optionFields(input, currency);
      const id = await repo.insertOption(orgId, { ...fields, region_id: input.region_id }, this.now());
      return {
        result: shippingOptionView((await repo.option(orgId, id))!),
        events: [['commerce.shipping_option.created', { id, region_id: input.region_id }]],
      };
    });
  }

  async updateOption(
    orgId: number,
    id: number,
    input: Partial<Omit<ShippingOptionInput, 'region_id'>>,
  ): Promise<ShippingOptionView> {
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      const current = await repo.option(orgId, id);
      if (current === null) throw shippingOptionNotFound();
      if (
        input.shipping_profile_id !== undefined &&
        (await repo.profile(orgId, input.shipping_profile_id)) === null
      )
        throw invalidField(
          ['body', 'shipping_profile_id'],
          'Unknown shipping profile',
          input.shipping_profile_id,
        );
      const view = shippingOptionView(current);
      const merged: ShippingOptionInput = {
        name: view.name,
        region_id: view.region_id,
        shipping_profile_id: view.shipping_profile_id,
        price_type: view.price_type,
        amount: view.amount,
        weight_rates: view.weight_rates,
        min_subtotal: view.min_subtotal,
        max_subtotal: view.max_subtotal,
        is_return: view.is_return,
        ...input,
      };
      await repo.updateOption(id, optionFields(merged, current.currency_code), this.now());
      return {
        result: shippingOptionView((await repo.option(orgId, id))!),
        events: [['commerce.shipping_option.updated', { id }]],
      };
    });
  }

  async deleteOption(orgId: number, id: number): Promise<{ id: number; deleted: boolean }> {
    return this.log.change(orgId, async ({ trx }) => {
      if (!(await this.repo.withTx(trx).deleteOption(orgId, id))) throw shippingOptionNotFound();
      return { result: { id, deleted: true }, events: [['commerce.shipping_option.deleted', { id }]] };
    });
  }
}

/** An option's body checked (a flat price, or ascending weight brackets) and in minor units. */
function optionFields(input: ShippingOptionInput, currency: string): Omit<ShippingOptionFields, 'region_id'> {
  const minor = (v: number | null | undefined, field: string): number | null =>
    v === null || v === undefined ? null : minorUnits(v, currency, ['body', field]);
  let amount: number | null = null;
  let rates: { up_to_grams: number | null; amount: number }[] = [];
  if (input.price_type === 'flat') {
    amount = minor(input.amount, 'amount');
    if (amount === null)
      throw invalidField(['body', 'amount'], 'A flat option needs its amount', null, 'missing');
  } else {
    const given = input.weight_rates ?? [];
    if (given.length === 0)
      throw invalidField(
        ['body', 'weight_rates'],
        'An option by weight needs its brackets',
        given,
        'missing',
      );
    rates = given.map((w, i) => {
      const previous = i === 0 ? 0 : given[i - 1]!.up_to_grams;
      if (previous === null || (w.up_to_grams !== null && w.up_to_grams <= previous))
        throw invalidField(
          ['body', 'weight_rates', i, 'up_to_grams'],
          'Brackets go up by weight; only the last one may be open (null)',
          w.up_to_grams,
        );
      return {
        up_to_grams: w.up_to_grams,
        amount: minorUnits(w.amount, currency, ['body', 'weight_rates', i, 'amount']),
      };
    });
  }
  const min = minor(input.min_subtotal, 'min_subtotal');
  const max = minor(input.max_subtotal, 'max_subtotal');
  if (min !== null && max !== null && max < min)
    throw invalidField(['body', 'max_subtotal'], 'max_subtotal is below min_subtotal', input.max_subtotal);
  return {
    name: input.name,
    shipping_profile_id: input.shipping_profile_id,
    price_type: input.price_type,
    amount,
    weight_rates: rates,
    min_subtotal: min,
    max_subtotal: max,
    is_return: input.is_return ?? false,
  };
}
