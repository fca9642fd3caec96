import type { JsonView } from '../../kernel/http/view-schemas.ts';
import type { ServiceEventRow, ServiceRow } from './services-tables.ts';

/**
 * A service as `/services/` answers it (its fields are this product's choice, after
 * DigitalOcean's and Stripe's resources: a readable `ref`, the product, price and place, status
 * with its reason, the ordered config): its row without the owning account, the price a number.
 */
export type ServiceView = JsonView<Omit<ServiceRow, 'user_id' | 'price'>> & {
  service_id: number;
  /** `svc_<id>`: accepted wherever `{service_ref}` is. */
  ref: string;
  price: number;
};

export type ServiceEventView = JsonView<Omit<ServiceEventRow, 'service_id'>>;

const iso = (d: Date | string): string => new Date(d).toISOString();

export function serviceView(s: ServiceRow): ServiceView {
  return {
    id: Number(s.id),
    service_id: Number(s.id),
    ref: `svc_${s.id}`,
    label: s.label,
    status: s.status,
    status_reason: s.status_reason,
    product_id: Number(s.product_id),
    product_name: s.product_name,
    module_name: s.module_name,
    resource_type: s.resource_type,
    pricing_id: Number(s.pricing_id),
    billing_cycle: s.billing_cycle,
    price: Number(s.price),
    currency: s.currency,
    location_code: s.location_code,
    org_id: s.org_id === null ? null : Number(s.org_id),
    customer_id: s.customer_id === null ? null : Number(s.customer_id),
    config: s.config,
    created_at: iso(s.created_at),
    updated_at: iso(s.updated_at),
    next_due_date: s.next_due_date === null ? null : iso(s.next_due_date),
    activated_at: s.activated_at === null ? null : iso(s.activated_at),
    terminated_at: s.terminated_at === null ? null : iso(s.terminated_at),
  };
}

export function serviceEventView(e: ServiceEventRow): ServiceEventView {
  return { id: Number(e.id), type: e.type, message: e.message, created_at: iso(e.created_at) };
}
