import type { Transaction } from 'kysely';
import { orgRoleAllows, type OwnerScope } from '../../kernel/auth/owner-scope.ts';
import { forbiddenRole } from '../../kernel/errors/kernel-errors.ts';
import type { Registry } from '../../kernel/module/registry.ts';
import { freeOrderBudget } from './services-budgets.ts';
import { invalidField, invalidFields } from '../../kernel/errors/app-error.ts';
import type { CatalogOffers } from '../catalog/index.ts';
import type { OrgDirectory } from '../orgs/index.ts';
import { oneCycleAfter } from './billing-cycle.ts';
import { checkOrderConfig, optionPriceLines } from './order-config.ts';
import { resourceTypeOfModule, resourceTypeOfWord } from './service-resource-types.ts';
import type { ServicesContext } from './services-context.ts';
import { serviceEventView, serviceView, type ServiceEventView, type ServiceView } from './service-view.ts';
import {
  alreadyCancelled,
  invalidResourceType,
  notOrderable,
  paymentRequired,
  productNotFound,
  serviceNotFound,
  serviceNotInState,
  serviceOrgNotFound,
} from './services-errors.ts';
import {
  ProvisioningFailed,
  type BilledService,
  type CouponRedeemer,
  type CustomerOrder,
  type CustomerServices,
  type CustomerServicesQuery,
  type CustomerServiceView,
  type HourlyService,
  type Invoicer,
  type OrderedService,
  type PortalCustomer,
  type StorefrontCustomers,
  type OrderInvoiceLine,
  type ProvisionedService,
  type ServiceActor,
  type RenewalDiscount,
  type ServiceBilling,
  type ServiceProvisioner,
  type ServiceSummary,
  type ServiceTagLookup,
} from './services-interfaces.ts';
import { ServicesRepository, type ServiceFilter } from './services-repository.ts';
import type { ServiceRow, ServiceStatus } from './services-tables.ts';

export interface OrderBody {
  readonly product_id: number;
  readonly pricing_id: number;
  readonly location_id?: number;
  readonly config?: Readonly<Record<string, unknown>>;
  readonly org_slug?: string;
  /** A storefront customer of `org_slug` the service is for. */
  readonly customer_id?: number;
  readonly label?: string;
}

export type { OrderedService };

/** Who holds an ordered service, and whose `storefront.free_order` budget a free plan counts against. */
interface OrderHolder {
  readonly userId: number;
  readonly orgId: number | null;
  readonly customerId: number | null;
  readonly budgetKey: string;
  /** The customer's own order from the organization's portal: its webhooks hear `order.created`. */
  readonly portal: boolean;
}

export interface ListQuery {
  readonly status?: string;
  readonly resource_type?: string;
  readonly tag?: string;
  readonly limit: number;
  readonly offset: number;
}

/** A decimal string that is zero ("0", "0.00"): compared as text, never through a float. */
/** The daily billing run, as the audit log names who suspended a service. */
const BILLING_ACTOR: ServiceActor = { userId: null, realm: 'billing', ip: null };

const isZero = (decimal: string): boolean => /^0*(\.0*)?$/.test(decimal.replace(/^-/, ''));

/** `svc_<id>` or the bare id. */
export function serviceIdOf(ref: string): number | null {
  const m = /^(?:svc_)?([1-9][0-9]{0,15})$/.exec(ref);
  return m ? Number(m[1]) : null;
}

/**
 * The services registry: ordering (free plans at once, priced ones once their invoice is paid), the lifecycle through each
 * product module's provisioner, listing, cancelling, the events of a service.
 */
export class ServicesService implements ServiceBilling, CustomerServices {
  private readonly repo: ServicesRepository;

  constructor(
    private readonly ctx: ServicesContext,
    private readonly catalog: CatalogOffers,
    private readonly orgs: OrgDirectory,
    /** Product modules' provisioners, one per catalogue `module_name`. */
    private readonly provisioners: Registry<ServiceProvisioner>,
    /** The tags module's answer to the list's `tag` filter (none: no service is tagged). */
    private readonly tags: Registry<ServiceTagLookup>,
    /** Billing, which invoices priced orders (none: a priced plan answers 402). */
    private readonly invoicers: Registry<Invoicer>,
    /** The organizations' storefront customers, for an order naming `customer_id`. */
    private readonly customers: StorefrontCustomers,
    /** The staff console's coupons, for a customer's `coupon_code` (none: every code is refused). */
    private readonly coupons: Registry<CouponRedeemer>,
  ) {
    this.repo = new ServicesRepository(ctx.db);
  }

