/** The services module's tables as Kysely sees them (migrations/*_services.sql). */

export type ServiceStatus =
  'pending' | 'provisioning' | 'active' | 'suspended' | 'pending_termination' | 'terminated' | 'failed';

export interface ServiceRow {
  id: number;
  user_id: number;
  org_id: number | null;
  /** The organization's storefront customer it is held for (org_id set), else null. */
  customer_id: number | null;
  product_id: number;
  /** The product's name when ordered. */
  product_name: string;
  pricing_id: number;
  /** The product module that provisions it (catalogue `module_name`). */
  module_name: string;
  /** The services list's `resource_type` word (service-resource-types.ts). */
  resource_type: string;
  label: string;
  status: ServiceStatus;
  /** Why it failed or was suspended. */
  status_reason: string | null;
  location_code: string | null;
  /** The ordered config, checked against the product's options. */
  config: Record<string, unknown>;
  billing_cycle: string;
  /** numeric, read as text: a decimal string. */
  price: string;
  currency: string;
  next_due_date: Date | null;
  /** When it first became active (hourly plans are billed in arrears from it). */
  activated_at: Date | null;
  terminated_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface ServiceEventRow {
  id: number;
  service_id: number;
  type: string;
  message: string;
  created_at: Date;
}

export interface ServicesTables {
  services: ServiceRow;
  services_events: ServiceEventRow;
}
