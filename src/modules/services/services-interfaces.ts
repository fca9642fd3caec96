import type { Transaction } from 'kysely';
import type { OwnerScope } from '../../kernel/auth/owner-scope.ts';
import type { OrgSummary } from '../orgs/index.ts';
import type { ServiceView } from './service-view.ts';

/*
 * What the services registry offers other modules. ServiceProvisioner is the interface every
 * product module implements for its services: the registry calls it as a service moves through
 * its lifecycle, and the module makes (or unmakes) what the service is. DNS hosting is the first
 * (src/modules/dns/services/); mail relay, object storage, compute and game servers follow.
 */

/** A service as its provisioner sees it. */
export interface ProvisionedService {
  readonly id: number;
  readonly userId: number;
  readonly orgId: number | null;
  readonly productId: number;
  readonly locationCode: string | null;
  /** The ordered config, checked against the product's options (defaults filled in). */
  readonly config: Readonly<Record<string, unknown>>;
}

/** Thrown by a provisioner when the service cannot be made: the service is `failed` with `reason`. */
export class ProvisioningFailed extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * An entry of the provisioner registry: a product module making (and unmaking) its services as
 * they move through their lifecycle.
 */
export interface ServiceProvisioner {
  /** The catalogue `module_name` of the products it provisions. */
  readonly module: string;
  /** Why it cannot make services now (`not_configured`), else null; absent: it always can. */
  unavailableReason?(): string | null;
  /** pending → provisioning → active; throws ProvisioningFailed for `failed`. */
  provision(service: ProvisionedService): Promise<void>;
  suspend(service: ProvisionedService): Promise<void>;
  unsuspend(service: ProvisionedService): Promise<void>;
  /** The service ends: what it holds is released. */
  terminate(service: ProvisionedService): Promise<void>;
}

/**
 * What other modules read of a service: a product module checks that a service named in a request
 * (a zone's `service_id`) is the caller's, active and of its product module.
 */
export interface ServiceSummary {
  readonly id: number;
  readonly userId: number;
  readonly orgId: number | null;
  readonly module: string;
  readonly status: string;
  readonly config: Readonly<Record<string, unknown>>;
  readonly label: string;
  readonly productId: number;
  readonly productName: string;
  readonly billingCycle: string;
  /** The price per cycle, a decimal string ("0.00": a free plan). */
  readonly price: string;
  readonly locationCode: string | null;
  readonly createdAt: Date;
  readonly nextDueDate: Date | null;
}

/** What product modules use of the registry: a service named in their requests. */
export interface ServiceDirectory {
  /**
   * The service when the caller may use it (`write`, the default: its owner, or an owner or admin
   * of its organization) or see it (`read`: any member); else null.
   */
  summaryFor(owner: OwnerScope, serviceId: number, access?: 'read' | 'write'): Promise<ServiceSummary | null>;
  /** The services of a product module the caller may see, newest first (at most `limit`). */
  listFor(owner: OwnerScope, module: string, limit: number): Promise<ServiceSummary[]>;
}

/** Who suspends or lifts a suspension (platform staff, or a reseller's member), for the audit log. */
export interface ServiceActor {
  readonly userId: number | null;
  readonly realm: string;
  readonly ip: string | null;
}

/** Suspensions, for the staff console and resellers (no route of this module's own). */
export interface ServiceLifecycle {
  suspend(serviceId: number, reason: string, actor: ServiceActor): Promise<ServiceView>;
  unsuspend(serviceId: number, actor: ServiceActor): Promise<ServiceView>;
}

/** Tags of services (the tags module answers them, for the list's `tag` filter). */
export interface ServiceTagLookup {
  serviceIdsTagged(owner: OwnerScope, tag: string): Promise<number[]>;
}

/** A line of a priced order's invoice; money as decimal strings, as the catalogue writes it. */
export interface OrderInvoiceLine {
  readonly description: string;
  readonly quantity: number;
  readonly unitPrice: string;
}

