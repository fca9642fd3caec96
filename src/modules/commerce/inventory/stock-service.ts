import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { CommerceContext } from '../commerce-context.ts';
import { belowReserved, stillInUse, stockLocationNotFound } from '../commerce-errors.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { StockRepository } from './stock-repository.ts';
import {
  inventoryLevelView,
  stockLocationView,
  type InventoryLevelView,
  type StockLocationView,
} from './stock-view.ts';

type Address = Record<string, string>;

/**
 * Stock locations (each serving some sales channels: a channel sells the stock of its locations)
 * and inventory levels per SKU and location, set absolutely, one or many at a time.
 */
export class StockService {
  private readonly repo: StockRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
  ) {
    this.repo = new StockRepository(ctx.db);
  }

  private now(): Date {
    return new Date(this.ctx.clock.now());
  }

  async locations(orgId: number): Promise<StockLocationView[]> {
    return (await this.repo.locations(orgId)).map(stockLocationView);
  }

  async createLocation(
    orgId: number,
    input: { name: string; address?: Address; sales_channel_ids?: number[] },
  ): Promise<StockLocationView> {
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      await this.checkChannels(repo, orgId, input.sales_channel_ids ?? []);
      const id = await repo.insertLocation(orgId, input.name, normalized(input.address ?? {}), this.now());
      await repo.setChannels(id, input.sales_channel_ids ?? []);
      return {
        result: stockLocationView((await repo.location(orgId, id))!),
        events: [['commerce.stock_location.created', { id }]],
      };
    });
  }

  async updateLocation(
    orgId: number,
    id: number,
    input: { name?: string; address?: Address; sales_channel_ids?: number[] },
  ): Promise<StockLocationView> {
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      const patch = {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.address !== undefined ? { address: normalized(input.address) } : {}),
      };
      if (!(await repo.updateLocation(orgId, id, patch, this.now()))) throw stockLocationNotFound();
      if (input.sales_channel_ids !== undefined) {
        await this.checkChannels(repo, orgId, input.sales_channel_ids);
        await repo.setChannels(id, input.sales_channel_ids);
      }
      return {
        result: stockLocationView((await repo.location(orgId, id))!),
        events: [['commerce.stock_location.updated', { id }]],
      };
    });
  }

  /** Deletes a location and its levels, unless some of its stock is reserved (409). */
  async deleteLocation(orgId: number, id: number): Promise<{ id: number; deleted: boolean }> {
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      if ((await repo.location(orgId, id)) === null) throw stockLocationNotFound();
      if ((await repo.reservedAt(id)) > 0) throw stillInUse('stock location', 'reserved stock');
      await repo.deleteLocation(orgId, id);
      return { result: { id, deleted: true }, events: [['commerce.stock_location.deleted', { id }]] };
    });
  }

  async levels(
    orgId: number,
    filter: { sku?: string; stockLocationId?: number },
    limit: number,
    offset: number,
  ): Promise<{ levels: InventoryLevelView[]; count: number }> {
    const page = await this.repo.levels(orgId, filter, limit, offset);
    return { levels: page.rows.map(inventoryLevelView), count: page.count };
  }

  /**
   * Sets the stocked quantity of each (SKU, location) given, all or none, in one transaction with
   * one `commerce.inventory.updated` event. A SKU no variant carries, or a location of no shop
   * here, answers 422 naming the entry; a quantity below what is reserved answers 409.
   */
  async batch(
    orgId: number,
    levels: readonly { sku: string; stock_location_id: number; stocked_quantity: number }[],
  ): Promise<{ levels: InventoryLevelView[] }> {
    const seen = new Set<string>();
    levels.forEach((l, i) => {
      const key = `${l.sku}\u0000${l.stock_location_id}`;
      if (seen.has(key))
        throw invalidField(['body', 'levels', i], 'The same SKU and location twice in one batch', l);
      seen.add(key);
    });
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      const skus = await repo.knownSkus(orgId, [...new Set(levels.map((l) => l.sku))]);
      const locations = await repo.locationIds(orgId, [...new Set(levels.map((l) => l.stock_location_id))]);
      levels.forEach((l, i) => {
        if (!skus.has(l.sku))
          throw invalidField(['body', 'levels', i, 'sku'], 'No variant has this SKU', l.sku);
        if (!locations.has(l.stock_location_id))
          throw invalidField(
            ['body', 'levels', i, 'stock_location_id'],
            'Unknown stock location',
            l.stock_location_id,
          );
      });
      const at = this.now();
      const out: InventoryLevelView[] = [];
      for (const l of levels) {
        const current = await repo.levelForUpdate(orgId, l.sku, l.stock_location_id);
        if (current !== null && l.stocked_quantity < Number(current.reserved_quantity))
          throw belowReserved(l.sku);
        out.push(
          inventoryLevelView(
            await repo.setStocked(orgId, l.sku, l.stock_location_id, l.stocked_quantity, at),
          ),
        );
      }
      return {
        result: { levels: out },
        events: [
          [
            'commerce.inventory.updated',
            {
              levels: out.map((l) => ({
                sku: l.sku,
                stock_location_id: l.stock_location_id,
                stocked_quantity: l.stocked_quantity,
              })),
            },
          ],
        ],
      };
    });
  }

  private async checkChannels(repo: StockRepository, orgId: number, ids: readonly number[]): Promise<void> {
    const found = await repo.channelIds(orgId, ids);
    const missing = ids.findIndex((id) => !found.has(id));
    if (missing >= 0)
      throw invalidField(['body', 'sales_channel_ids', missing], 'Unknown sales channel', ids[missing]);
  }
}

function normalized(address: Address): Address {
  return address.country_code === undefined
    ? address
    : { ...address, country_code: address.country_code.toUpperCase() };
}
