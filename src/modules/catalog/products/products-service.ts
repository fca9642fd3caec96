import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { Location, LocationsDirectory } from '../../locations/index.ts';
import { productNotFound } from '../catalog-errors.ts';
import {
  capacityReason,
  groupAvailability,
  productAvailability,
  type PlaceInfo,
  type ProductAvailability,
} from './product-availability.ts';
import { productView, type ProductView } from './product-view.ts';
import type { Registry } from '../../../kernel/module/registry.ts';
import type {
  CatalogOffers,
  Offer,
  OsTemplate,
  OsTemplates,
  ProductProvisioner,
} from '../catalog-interfaces.ts';
import type { ProductFilter, ProductRows, ProductsRepository } from './products-repository.ts';

/** `GET /locations/availability` item: a PoP, and whether a plan fits there. */
export type LocationAvailabilityView = JsonView<Pick<Location, 'id' | 'code' | 'name' | 'country_code'>> & {
  available: boolean;
  reason: string | null;
};

export interface AvailabilityQuery {
  readonly module: 'vps' | 'container';
  readonly hardwareTierId?: number;
  readonly templateId?: number;
  readonly memoryMb: number;
  readonly diskGb: number;
  readonly diskMb: number;
}

/** The catalogue's products with their availability, and where a plan size fits now. */
export class ProductsService implements CatalogOffers, OsTemplates {
  constructor(
    private readonly products: ProductsRepository,
    private readonly locations: LocationsDirectory,
    private readonly provisioners: Registry<ProductProvisioner>,
  ) {}

  async osTemplates(): Promise<OsTemplate[]> {
    return (await this.products.templates()).map((t) => ({
      id: Number(t.id),
      slug: t.slug,
      name: t.name,
      min_memory_mb: t.min_memory_mb,
      min_disk_gb: t.min_disk_gb,
      locations: t.location_codes,
      pve_template_vmid: t.pve_template_vmid,
    }));
  }

  async list(filter: ProductFilter, page: number, perPage: number): Promise<ProductView[]> {
    return this.views(await this.products.list(filter, page, perPage));
  }

  async get(productId: number): Promise<ProductView> {
    const rows = await this.products.find(productId);
    if (rows === null) throw productNotFound();
    return (await this.views(rows))[0]!;
  }

  async offer(productId: number, pricingId: number): Promise<Offer | null> {
    const rows = await this.products.find(productId);
    if (rows === null) return null;
    const view = (await this.views(rows))[0]!;
    const price = (rows.pricing.get(productId) ?? []).find((p) => Number(p.id) === pricingId);
    return {
      product: { id: view.id, name: view.name, module_name: view.module_name, metadata: view.metadata },
      pricing:
        price === undefined
          ? null
          : {
              id: Number(price.id),
              billing_cycle: price.billing_cycle,
              price: price.price,
              setup_fee: price.setup_fee,
              currency: price.currency,
              is_active: price.is_active,
            },
      options: view.config_options.map((o) => ({ ...o, price_modifier: String(o.price_modifier) })),
      unavailable: view.availability_reason,
      locations: view.locations,
    };
  }

  holdStock(productId: number, delta: 1 | -1): Promise<void> {
    return this.products.holdStock(productId, delta);
  }

  async availability(q: AvailabilityQuery): Promise<LocationAvailabilityView[]> {
    if (
      q.hardwareTierId !== undefined &&
      !(await this.products.tiers()).some((t) => Number(t.id) === q.hardwareTierId)
    )
      throw invalidField(['query', 'hardware_tier_id'], 'Unknown hardware tier', q.hardwareTierId);
    let memoryMb = q.memoryMb;
    let diskMb = q.module === 'vps' ? q.diskGb * 1024 : q.diskMb;
    let templateAt: readonly string[] | null = null;
    if (q.templateId !== undefined) {
      if (q.module !== 'vps')
        throw invalidField(['query', 'template_id'], 'OS templates are for module vps', q.templateId);
      const template = await this.products.template(q.templateId);
      if (template === null)
        throw invalidField(['query', 'template_id'], 'Unknown OS template', q.templateId);
      // A template needs at least its own minimum, whatever the plan asks.
      memoryMb = Math.max(memoryMb, template.min_memory_mb);
      diskMb = Math.max(diskMb, template.min_disk_gb * 1024);
      templateAt = template.location_codes;
    }
    const [places, capacity] = await Promise.all([
      this.locations.listLocations(false),
      this.products.capacity(q.module),
    ]);
    return places.map((place) => {
      const reason =
        templateAt !== null && place.is_active && !templateAt.includes(place.code)
          ? 'template_not_offered'
          : capacityReason(place, capacity, q.module, q.hardwareTierId ?? null, { memoryMb, diskMb });
      return {
        id: Number(place.id),
        code: place.code,
        name: place.name,
        country_code: place.country_code,
        available: reason === null,
        reason,
      };
    });
  }

  private async views(rows: ProductRows): Promise<ProductView[]> {
    const places = await this.placesByCode();
    const order = [...places.keys()];
    // Read per answer, never kept: the registry is filled while the modules are made.
    const provisioners = new Map(this.provisioners.all().map((p) => [p.module, p]));
    const provisionerReason = (module: string): string | null => {
      const p = provisioners.get(module);
      return p === undefined ? 'not_provisioned_yet' : (p.unavailableReason?.() ?? null);
    };
    const availabilityOf = new Map<number, ProductAvailability>();
    const availability = (id: number): ProductAvailability => {
      let a = availabilityOf.get(id);
      if (a === undefined) {
        const p = [...rows.products, ...[...rows.groups.values()].flat()].find((x) => Number(x.id) === id)!;
        const codes = [...(rows.locations.get(id) ?? [])].sort((x, y) => order.indexOf(x) - order.indexOf(y));
        a = productAvailability(
          p,
          rows.pricing.get(id) ?? [],
          codes,
          places,
          rows.capacity,
          provisionerReason(p.module_name),
        );
        availabilityOf.set(id, a);
      }
      return a;
    };
    return rows.products.map((p) => {
      const id = Number(p.id);
      const group = p.group_name === null ? null : (rows.groups.get(p.group_name) ?? []);
      return productView(
        p,
        p.hardware_tier_id === null ? null : (rows.tiers.get(Number(p.hardware_tier_id)) ?? null),
        rows.pricing.get(id) ?? [],
        rows.options.get(id) ?? [],
        availability(id),
        group === null ? null : groupAvailability(group.map((g) => availability(Number(g.id)))),
      );
    });
  }

  private async placesByCode(): Promise<Map<string, PlaceInfo>> {
    const rows = await this.locations.listLocations(false);
    return new Map(
      rows.map((l) => [
        l.code,
        {
          id: Number(l.id),
          code: l.code,
          name: l.name,
          country_code: l.country_code,
          is_active: l.is_active,
        },
      ]),
    );
  }
}
