/**
 * What the services registry reads of the catalogue when a service is ordered (its interface to
 * this module): the product, the chosen price, the config options and where it can be ordered
 * now — and the stock it then holds.
 */
import type { ProductLocationView } from './products/product-availability.ts';

/** A config option of an offer, checked against what an order sends. */
export interface OfferOption {
  readonly field_name: string;
  readonly label: string;
  readonly field_type: string;
  readonly options: Record<string, unknown> | null;
  readonly default_value: string | null;
  readonly required: boolean;
  /** What the option adds to each period's price, a decimal string ("0.90"; "0" for none). */
  readonly price_modifier: string;
}

/** A product as it can be ordered now: the chosen price, its options and locations. */
export interface Offer {
  readonly product: {
    readonly id: number;
    readonly name: string;
    readonly module_name: string;
    readonly metadata: Record<string, unknown> | null;
  };
  /** The price asked for, when it is one of the product's; null otherwise. */
  readonly pricing: {
    readonly id: number;
    readonly billing_cycle: string;
    /** Decimal strings: compared as such, never through a float. */
    readonly price: string;
    readonly setup_fee: string;
    readonly currency: string;
    readonly is_active: boolean;
  } | null;
  readonly options: readonly OfferOption[];
  /** Why it cannot be ordered now (the product's `availability_reason`), or null. */
  readonly unavailable: string | null;
  readonly locations: readonly ProductLocationView[];
}

/**
 * A module that makes the services of the catalogue's products of its `module_name` (the services
 * registry's provisioners, passed through a registry). A product whose module has none is not
 * orderable now: `availability_reason` `not_provisioned_yet`, as the order's 409 says.
 */
export interface ProductProvisioner {
  readonly module: string;
  /**
   * Why its products cannot be ordered now although it exists (`not_configured`: object storage
   * without a gateway), else null; absent: always orderable.
   */
  unavailableReason?(): string | null;
}

/** The catalogue as the services registry orders from it: offers, and the stock they hold. */
export interface CatalogOffers {
  /** The product (not retired) with the price `pricingId`, or null when there is no such product. */
  offer(productId: number, pricingId: number): Promise<Offer | null>;
  /** A service took (+1) or gave back (−1) one of the product's stock. */
  holdStock(productId: number, delta: 1 | -1): Promise<void>;
}

/** An OS template of cloud compute as the compute module clones it. */
export interface OsTemplate {
  readonly id: number;
  readonly slug: string;
  readonly name: string;
  readonly min_memory_mb: number;
  readonly min_disk_gb: number;
  /** Location codes it is offered at; null: everywhere. */
  readonly locations: readonly string[] | null;
  /** The Proxmox VE template VM: one vmid on every node, or a vmid per node name; null: none. */
  readonly pve_template_vmid: number | Readonly<Record<string, number>> | null;
}

/** The catalogue's OS templates (cloud compute's images), by id. */
export interface OsTemplates {
  osTemplates(): Promise<OsTemplate[]>;
}
