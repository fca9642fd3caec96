/**
 * The catalogue files of catalog/ as JSON schemas: each file says its `kind` and holds one part of
 * the catalogue, replaced as a whole by its import. Ids are the file's own and stay across imports
 * (services refer to products and prices by them). Money is a decimal string ("4.50"), never a
 * JSON number: prices are stored as numeric and never pass through a float.
 */
import { Type, type Static } from 'typebox';

const Id = Type.Integer({ minimum: 1 });
const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{0,62}$' });
const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });
const OptionalText = (max: number) => Type.Union([Type.String({ maxLength: max }), Type.Null()]);
const JsonObject = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]);
export const MONEY_PATTERN = '^(0|[1-9][0-9]{0,7})(\\.[0-9]{1,4})?$';
const Money = Type.String({ pattern: MONEY_PATTERN });
const LocationCode = Type.String({ pattern: '^[A-Z]{3}$' });

export const PRODUCT_STATUSES = ['active', 'hidden', 'retired'] as const;
export const BILLING_CYCLES = [
  'free',
  'hourly',
  'monthly',
  'quarterly',
  'semiannually',
  'annually',
  'one_time',
] as const;
export const FIELD_TYPES = ['text', 'number', 'select', 'boolean'] as const;
/** The product modules a product can belong to (the services registry's provisioners). */
export const PRODUCT_MODULES = [
  'dns_hosting',
  'smtp_relay',
  'vps',
  'container',
  'game_server',
  'object_storage',
] as const;
/** Modules whose products run on hosts: capacity and the availability route apply to them. */
export const CAPACITY_MODULES = ['vps', 'container'] as const;

const strict = { additionalProperties: false } as const;

export const HardwareTierEntry = Type.Object(
  { id: Id, slug: Slug, name: Text(100), code: Text(16), description: OptionalText(500) },
  strict,
);

export const PricingEntry = Type.Object(
  {
    id: Id,
    name: Text(100),
    billing_cycle: Type.Union(BILLING_CYCLES.map((c) => Type.Literal(c))),
    price: Money,
    setup_fee: Money,
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    is_active: Type.Boolean(),
    sort_order: Type.Integer(),
    metadata: JsonObject,
  },
  strict,
);

export const ConfigOptionEntry = Type.Object(
  {
    id: Id,
    field_name: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$' }),
    label: Text(100),
    field_type: Type.Union(FIELD_TYPES.map((t) => Type.Literal(t))),
    /** number: {min?, max?}; select: {values: [...]}; text: {pattern?, max_length?}; boolean: null. */
    options: JsonObject,
    default_value: Type.Union([Type.String({ maxLength: 500 }), Type.Null()]),
    required: Type.Boolean(),
    price_modifier: Money,
    sort_order: Type.Integer(),
  },
  strict,
);

export const ProductEntry = Type.Object(
  {
    id: Id,
    slug: Slug,
    name: Text(200),
    description: OptionalText(2000),
    group_name: OptionalText(100),
    module_name: Type.Union(PRODUCT_MODULES.map((m) => Type.Literal(m))),
    hardware_tier_id: Type.Union([Id, Type.Null()]),
    status: Type.Union(PRODUCT_STATUSES.map((s) => Type.Literal(s))),
    config_schema: JsonObject,
    sort_order: Type.Integer(),
    stock_limit: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    metadata: JsonObject,
    /** Location codes it is ordered at; empty: not bound to a location (DNS, mail). */
    locations: Type.Array(LocationCode),
    pricing: Type.Array(PricingEntry),
    config_options: Type.Array(ConfigOptionEntry),
  },
  strict,
);

export const ProductsFile = Type.Object(
  {
    kind: Type.Literal('products'),
    hardware_tiers: Type.Array(HardwareTierEntry),
    products: Type.Array(ProductEntry),
  },
  strict,
);

