/**
 * The catalogue module's tables as Kysely sees them (migrations/*_catalog.sql): hardware tiers,
 * products with prices and config options, where products are offered, per-location capacity, VPS
 * OS templates, container runtimes and specializations. Ids are the catalogue files' own.
 */

export interface HardwareTierRow {
  id: number;
  slug: string;
  name: string;
  code: string;
  description: string | null;
}

export interface ProductRow {
  id: number;
  slug: string;
  name: string;
  description: string | null;
  group_name: string | null;
  module_name: string;
  hardware_tier_id: number | null;
  /** `active` (listed, orderable), `hidden` (orderable by its id only), `retired` (gone: 404). */
  status: string;
  config_schema: Record<string, unknown> | null;
  sort_order: number;
  stock_limit: number | null;
  /** Services holding the product (kept by the services registry). */
  stock_used: number;
  metadata: Record<string, unknown> | null;
  created_at: Date;
}

export interface PricingRow {
  id: number;
  product_id: number;
  name: string;
  billing_cycle: string;
  /** numeric: a decimal string as the driver reads it, never a float. */
  price: string;
  setup_fee: string;
  currency: string;
  is_active: boolean;
  sort_order: number;
  metadata: Record<string, unknown> | null;
  created_at: Date;
}

export interface ConfigOptionRow {
  id: number;
  product_id: number;
  field_name: string;
  label: string;
  field_type: string;
  options: Record<string, unknown> | null;
  default_value: string | null;
  required: boolean;
  price_modifier: string;
  sort_order: number;
}

export interface ProductLocationRow {
  product_id: number;
  location_code: string;
}

export interface LocationCapacityRow {
  location_code: string;
  module: string;
  hardware_tier_id: number;
  free_memory_mb: number;
  free_disk_mb: number;
}

export interface OsTemplateRow {
  id: number;
  slug: string;
  name: string;
  min_memory_mb: number;
  min_disk_gb: number;
  /** Location codes it is offered at; null: everywhere. */
  location_codes: string[] | null;
  /** The PVE template VM: one vmid on every node, or a vmid per node name (JSON); null: none. */
  pve_template_vmid: number | Record<string, number> | null;
}

export interface RuntimeRow {
  uuid: string;
  slug: string;
  name: string;
  family: string;
  docker_image: string;
  description: string | null;
}

export interface SpecializationRow {
  uuid: string;
  slug: string;
  name: string;
  description: string | null;
  runtime_template_slug: string | null;
  category: string | null;
  version_variable: string | null;
  version_source_slug: string | null;
  software_identifier: string | null;
  runtime_family: string | null;
  icon_url: string | null;
  color: string | null;
  group: string | null;
  org_id: number | null;
  default_variables: Record<string, unknown> | null;
  metadata: Record<string, unknown> | null;
  versioned: boolean;
  deprecated: boolean;
  adapter_type: string | null;
  /** The versions of the catalogue file, newest first (catalog-file-schemas.ts: SpecVersion). */
  versions: unknown[];
  defaults: Record<string, unknown>;
  sort_order: number;
}

export interface CatalogTables {
  catalog_hardware_tiers: HardwareTierRow;
  catalog_products: ProductRow;
  catalog_pricing: PricingRow;
  catalog_config_options: ConfigOptionRow;
  catalog_product_locations: ProductLocationRow;
  catalog_location_capacity: LocationCapacityRow;
  catalog_os_templates: OsTemplateRow;
  catalog_runtimes: RuntimeRow;
  catalog_specializations: SpecializationRow;
}