  private provisionerOf(module: string): ServiceProvisioner | undefined {
    return this.provisioners.all().find((p) => p.module === module);
  }

  /**
   * A free plan is provisioned at once; a priced one is `pending` with an `unpaid` invoice due now,
   * and provisioned when billing says the invoice is paid (provisionPaid); an hourly one is
   * provisioned at once and billed in arrears each month (its setup fee and option prices aside).
   */
  async order(owner: OwnerScope, body: OrderBody): Promise<OrderedService> {
    return this.place(await this.holderOf(owner, body), body);
  }

  /** The organization's portal: the customer's order, held by the organization's owner for them. */
  async orderForCustomer(customer: PortalCustomer, order: CustomerOrder): Promise<OrderedService> {
    const org = await this.orgs.byId(customer.orgId);
    if (org === null || org.status === 'deleted') throw serviceOrgNotFound();
    const holder = {
      userId: org.ownerUserId,
      orgId: org.id,
      customerId: customer.customerId,
      budgetKey: `customer:${customer.customerId}`,
      portal: true,
    };
    return this.place(holder, order);
  }

  /** The caller's own order, or (owner or admin) one for an organization and maybe one of its customers. */
  private async holderOf(owner: OwnerScope, body: OrderBody): Promise<OrderHolder> {
    const customerId = body.customer_id ?? null;
    if (customerId !== null && body.org_slug === undefined)
      throw invalidField(['body', 'customer_id'], 'Needs org_slug, the customer’s organization', customerId);
    const orgId = body.org_slug === undefined ? null : await this.orgOf(owner, body.org_slug);
    if (customerId !== null && (await this.customers.customerOf(orgId!, customerId)) === null)
      throw invalidField(['body', 'customer_id'], 'Not a customer of this organization', customerId);
    return { userId: owner.userId, orgId, customerId, budgetKey: `user:${owner.userId}`, portal: false };
  }

