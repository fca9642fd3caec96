import type { CommerceContext } from '../commerce-context.ts';
import { countryTaken, regionNotFound, stillInUse } from '../commerce-errors.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { currencyCodeOf } from '../money/money-amounts.ts';
import { regionView, type RegionView } from './shop-region-view.ts';
import { ShopRegionsRepository } from './shop-regions-repository.ts';

export interface RegionInput {
  name: string;
  currency_code: string;
  countries: string[];
  tax_rate?: number;
  tax_inclusive?: boolean;
  payment_providers?: string[];
}

/**
 * Regions (Medusa's): a currency, the countries it serves — each country in at most one region of
 * the shop, so a shopper's country picks one region — a tax rate and the payment providers offered.
 */
export class ShopRegionsService {
  private readonly repo: ShopRegionsRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
  ) {
    this.repo = new ShopRegionsRepository(ctx.db);
  }

  async list(orgId: number): Promise<RegionView[]> {
    return (await this.repo.list(orgId)).map(regionView);
  }

  async get(orgId: number, id: number): Promise<RegionView> {
    const row = await this.repo.byId(orgId, id);
    if (row === null) throw regionNotFound();
    return regionView(row);
  }

  async create(orgId: number, input: RegionInput): Promise<RegionView> {
    const currency = currencyCodeOf(input.currency_code, ['body', 'currency_code']);
    const countries = [...new Set(input.countries.map((c) => c.toUpperCase()))].sort();
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      const held = await repo.countriesHeldElsewhere(orgId, countries, null);
      if (held.length > 0) throw countryTaken(held[0]!);
      const row = await repo.insert(
        {
          org_id: orgId,
          name: input.name,
          currency_code: currency,
          tax_rate: round4(input.tax_rate ?? 0),
          tax_inclusive: input.tax_inclusive ?? false,
          payment_providers: input.payment_providers ?? ['manual'],
        },
        this.now(),
      );
      await repo.setCountries(orgId, Number(row.id), countries);
      const view = regionView((await repo.byId(orgId, Number(row.id)))!);
      return { result: view, events: [['commerce.region.created', { id: view.id }]] };
    });
  }

  async update(orgId: number, id: number, input: Partial<RegionInput>): Promise<RegionView> {
    const currency =
      input.currency_code === undefined
        ? undefined
        : currencyCodeOf(input.currency_code, ['body', 'currency_code']);
    const countries =
      input.countries === undefined
        ? undefined
        : [...new Set(input.countries.map((c) => c.toUpperCase()))].sort();
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      const before = await repo.byId(orgId, id);
      if (before === null) throw regionNotFound();
      // Shipping options keep minor units of the region's currency: another currency would misread them.
      if (
        currency !== undefined &&
        currency !== before.currency_code &&
        (await repo.shippingOptionCount(id)) > 0
      )
        throw stillInUse('region’s currency', 'shipping options priced in it');
      const found = await repo.update(
        orgId,
        id,
        {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(currency !== undefined ? { currency_code: currency } : {}),
          ...(input.tax_rate !== undefined ? { tax_rate: round4(input.tax_rate) } : {}),
          ...(input.tax_inclusive !== undefined ? { tax_inclusive: input.tax_inclusive } : {}),
          ...(input.payment_providers !== undefined ? { payment_providers: input.payment_providers } : {}),
        },
        this.now(),
      );
      if (!found) throw regionNotFound();
      if (countries !== undefined) {
        const held = await repo.countriesHeldElsewhere(orgId, countries, id);
        if (held.length > 0) throw countryTaken(held[0]!);
        await repo.setCountries(orgId, id, countries);
      }
      return {
        result: regionView((await repo.byId(orgId, id))!),
        events: [['commerce.region.updated', { id }]],
      };
    });
  }

  /** Deletes a region with its countries and its shipping options. */
  async delete(orgId: number, id: number): Promise<{ id: number; deleted: boolean }> {
    return this.log.change(orgId, async ({ trx }) => {
      if (!(await this.repo.withTx(trx).delete(orgId, id))) throw regionNotFound();
      return { result: { id, deleted: true }, events: [['commerce.region.deleted', { id }]] };
    });
  }

  private now(): Date {
    return new Date(this.ctx.clock.now());
  }
}

const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;
