import type { ServiceEventRow, ServiceRow } from './services-tables.ts';

/**
 * A service as `/services/` answers it (fields not shown by the seed: this product's choice, after
 * DigitalOcean's and Stripe's resources: a readable `ref`, the product, price and place, status
 * with its reason, the ordered config).
 */
export interface ServiceView {
  id: number;
  service_id: number;
  /** `svc_<id>`: accepted wherever `{service_ref}` is. */
  ref: string;
  label: string;
  status: string;
  status_reason: string | null;
  product_id: number;
  product_name: string;
  module_name: string;
  resource_type: string;
  pricing_id: number;
  billing_cycle: string;
  price: number;
  currency: string;
  location_code: string | null;
  org_id: number | null;
  config: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  next_due_date: string | null;
  terminated_at: string | null;
}

export interface ServiceEventView {
  id: number;
  type: string;
  message: string;
  created_at: string;
}

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
    config: s.config,
    created_at: iso(s.created_at),
    updated_at: iso(s.updated_at),
    next_due_date: s.next_due_date === null ? null : iso(s.next_due_date),
    terminated_at: s.terminated_at === null ? null : iso(s.terminated_at),
  };
}

export function serviceEventView(e: ServiceEventRow): ServiceEventView {
  return { id: Number(e.id), type: e.type, message: e.message, created_at: iso(e.created_at) };
}