  private async place(holder: OrderHolder, body: CustomerOrder): Promise<OrderedService> {
    const { orgId, customerId } = holder;
    // Billing reads the organization's billing mode of a customer's order before the transaction.
    const org =
      customerId === null || orgId === null ? undefined : ((await this.orgs.byId(orgId)) ?? undefined);
    const offer = await this.catalog.offer(body.product_id, body.pricing_id);
    if (offer === null) throw productNotFound();
    const pricing = offer.pricing;
    if (pricing === null || !pricing.is_active)
      throw invalidField(['body', 'pricing_id'], 'Not an active price of this product', body.pricing_id);
    if (offer.unavailable !== null) throw notOrderable(offer.unavailable);
    const provisioner = this.provisionerOf(offer.product.module_name);
    if (provisioner === undefined) throw notOrderable('not_provisioned_yet');
    const unavailable = provisioner.unavailableReason?.() ?? null;
    if (unavailable !== null) throw notOrderable(unavailable);
    const config = checkOrderConfig(offer.options, body.config ?? {});
    const problems = config.ok ? [] : [...config.problems];
    let locationCode: string | null = null;
    if (offer.locations.length > 0) {
      const place = offer.locations.find((l) => l.id === body.location_id);
      if (body.location_id === undefined)
        problems.push({
          type: 'missing',
          loc: ['body', 'location_id'],
          msg: 'Field required',
          input: null,
          ctx: {},
        });
      else if (place === undefined || !place.orderable)
        problems.push({
          type: 'value_error',
          loc: ['body', 'location_id'],
          msg: `Location not available for this product${place?.reason ? `: ${place.reason}` : ''}`,
          input: body.location_id,
          ctx: {},
        });
      else locationCode = place.code;
    }
    if (problems.length > 0 || !config.ok) throw invalidFields(problems);
    const optionLines = optionPriceLines(offer.options, config.config);
    const priced = !isZero(pricing.price) || !isZero(pricing.setup_fee) || optionLines.length > 0;
    // An hourly plan is paid in arrears (billing's daily run, each month): provisioned at once, no invoice now.
    const inArrears = priced && pricing.billing_cycle === 'hourly';
    const invoicer = priced ? (this.invoicers.one() ?? undefined) : undefined;
    if (priced && invoicer === undefined) throw paymentRequired();
    // A zero-cost order counts against its budget (the route declares it; counted here).
    if (!priced) await this.ctx.budgets.charge(freeOrderBudget, holder.budgetKey);

    const at = new Date(this.ctx.clock.now());
    const service = await this.ctx.transaction(async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      const row = await repo.insert(
        {
          user_id: holder.userId,
          org_id: orgId,
          customer_id: customerId,
          product_id: offer.product.id,
          product_name: offer.product.name,
          pricing_id: pricing.id,
          module_name: offer.product.module_name,
          resource_type: resourceTypeOfModule(offer.product.module_name),
          label: body.label ?? offer.product.name,
          status: 'pending',
          location_code: locationCode,
          config: config.config,
          billing_cycle: pricing.billing_cycle,
          price: pricing.price,
          currency: pricing.currency,
        },
        at,
      );
      await repo.addEvent(row.id, 'ordered', `Ordered ${offer.product.name} (${pricing.billing_cycle})`, at);
      let invoiceId: number | null = null;
      const lines: OrderInvoiceLine[] = [
        {
          description: `${offer.product.name} (${pricing.billing_cycle})`,
          quantity: 1,
          unitPrice: pricing.price,
        },
      ];
      lines.push(...optionLines);
      if (!isZero(pricing.setup_fee))
        lines.push({
          description: `${offer.product.name}: setup fee`,
          quantity: 1,
          unitPrice: pricing.setup_fee,
        });
      // A customer's coupon is redeemed in the order's transaction; its discount is a line of the first invoice.
      const couponCode = body.coupon_code;
      if (couponCode !== undefined) {
        const redeemer = this.coupons.one();
        if (redeemer === null || orgId === null || customerId === null)
          throw invalidField(
            ['body', 'coupon_code'],
            'Coupons are not offered',
            couponCode,
            'coupon_feature_off',
          );
        const { discount } = await redeemer.redeem(uow.trx as unknown as Transaction<unknown>, {
          orgId,
          customerId,
          productId: offer.product.id,
          serviceId: Number(row.id),
          code: couponCode,
          currency: pricing.currency,
          lines: inArrears || invoicer === undefined ? [] : lines,
        });
        if (discount !== null) lines.push(discount);
      }
      if (invoicer !== undefined && !inArrears) {
        ({ invoiceId } = await invoicer.invoiceOrder(
          uow.trx as unknown as Transaction<unknown>,
          {
            userId: holder.userId,
            orgId,
            customerId,
            productId: offer.product.id,
            serviceId: Number(row.id),
            currency: pricing.currency,
            lines,
            ...(org === undefined ? {} : { org }),
          },
          (work) => uow.afterCommit(work),
        ));
        await repo.addEvent(row.id, 'invoiced', `Awaiting payment of invoice ${invoiceId}`, at);
      }
      const serviceId = Number(row.id);
      const productId = offer.product.id;
      // A member's order is `service.ordered`; a customer's own, from the portal, `order.created`.
      if (orgId !== null && !holder.portal)
        await uow.record({
          orgId,
          name: 'service.ordered',
          data: { service_id: serviceId, customer_id: customerId, product_id: productId },
        });
      if (holder.portal && orgId !== null)
        await uow.record({
          orgId,
          name: 'order.created',
          data: {
            service_id: serviceId,
            customer_id: customerId,
            product_id: productId,
            invoice_id: invoiceId,
          },
        });
      return { row, invoiceId };
    });
    await this.catalog.holdStock(offer.product.id, 1);
    if (service.invoiceId === null) await this.provision(service.row, provisioner);
    return { ...serviceView((await this.repo.find(service.row.id))!), invoice_id: service.invoiceId };
  }

  /**
   * Billing: an invoice is paid, its services still `pending` are provisioned now. Each is claimed
   * (pending → provisioning) by one caller only, so a retried or repeated call provisions once.
   */
  async provisionPaid(serviceIds: readonly number[]): Promise<void> {
    for (const id of serviceIds) {
      const row = await this.repo.find(id);
      if (row === null || row.status !== 'pending') continue;
      if (!(await this.repo.claimPending(row.id, new Date(this.ctx.clock.now())))) continue;
      const provisioner = this.provisionerOf(row.module_name);
      if (provisioner === undefined) {
        await this.move(
          row,
          'failed',
          'not_provisioned_yet',
          'failed',
          'Provisioning failed: not_provisioned_yet',
        );
        continue;
      }
      await this.provision(row, provisioner);
    }
  }

  /** pending → provisioning → active, or failed with the provisioner's reason. */
  private async provision(service: ServiceRow, provisioner: ServiceProvisioner): Promise<void> {
    await this.move(service, 'provisioning', null, 'provisioning', 'Provisioning started');
    try {
      await provisioner.provision(provisionedOf(service));
      await this.move(service, 'active', null, 'activated', 'Service is active', {
        activated_at: new Date(this.ctx.clock.now()),
      });
      // A priced plan that renews is paid up to one cycle from now; the daily billing run invoices it then.
      const due = isZero(service.price)
        ? null
        : oneCycleAfter(new Date(this.ctx.clock.now()), service.billing_cycle);
      if (due !== null) await this.repo.moveDueDate(service.id, null, due, new Date(this.ctx.clock.now()));
    } catch (error) {
      const reason = error instanceof ProvisioningFailed ? error.reason : 'Provisioning failed';
      if (!(error instanceof ProvisioningFailed))
        this.ctx.log.error({ err: error, serviceId: service.id }, 'provisioning failed');
      await this.move(service, 'failed', reason, 'failed', `Provisioning failed: ${reason}`);
    }
  }

  private async move(
    service: ServiceRow,
    status: ServiceStatus,
    reason: string | null,
    event: string,
    message: string,
    extra: { terminated_at?: Date; activated_at?: Date } = {},
  ): Promise<void> {
    const at = new Date(this.ctx.clock.now());
    await this.ctx.transaction(async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      await repo.setStatus(service.id, status, reason, at, extra);
      await repo.addEvent(service.id, event, message, at);
    });
  }

  /** Billing's daily run: the services due at or before `until`. */
  async dueBy(until: Date): Promise<BilledService[]> {
    return (await this.repo.dueBy(until)).map((s) => ({
      id: Number(s.id),
      userId: Number(s.user_id),
      orgId: s.org_id === null ? null : Number(s.org_id),
      customerId: s.customer_id === null ? null : Number(s.customer_id),
      productId: Number(s.product_id),
      productName: s.product_name,
      billingCycle: s.billing_cycle,
      price: String(s.price),
      currency: s.currency,
      status: s.status,
      nextDueDate: new Date(s.next_due_date!),
    }));
  }

  /** Billing's daily run: a customer's renewal keeps the discount of the coupon its order redeemed. */
  async renewalDiscount(
    service: Pick<BilledService, 'id' | 'customerId' | 'currency'>,
    amountMinor: number,
    firstInvoice = false,
  ): Promise<RenewalDiscount | null> {
    if (service.customerId === null) return null;
    const redeemer = this.coupons.one();
    return redeemer === null
      ? null
      : redeemer.renewalDiscount(service.id, service.currency, amountMinor, firstInvoice);
  }

  /** Billing's daily run: the priced hourly services active at some instant of [start, end). */
  async hourlyServicesActiveBetween(start: Date, end: Date): Promise<HourlyService[]> {
    return (await this.repo.hourlyActiveBetween(start, end)).map((s) => ({
      id: Number(s.id),
      userId: Number(s.user_id),
      orgId: s.org_id === null ? null : Number(s.org_id),
      customerId: s.customer_id === null ? null : Number(s.customer_id),
      productId: Number(s.product_id),
      productName: s.product_name,
      price: String(s.price),
      currency: s.currency,
      activatedAt: new Date(s.activated_at!),
      terminatedAt: s.terminated_at === null ? null : new Date(s.terminated_at),
    }));
  }

  /** A renewal is paid: next_due_date moves one cycle on from `from`, once. */
  async advanceDueDate(serviceId: number, from: Date): Promise<boolean> {
    const service = await this.repo.find(serviceId);
    if (service === null) return false;
    const to = oneCycleAfter(from, service.billing_cycle);
    if (to === null) return false;
    const at = new Date(this.ctx.clock.now());
    if (!(await this.repo.moveDueDate(service.id, from, to, at))) return false;
    await this.repo.addEvent(service.id, 'renewed', `Renewed until ${to.toISOString()}`, at);
    return true;
  }

  async suspendUnpaid(serviceId: number, reason: string): Promise<void> {
    const service = await this.repo.find(serviceId);
    if (service?.status !== 'active') return;
    await this.suspend(serviceId, reason, BILLING_ACTOR);
  }

  async unsuspendPaid(serviceId: number): Promise<void> {
    const service = await this.repo.find(serviceId);
    if (service?.status !== 'suspended') return;
    await this.unsuspend(serviceId, BILLING_ACTOR);
  }

  /** Ends a service now (unpaid, or cancelled at the end of its period): its provisioner releases what it holds. */
  async terminateNow(serviceId: number, message: string): Promise<void> {
    const service = await this.repo.find(serviceId);
    if (service === null || service.status === 'terminated') return;
    if (service.status !== 'failed' && service.status !== 'pending')
      await this.provisionerOf(service.module_name)?.terminate(provisionedOf(service));
    const at = new Date(this.ctx.clock.now());
    await this.move(service, 'terminated', null, 'terminated', message, { terminated_at: at });
    await this.catalog.holdStock(Number(service.product_id), -1);
  }

  async list(owner: OwnerScope, q: ListQuery): Promise<ServiceView[]> {
    const filter: { -readonly [K in keyof ServiceFilter]: ServiceFilter[K] } = {};
    if (q.resource_type !== undefined) {
      const type = resourceTypeOfWord(q.resource_type);
      if (type === null) throw invalidResourceType();
      filter.resourceType = type;
    }
    if (q.status !== undefined) filter.status = q.status;
    if (q.tag !== undefined)
      filter.ids = (await this.tags.one()?.serviceIdsTagged(owner, q.tag.toLowerCase())) ?? [];
    const rows = await this.repo.list(owner, filter, q.limit, q.offset);
    return rows.map(serviceView);
  }

  /** The portal: the customer's services, newest first (ties on id). */
  async customerServices(customer: PortalCustomer, q: CustomerServicesQuery): Promise<CustomerServiceView[]> {
    const rows = await this.repo.listForCustomer(customer.orgId, customer.customerId, q);
    return rows.map(serviceView);
  }

  async customerService(customer: PortalCustomer, serviceId: number): Promise<CustomerServiceView | null> {
    const row = await this.repo.findForCustomer(customer.orgId, customer.customerId, serviceId);
    return row === null ? null : serviceView(row);
  }

  async get(owner: OwnerScope, ref: string): Promise<ServiceView> {
    return serviceView(await this.owned(owner, ref, 'read'));
  }

  /** Free and hourly plans end at once (terminated); other priced ones at the end of their period. */
  async cancel(owner: OwnerScope, ref: string): Promise<ServiceView> {
    const service = await this.owned(owner, ref, 'write');
    if (service.status === 'terminated' || service.status === 'pending_termination') throw alreadyCancelled();
    await this.move(service, 'pending_termination', null, 'cancel_requested', 'Cancellation requested');
    // Free and hourly plans end at once (hours are billed in arrears up to terminated_at).
    if (isZero(service.price) || service.billing_cycle === 'hourly') {
      const provisioner = this.provisionerOf(service.module_name);
      if (service.status !== 'failed') await provisioner?.terminate(provisionedOf(service));
      const at = new Date(this.ctx.clock.now());
      await this.move(service, 'terminated', null, 'terminated', 'Service terminated', { terminated_at: at });
      await this.catalog.holdStock(Number(service.product_id), -1);
    }
    return serviceView((await this.repo.find(service.id))!);
  }

  /**
   * Suspends an active service (platform staff, a reseller for its customer): the provisioner's
   * `suspend`, status `suspended` with the reason, an event, an audit entry, and for an
   * organization's service `service.suspended` to its webhooks.
   */
  async suspend(serviceId: number, reason: string, actor: ServiceActor): Promise<ServiceView> {
    return this.suspension(serviceId, actor, {
      from: 'active',
      to: 'suspended',
      reason,
      event: 'suspended',
      message: `Suspended: ${reason}`,
      webhook: 'service.suspended',
      run: (p, s) => p.suspend(s),
    });
  }

  async unsuspend(serviceId: number, actor: ServiceActor): Promise<ServiceView> {
    return this.suspension(serviceId, actor, {
      from: 'suspended',
      to: 'active',
      reason: null,
      event: 'unsuspended',
      message: 'Suspension lifted',
      webhook: 'service.unsuspended',
      run: (p, s) => p.unsuspend(s),
    });
  }

  private async suspension(
    serviceId: number,
    actor: ServiceActor,
    step: {
      from: ServiceStatus;
      to: ServiceStatus;
      reason: string | null;
      event: string;
      message: string;
      webhook: string;
      run: (p: ServiceProvisioner, s: ProvisionedService) => Promise<void>;
    },
  ): Promise<ServiceView> {
    const service = await this.repo.find(serviceId);
    if (service === null) throw serviceNotFound();
    if (service.status !== step.from) throw serviceNotInState(step.from);
    const provisioner = this.provisionerOf(service.module_name);
    if (provisioner !== undefined) await step.run(provisioner, provisionedOf(service));
    const at = new Date(this.ctx.clock.now());
    const orgId = service.org_id === null ? null : Number(service.org_id);
    await this.ctx.transaction(async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      await repo.setStatus(service.id, step.to, step.reason, at);
      await repo.addEvent(service.id, step.event, step.message, at);
      if (orgId !== null)
        await uow.record({
          orgId,
          name: step.webhook,
          data: {
            service_id: Number(service.id),
            customer_id: service.customer_id === null ? null : Number(service.customer_id),
          },
        });
    });
    await this.ctx.audit.record({
      orgId,
      actorUserId: actor.userId,
      actorRealm: actor.realm,
      action: `services.service.${step.event === 'suspended' ? 'suspend' : 'unsuspend'}`,
      resourceType: 'service',
      resourceId: Number(service.id),
      ip: actor.ip,
    });
    return serviceView((await this.repo.find(service.id))!);
  }

  async events(owner: OwnerScope, ref: string, page: number, limit: number): Promise<ServiceEventView[]> {
    const service = await this.owned(owner, ref, 'read');
    return (await this.repo.events(service.id, limit, (page - 1) * limit)).map(serviceEventView);
  }

  /** For other modules: the service `id` when the caller may use it (`write`) or see it, else null. */
  async summaryFor(
    owner: OwnerScope,
    id: number,
    access: 'read' | 'write' = 'write',
  ): Promise<ServiceSummary | null> {
    const s = await this.repo.findOwned(owner, id, access);
    return s === null ? null : summaryOf(s);
  }

  async listFor(owner: OwnerScope, module: string, limit: number): Promise<ServiceSummary[]> {
    return (await this.repo.list(owner, { module }, limit, 0)).map(summaryOf);
  }

  private async owned(owner: OwnerScope, ref: string, access: 'read' | 'write'): Promise<ServiceRow> {
    const id = serviceIdOf(ref);
    const row = id === null ? null : await this.repo.findOwned(owner, id, 'read');
    if (row === null) throw serviceNotFound();
    if (
      access === 'write' &&
      row.org_id !== null &&
      !orgRoleAllows(owner.orgRoles.get(Number(row.org_id)), 'write')
    )
      throw forbiddenRole();
    return row;
  }

  private async orgOf(owner: OwnerScope, slug: string): Promise<number> {
    const org = await this.orgs.bySlug(slug);
    const role = org === null || org.status === 'deleted' ? undefined : owner.orgRoles.get(org.id);
    if (org === null || role === undefined) throw serviceOrgNotFound();
    if (!orgRoleAllows(role, 'write')) throw forbiddenRole();
    return org.id;
  }
}

function provisionedOf(s: ServiceRow): ProvisionedService {
  return {
    id: Number(s.id),
    userId: Number(s.user_id),
    orgId: s.org_id === null ? null : Number(s.org_id),
    productId: Number(s.product_id),
    locationCode: s.location_code,
    config: s.config,
  };
}

function summaryOf(s: ServiceRow): ServiceSummary {
  return {
    id: Number(s.id),
    userId: Number(s.user_id),
    orgId: s.org_id === null ? null : Number(s.org_id),
    module: s.module_name,
    status: s.status,
    config: s.config,
    label: s.label,
    productId: Number(s.product_id),
    productName: s.product_name,
    billingCycle: s.billing_cycle,
    price: String(s.price),
    locationCode: s.location_code,
    createdAt: new Date(s.created_at),
    nextDueDate: s.next_due_date === null ? null : new Date(s.next_due_date),
  };
}
