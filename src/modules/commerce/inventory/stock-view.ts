import { Type } from 'typebox';
import { describes, type JsonView } from '../../../kernel/http/view-schemas.ts';
import type { CommerceInventoryLevelRow, CommerceStockLocationRow } from '../commerce-tables.ts';
import type { StockLocationWithChannels } from './stock-repository.ts';

const iso = (d: Date): string => new Date(d).toISOString();

export type StockLocationView = JsonView<Omit<CommerceStockLocationRow, 'org_id'>> & {
  sales_channel_ids: number[];
};
/** A level with what can still be sold there: stocked − reserved. */
export type InventoryLevelView = JsonView<Omit<CommerceInventoryLevelRow, 'org_id'>> & {
  available_quantity: number;
};

export function stockLocationView(r: StockLocationWithChannels): StockLocationView {
  return {
    id: Number(r.id),
    name: r.name,
    address: r.address,
    sales_channel_ids: r.sales_channel_ids,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

export function inventoryLevelView(r: CommerceInventoryLevelRow): InventoryLevelView {
  return {
    sku: r.sku,
    stock_location_id: Number(r.stock_location_id),
    stocked_quantity: Number(r.stocked_quantity),
    reserved_quantity: Number(r.reserved_quantity),
    available_quantity: Number(r.stocked_quantity) - Number(r.reserved_quantity),
    updated_at: iso(r.updated_at),
  };
}

export const StockLocationResponse = describes<StockLocationView>()(
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    address: Type.Record(Type.String(), Type.String()),
    sales_channel_ids: Type.Array(Type.Integer()),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
);

export const InventoryLevelResponse = describes<InventoryLevelView>()(
  Type.Object({
    sku: Type.String(),
    stock_location_id: Type.Integer(),
    stocked_quantity: Type.Integer(),
    reserved_quantity: Type.Integer({ description: 'held by placed orders not shipped yet' }),
    available_quantity: Type.Integer(),
    updated_at: Type.String(),
  }),
);
