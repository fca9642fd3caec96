import { Type } from 'typebox';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { RealmSignIn } from '../../identity/index.ts';
import { RegisterBody } from '../../identity/index.ts';
import { customerNotFound } from '../orgs-errors.ts';

const CustomerView = Type.Object({ id: Type.Integer(), email: Type.String(), created_at: Type.String() });
const CustomersQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1, default: 0 }),
  q: Type.Optional(Type.String({ maxLength: 254, description: 'Part of the email address (any case)' })),
  with_total: Type.Optional(Type.Boolean()),
});
const CustomersPage = Type.Object({
  items: Type.Array(CustomerView),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
  counts: Type.Object({ all: Type.Integer() }),
});
const CustomerParams = Type.Object({
  org_slug: Type.String({ minLength: 1, maxLength: 64 }),
  id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }),
});
const SlugParams = Type.Object({ org_slug: Type.String({ minLength: 1, maxLength: 64 }) });

/**
 * /orgs/{org_slug}/customers: the organization's storefront accounts (the identity module's
 * storefront realm, reached through its interface). Any member reads; owners and admins add.
 */
export function registerOrgCustomerRoutes(app: ModuleApp, realms: RealmSignIn): void {
  app.get(
    '/:org_slug/customers',
    {
      schema: {
        description:
          'The organization’s storefront customers, newest first, ties broken on id (newest id first). ' +
          '`limit`/`offset` 50/200 (above 200 → 422); `q` matches part of the email address; ' +
          '`with_total=true` answers `{items, total, limit, offset, counts}` with `counts.all` ignoring `q`.',
        params: SlugParams,
        querystring: CustomersQuery,
        response: { 200: Type.Union([Type.Array(CustomerView), CustomersPage]) },
      },
      config: { auth: 'org:member' },
    },
    async (request) => {
      const { limit, offset, q, with_total } = request.query;
      const page = await realms.customersOf(orgIdOf(request.principal), { q, limit, offset });
      if (with_total !== true) return page.items;
      return { items: page.items, total: page.total, limit, offset, counts: { all: page.all } };
    },
  );

  app.get(
    '/:org_slug/customers/:id',
    {
      schema: {
        description: 'One storefront customer of the organization (another organization’s is 404).',
        params: CustomerParams,
        response: { 200: CustomerView },
      },
      config: { auth: 'org:member' },
    },
    async (request) => {
      const customer = await realms.customerOf(orgIdOf(request.principal), request.params.id);
      if (customer === null) throw customerNotFound();
      return customer;
    },
  );

  app.post(
    '/:org_slug/customers',
    {
      schema: {
        description:
          'An owner or admin adds a storefront account (`{email, password}`, as the storefront’s sign-up); ' +
          'the organization’s webhooks receive `customer.created`. An address already a customer is 409.',
        params: SlugParams,
        body: RegisterBody,
        response: { 201: CustomerView },
      },
      config: { auth: 'org:admin', audit: 'org.customer.add' },
    },
    async (request, reply) => {
      const customer = await realms.registerCustomer(
        orgIdOf(request.principal),
        request.body.email,
        request.body.password,
      );
      request.auditNote = { customerId: customer.id };
      return reply.code(201).send(customer);
    },
  );
}

function orgIdOf(principal: { readonly orgId?: number } | undefined): number {
  // The `org:*` requirement resolved the organization from the path before the handler runs.
  if (principal?.orgId === undefined) throw new Error('organization route without an organization');
  return principal.orgId;
}
