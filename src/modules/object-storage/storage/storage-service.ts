/** Regions and storage services as the API answers them, with what the gateway says they store. */
import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import type { Location, LocationsDirectory } from '../../locations/index.ts';
import type { RegionGateway, StorageGateways } from '../gateway/storage-gateways.ts';
import type { ObjectStorageContext } from '../object-storage-context.ts';
import type { StorageAccess, StorageOf } from './storage-access.ts';
import type { StorageRepos } from './storage-repos.ts';
import { StorageStats } from './storage-stats.ts';
import {
  overageGb,
  storageServiceItemView,
  type RegionView,
  type StorageServiceItemView,
  type StorageServiceView,
} from './storage-view.ts';

/** A caller's services listed at once (the contract's list has no paging). */
const MAX_SERVICES = 500;

export class StorageService {
  readonly stats: StorageStats;

  constructor(
    private readonly ctx: ObjectStorageContext,
    private readonly access: StorageAccess,
    private readonly gateways: StorageGateways,
    private readonly locations: LocationsDirectory,
    private readonly repos: StorageRepos,
  ) {
    this.stats = new StorageStats(gateways, ctx.clock, ctx.log);
  }

  /** The configured regions (none while object storage is not configured). */
  async regions(): Promise<{ regions: RegionView[] }> {
    const places = await this.places();
    return { regions: this.gateways.all().map((r) => regionView(r, places.get(r.code))) };
  }

  async list(owner: OwnerScope): Promise<{ items: StorageServiceItemView[]; total: number }> {
    const of = await this.access.list(owner, MAX_SERVICES);
    const ids = of.map((o) => o.storage.service_id);
    const [buckets, keys, places] = await Promise.all([
      this.repos.buckets.countLive(ids),
      this.repos.keys.countActive(ids),
      this.places(),
    ]);
    const items = await Promise.all(
      of.map(async (o) =>
        storageServiceItemView(
          o.summary,
          o.storage,
          await this.stats.totals(o.storage.tenant),
          { buckets: buckets.get(o.storage.service_id) ?? 0, keys: keys.get(o.storage.service_id) ?? 0 },
          places.get(o.storage.region_code)?.id ?? null,
        ),
      ),
    );
    return { items, total: items.length };
  }

  async get(owner: OwnerScope, serviceId: number): Promise<StorageServiceView> {
    const o = await this.access.serviceFor(owner, serviceId, 'read');
    return this.view(o);
  }

  private async view({ summary, storage }: StorageOf): Promise<StorageServiceView> {
    const id = storage.service_id;
    const [buckets, keys, places, totals] = await Promise.all([
      this.repos.buckets.countLive([id]),
      this.repos.keys.countActive([id]),
      this.places(),
      this.stats.totals(storage.tenant),
    ]);
    const item = storageServiceItemView(
      summary,
      storage,
      totals,
      { buckets: buckets.get(id) ?? 0, keys: keys.get(id) ?? 0 },
      places.get(storage.region_code)?.id ?? null,
    );
    return {
      ...item,
      endpoints: this.gateways.all().map((r) => ({ region: r.code, endpoint: r.endpoint })),
      overage_gb: overageGb(totals.usedBytes, storage.quota_bytes),
      grace_days: storage.grace_days,
      max_buckets: storage.max_buckets,
      presign_max_seconds: storage.presign_max_seconds,
    };
  }

  private async places(): Promise<Map<string, Location>> {
    return new Map((await this.locations.listLocations(false)).map((l) => [l.code, l]));
  }
}

function regionView(r: RegionGateway, place: Location | undefined): RegionView {
  return {
    id: place?.id ?? 0,
    code: r.code,
    name: r.name ?? place?.name ?? r.code,
    country_code: r.countryCode ?? place?.country_code ?? null,
    endpoint: r.endpoint,
  };
}