/** A priced order to invoice: who pays, for which service, in which currency, its lines. */
export interface OrderToInvoice {
  readonly userId: number;
  readonly orgId: number | null;
  /** The organization's storefront customer the service is for (orgId set): the customer pays. */
  readonly customerId: number | null;
  readonly productId: number;
  readonly serviceId: number;
  readonly currency: string;
  readonly lines: readonly OrderInvoiceLine[];
  /**
   * The organization as read before the order's transaction, when customerId is set: its billing
   * mode says who sells (billing cannot read it inside the transaction: the embedded database has
   * one connection, which the transaction holds).
   */
  readonly org?: OrgSummary;
}

/**
 * Billing as the services registry invoices priced orders (the invoicers registry's entry), inside
 * the order's own transaction: the service and its invoice exist together or not at all. Without
 * one, a priced plan cannot be ordered (402).
 */
export interface Invoicer {
  /** `afterCommit` runs work once the order's transaction has committed (paying a wholesale invoice). */
  invoiceOrder(
    trx: Transaction<unknown>,
    order: OrderToInvoice,
    afterCommit?: (work: () => Promise<void>) => void,
  ): Promise<{ readonly invoiceId: number }>;
}

/** A storefront customer's order giving a coupon code, as the coupon redeemer sees it. */
export interface CouponOrder {
  readonly orgId: number;
  readonly customerId: number;
  readonly productId: number;
  readonly serviceId: number;
  /** The code as the customer typed it. */
  readonly code: string;
  readonly currency: string;
  /** The order's first-invoice lines before the discount. */
  readonly lines: readonly OrderInvoiceLine[];
}

/**
 * The staff console's coupons as a customer's order redeems one (the coupon redeemers registry's
 * entry), inside the order's own transaction: the redemption and the service exist together or not
 * at all. Refuses with 422 naming `coupon_code` (its detail's `type` says why); answers the
 * discount as a negative invoice line (null when nothing is taken off). Without one, every code is
 * refused as the feature being off.
 */
export interface CouponRedeemer {
  redeem(
    trx: Transaction<unknown>,
    order: CouponOrder,
  ): Promise<{ readonly discount: OrderInvoiceLine | null }>;
  /**
   * A renewal of `serviceId` (`amountMinor` of `currency`): the discount of the coupon its order
   * redeemed when that coupon discounts every invoice, else null. `firstInvoice`: this is the
   * service's first invoice (an hourly plan's first month: its order made none), which any coupon
   * discounts.
   */
  renewalDiscount(
    serviceId: number,
    currency: string,
    amountMinor: number,
    firstInvoice?: boolean,
  ): Promise<RenewalDiscount | null>;
}

/** What a renewal invoice takes off its amount: a negative line of `discountMinor` (minor units, above 0). */
export interface RenewalDiscount {
  readonly description: string;
  readonly discountMinor: number;
}

/** What billing tells the registry once an invoice is paid: its pending services are provisioned. */
export interface ServiceFulfilment {
  provisionPaid(serviceIds: readonly number[]): Promise<void>;
}

/** A service as billing's daily run sees it: what it renews, and when. */
export interface BilledService {
  readonly id: number;
  readonly userId: number;
  readonly orgId: number | null;
  /** The organization's storefront customer it is held for, else null. */
  readonly customerId: number | null;
  readonly productId: number;
  readonly productName: string;
  readonly billingCycle: string;
  /** The price per cycle, a decimal string. */
  readonly price: string;
  readonly currency: string;
  readonly status: string;
  readonly nextDueDate: Date;
}

/** An hourly plan as billing's daily run bills it in arrears: when it was active, at which price. */
export interface HourlyService {
  readonly id: number;
  readonly userId: number;
  readonly orgId: number | null;
  readonly customerId: number | null;
  readonly productId: number;
  readonly productName: string;
  /** The price per hour, a decimal string of up to 4 decimals. */
  readonly price: string;
  readonly currency: string;
  readonly activatedAt: Date;
  readonly terminatedAt: Date | null;
}

/**
 * What billing's daily run uses of the registry: services due by a date, their due date moved on
 * when a renewal is paid, and the dunning steps through the lifecycle (and the provisioners).
 */