export const CapacityFile = Type.Object(
  {
    kind: Type.Literal('capacity'),
    capacity: Type.Array(
      Type.Object(
        {
          location: LocationCode,
          module: Type.Union(CAPACITY_MODULES.map((m) => Type.Literal(m))),
          hardware_tier_id: Id,
          free_memory_mb: Type.Integer({ minimum: 0 }),
          free_disk_mb: Type.Integer({ minimum: 0 }),
        },
        strict,
      ),
    ),
  },
  strict,
);

export const OsTemplatesFile = Type.Object(
  {
    kind: Type.Literal('os_templates'),
    os_templates: Type.Array(
      Type.Object(
        {
          id: Id,
          slug: Slug,
          name: Text(100),
          min_memory_mb: Type.Integer({ minimum: 0 }),
          min_disk_gb: Type.Integer({ minimum: 0 }),
          locations: Type.Union([Type.Array(LocationCode), Type.Null()]),
          /**
           * The Proxmox VE template VM instances of this template are cloned from: one vmid every
           * node holds, or a vmid per node name (a cluster's vmids are unique across its nodes).
           */
          pve_template_vmid: Type.Optional(
            Type.Union([
              Type.Integer({ minimum: 100, maximum: 999_999_999 }),
              Type.Record(
                Type.String({ pattern: '^[a-zA-Z0-9][a-zA-Z0-9.-]{0,62}$' }),
                Type.Integer({ minimum: 100, maximum: 999_999_999 }),
              ),
              Type.Null(),
            ]),
          ),
        },
        strict,
      ),
    ),
  },
  strict,
);

const Uuid = Type.String({ format: 'uuid' });
const NullableText = Type.Union([Type.String({ maxLength: 500 }), Type.Null()]);

export const SpecVersion = Type.Object(
  {
    version_id: Text(64),
    name: Text(100),
    release_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    supported: Type.Union([Type.Boolean(), Type.Null()]),
    required_java: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
    build_number: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    recommended_runtime_slug: Type.Union([Slug, Type.Null()]),
    game_versions: Type.Array(Text(64)),
    metadata: JsonObject,
  },
  strict,
);

export const ContainersFile = Type.Object(
  {
    kind: Type.Literal('containers'),
    runtimes: Type.Array(
      Type.Object(
        {
          uuid: Uuid,
          slug: Slug,
          name: Text(100),
          family: Text(32),
          docker_image: Text(200),
          description: NullableText,
        },
        strict,
      ),
    ),
    specializations: Type.Array(
      Type.Object(
        {
          uuid: Uuid,
          slug: Slug,
          name: Text(100),
          description: NullableText,
          runtime_template_slug: Type.Union([Slug, Type.Null()]),
          category: NullableText,
          version_variable: NullableText,
          version_source_slug: NullableText,
          software_identifier: NullableText,
          runtime_family: NullableText,
          icon_url: NullableText,
          color: NullableText,
          group: NullableText,
          org_id: Type.Union([Id, Type.Null()]),
          default_variables: JsonObject,
          metadata: JsonObject,
          versioned: Type.Boolean(),
          deprecated: Type.Boolean(),
          adapter_type: NullableText,
          versions: Type.Array(SpecVersion),
          defaults: Type.Record(Type.String(), Type.Unknown()),
          sort_order: Type.Integer(),
        },
        strict,
      ),
    ),
  },
  strict,
);

export type ProductsFileData = Static<typeof ProductsFile>;
export type CapacityFileData = Static<typeof CapacityFile>;
export type OsTemplatesFileData = Static<typeof OsTemplatesFile>;
export type ContainersFileData = Static<typeof ContainersFile>;
export type SpecVersionData = Static<typeof SpecVersion>;

/** A checked catalogue file of any kind. */
export type CatalogFile = ProductsFileData | CapacityFileData | OsTemplatesFileData | ContainersFileData;
export const CATALOG_FILE_SCHEMAS = {
  products: ProductsFile,
  capacity: CapacityFile,
  os_templates: OsTemplatesFile,
  containers: ContainersFile,
} as const;
export type CatalogFileKind = keyof typeof CATALOG_FILE_SCHEMAS;
