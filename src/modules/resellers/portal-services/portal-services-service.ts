import type { Clock } from '../../../kernel/clock.ts';
import type {
  CustomerOrder,
  CustomerServices,
  CustomerServiceView,
  OrderedService,
  PortalCustomer,
} from '../../services/index.ts';
import { orgServiceNotFound } from '../resellers-errors.ts';

/** How long an `eventual` read may answer an earlier read of the same query. */
export const EVENTUAL_TTL_MS = 5_000;
/** Beyond this many kept answers the oldest go: the cache stays small whatever the traffic. */
const CACHE_ENTRIES_MAX = 1_000;

export interface PortalListQuery {
  readonly page: number;
  readonly per_page: number;
  readonly status?: string;
  readonly consistency: 'strong' | 'eventual';
}

/**
 * An organization's portal over the services it holds for its storefront customers: orders and
 * reads through the services registry, each scoped to the signed-in customer. Lists read with
 * `consistency=eventual` may come from this process's short per-customer cache, so a busy portal
 * page does not reach the database on every refresh.
 */
export class PortalServicesService {
  private readonly kept = new Map<string, { readonly at: number; readonly rows: CustomerServiceView[] }>();

  constructor(
    private readonly services: CustomerServices,
    private readonly clock: Clock,
  ) {}

  order(customer: PortalCustomer, order: CustomerOrder): Promise<OrderedService> {
    return this.services.orderForCustomer(customer, order);
  }

  async list(customer: PortalCustomer, q: PortalListQuery): Promise<CustomerServiceView[]> {
    const key = JSON.stringify([customer.orgId, customer.customerId, q.status ?? null, q.page, q.per_page]);
    const now = this.clock.now();
    const hit = this.kept.get(key);
    if (q.consistency === 'eventual' && hit !== undefined && now - hit.at < EVENTUAL_TTL_MS) return hit.rows;
    const rows = await this.services.customerServices(customer, {
      ...(q.status !== undefined ? { status: q.status } : {}),
      limit: q.per_page,
      offset: (q.page - 1) * q.per_page,
    });
    this.keep(key, now, rows);
    return rows;
  }

  async get(customer: PortalCustomer, serviceId: number): Promise<CustomerServiceView> {
    const service = await this.services.customerService(customer, serviceId);
    if (service === null) throw orgServiceNotFound();
    return service;
  }

  private keep(key: string, at: number, rows: CustomerServiceView[]): void {
    this.kept.delete(key);
    this.kept.set(key, { at, rows });
    // A Map iterates in insertion order: the first entries are the oldest.
    for (const old of this.kept.keys()) {
      if (this.kept.size <= CACHE_ENTRIES_MAX) break;
      this.kept.delete(old);
    }
  }
}
