/**
 * Whether a product can be ordered now, and where: from its stock (limit minus the services that
 * hold it), its prices, and for host products the free capacity of each location it is offered at.
 * Pure: the repository reads the rows, this decides.
 */
import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { Location } from '../../locations/index.ts';
import type { LocationCapacityRow, PricingRow, ProductRow } from '../catalog-tables.ts';

export type StockStatus = 'in_stock' | 'low_stock' | 'out_of_stock';

/** A PoP as the locations module gives it. */
export type PlaceInfo = Pick<Location, 'id' | 'code' | 'name' | 'country_code' | 'is_active'>;

/** A PoP the product is offered at, and whether it can be ordered there now (and why not). */
export type ProductLocationView = JsonView<Pick<Location, 'id' | 'code' | 'name' | 'country_code'>> & {
  available: boolean;
  orderable: boolean;
  reason: string | null;
};

export interface ProductAvailability {
  is_orderable_now: boolean;
  stock_status: StockStatus;
  availability_reason: string | null;
  locations: ProductLocationView[];
}

/** Low when at most a tenth of the limit (at least 1) is left. */
export function stockStatus(limit: number | null, used: number): StockStatus {
  if (limit === null) return 'in_stock';
  const left = limit - used;
  if (left <= 0) return 'out_of_stock';
  return left <= Math.max(1, Math.ceil(limit / 10)) ? 'low_stock' : 'in_stock';
}

/** Memory and disk (MB) a host product needs, from its metadata; null for other products. */
export function planSize(
  product: Pick<ProductRow, 'module_name' | 'metadata'>,
): { memoryMb: number; diskMb: number } | null {
  const m = product.metadata ?? {};
  if (product.module_name === 'vps')
    return { memoryMb: Number(m.memory_mb), diskMb: Number(m.disk_gb) * 1024 };
  if (product.module_name === 'container')
    return { memoryMb: Number(m.memory_mb), diskMb: Number(m.disk_mb) };
  return null;
}

/**
 * Why `place` cannot host `need` of `module` on `tierId` (null: any tier), or null when it can.
 * Reasons: location_inactive, tier_not_offered, insufficient_memory, insufficient_disk.
 */
export function capacityReason(
  place: Pick<PlaceInfo, 'code' | 'is_active'> | undefined,
  capacity: readonly LocationCapacityRow[],
  module: string,
  tierId: number | null,
  need: { memoryMb: number; diskMb: number },
): string | null {
  if (place === undefined || !place.is_active) return 'location_inactive';
  const rows = capacity.filter(
    (c) =>
      c.location_code === place.code &&
      c.module === module &&
      (tierId === null || Number(c.hardware_tier_id) === tierId),
  );
  if (rows.length === 0) return 'tier_not_offered';
  if (!rows.some((c) => Number(c.free_memory_mb) >= need.memoryMb)) return 'insufficient_memory';
  if (!rows.some((c) => Number(c.free_memory_mb) >= need.memoryMb && Number(c.free_disk_mb) >= need.diskMb))
    return 'insufficient_disk';
  return null;
}

export function productAvailability(
  product: ProductRow,
  pricing: readonly PricingRow[],
  locationCodes: readonly string[],
  places: ReadonlyMap<string, PlaceInfo>,
  capacity: readonly LocationCapacityRow[],
  /**
   * Why the module of the product's `module_name` cannot make its services now
   * (`not_provisioned_yet`: there is none; `not_configured`), else null.
   */
  provisionerReason: string | null,
): ProductAvailability {
  const stock = stockStatus(product.stock_limit, product.stock_used);
  const size = planSize(product);
  const locations = locationCodes.map((code): ProductLocationView => {
    const place = places.get(code);
    const reason =
      size !== null
        ? capacityReason(place, capacity, product.module_name, product.hardware_tier_id, size)
        : place === undefined || !place.is_active
          ? 'location_inactive'
          : null;
    return {
      id: place?.id ?? 0,
      code,
      name: place?.name ?? code,
      country_code: place?.country_code ?? '',
      available: reason === null,
      orderable: false,
      reason,
    };
  });
  let why: string | null = null;
  if (product.status === 'retired') why = 'retired';
  else if (!pricing.some((p) => p.is_active)) why = 'no_active_price';
  else if (stock === 'out_of_stock') why = 'out_of_stock';
  else if (locations.length > 0 && !locations.some((l) => l.available)) why = 'no_location_available';
  // Last: a reason above (stock, place) still says what else stands in the way.
  else if (provisionerReason !== null) why = provisionerReason;
  for (const l of locations) l.orderable = why === null && l.available;
  return { is_orderable_now: why === null, stock_status: stock, availability_reason: why, locations };
}

/** A group orders when any of its products does; its stock is its best product's. */
export function groupAvailability(members: readonly ProductAvailability[]): {
  group_is_orderable_now: boolean;
  group_stock_status: StockStatus;
} {
  const order: StockStatus[] = ['in_stock', 'low_stock', 'out_of_stock'];
  const best = members.reduce<StockStatus>(
    (acc, m) => (order.indexOf(m.stock_status) < order.indexOf(acc) ? m.stock_status : acc),
    'out_of_stock',
  );
  return { group_is_orderable_now: members.some((m) => m.is_orderable_now), group_stock_status: best };
}