export interface ServiceBilling {
  /** Services `active`, `suspended` or `pending_termination` whose next_due_date is at or before `until`. */
  dueBy(until: Date): Promise<BilledService[]>;
  /** Priced hourly services active at some instant of [start, end) (activated before end, not terminated by start). */
  hourlyServicesActiveBetween(start: Date, end: Date): Promise<HourlyService[]>;
  /** next_due_date `from` → one cycle later; false when it was not `from` any more (already moved). */
  advanceDueDate(serviceId: number, from: Date): Promise<boolean>;
  /**
   * The discount a renewal of `service` of `amountMinor` carries (its order's coupon), else null;
   * `firstInvoice` as CouponRedeemer.renewalDiscount.
   */
  renewalDiscount(
    service: Pick<BilledService, 'id' | 'customerId' | 'currency'>,
    amountMinor: number,
    firstInvoice?: boolean,
  ): Promise<RenewalDiscount | null>;
  /** active → suspended (the provisioner's suspend); nothing when it is not active. */
  suspendUnpaid(serviceId: number, reason: string): Promise<void>;
  /** suspended → active once its invoice is paid; nothing when it is not suspended. */
  unsuspendPaid(serviceId: number): Promise<void>;
  /** → terminated, what it holds released by its provisioner; nothing when already terminated. */
  terminateNow(serviceId: number, message: string): Promise<void>;
}

/**
 * The organizations' storefront customers as the registry checks an order names one (identity's
 * storefront realm answers it): the customer when it is one of the organization's, else null.
 */
export interface StorefrontCustomers {
  customerOf(orgId: number, customerId: number): Promise<{ readonly id: number } | null>;
}

/** A service as an order answers it: the service, and the invoice to pay for a priced plan (else null). */
export type OrderedService = ServiceView & { invoice_id: number | null };

/** A service held for a customer, as the organization's portal shows it. */
export type CustomerServiceView = ServiceView;

/** A signed-in storefront customer of an organization (the portal's caller). */
export interface PortalCustomer {
  readonly orgId: number;
  readonly customerId: number;
}

/** A customer's own order: the plan, where, its config, a label. */
export interface CustomerOrder {
  readonly product_id: number;
  readonly pricing_id: number;
  readonly location_id?: number;
  readonly config?: Readonly<Record<string, unknown>>;
  readonly label?: string;
  /** A coupon of the organization's (the staff console's coupons). */
  readonly coupon_code?: string;
}

/** A page of a customer's services, newest first; `status` one of the services' statuses. */
export interface CustomerServicesQuery {
  readonly status?: string;
  readonly limit: number;
  readonly offset: number;
}

/**
 * The services an organization holds for its storefront customers, for the organization's portal
 * (the resellers module): held by the organization's owner, named by the customer.
 */
export interface CustomerServices {
  /**
   * Orders as `POST /services/order` does, for the customer: a free plan counts against the
   * customer's `storefront.free_order` budget; the organization's webhooks hear `order.created`.
   */
  orderForCustomer(customer: PortalCustomer, order: CustomerOrder): Promise<OrderedService>;
  customerServices(customer: PortalCustomer, query: CustomerServicesQuery): Promise<CustomerServiceView[]>;
  /** One service of the customer's, else null (another customer's too). */
  customerService(customer: PortalCustomer, serviceId: number): Promise<CustomerServiceView | null>;
}

/** The staff console's insights: an organization's orders and active services by UTC day (`YYYY-MM-DD`). */
export interface ServiceInsights {
  /** Services ordered for the organization (its own and its customers') in [from, before), by day. */
  ordersByDay(orgId: number, from: Date, before: Date): Promise<readonly { day: string; count: number }[]>;
  /**
   * Active services at `from` (activated, not yet terminated), and activations and terminations by
   * day in [from, before): the active count at the end of each day follows by addition.
   */
  activeChanges(
    orgId: number,
    from: Date,
    before: Date,
  ): Promise<{
    readonly activeAtStart: number;
    readonly activated: readonly { day: string; count: number }[];
    readonly terminated: readonly { day: string; count: number }[];
  }>;
}
