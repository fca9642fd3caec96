import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { Deleted, idParams, listOf, OrgSlugParams } from '../shared/commerce-http-schemas.ts';
import {
  CreateShippingOptionBody,
  CreateShippingProfileBody,
  ShippingOptionResponse,
  ShippingOptionsQuery,
  ShippingProfileResponse,
  UpdateShippingOptionBody,
  UpdateShippingProfileBody,
} from './shipping-setup-schemas.ts';
import type { ShippingSetupService } from './shipping-setup-service.ts';

const READ = { auth: { scope: 'commerce.catalog:read' } } as const;
const WRITE = { auth: { scope: 'commerce.store:write' } } as const;

/** Shipping profiles and options (docs/commerce.md, "Shipping"): read with the catalogue, changed with the store. */
export function registerShippingSetupRoutes(app: ModuleApp, service: ShippingSetupService): void {
  const base = '/:org_slug/commerce';
  const profile = idParams('shipping_profile_id');
  const option = idParams('shipping_option_id');
  app.get(
    `${base}/shipping-profiles`,
    {
      schema: {
        description: 'The shipping profiles, oldest first.',
        params: OrgSlugParams,
        response: { 200: listOf('shipping_profiles', ShippingProfileResponse) },
      },
      config: READ,
    },
    async (request) => ({ shipping_profiles: await service.profiles(request.principal.orgId!) }),
  );
  app.post(
    `${base}/shipping-profiles`,
    {
      schema: {
        params: OrgSlugParams,
        body: CreateShippingProfileBody,
        response: { 201: ShippingProfileResponse },
      },
      config: WRITE,
    },
    async (request, reply) =>
      reply.code(201).send(await service.createProfile(request.principal.orgId!, request.body)),
  );
  app.patch(
    `${base}/shipping-profiles/:shipping_profile_id`,
    {
      schema: {
        params: profile,
        body: UpdateShippingProfileBody,
        response: { 200: ShippingProfileResponse },
      },
      config: WRITE,
    },
    async (request) =>
      service.updateProfile(request.principal.orgId!, request.params.shipping_profile_id, request.body),
  );
  app.delete(
    `${base}/shipping-profiles/:shipping_profile_id`,
    {
      schema: {
        description: 'Deletes a shipping profile no shipping option uses (else 409).',
        params: profile,
        response: { 200: Deleted, ...errorResponses(409) },
      },
      config: WRITE,
    },
    async (request) => service.deleteProfile(request.principal.orgId!, request.params.shipping_profile_id),
  );

  app.get(
    `${base}/shipping-options`,
    {
      schema: {
        description: 'The shipping options, ordered by region then id; `region_id` keeps one region’s.',
        params: OrgSlugParams,
        querystring: ShippingOptionsQuery,
        response: { 200: listOf('shipping_options', ShippingOptionResponse) },
      },
      config: READ,
    },
    async (request) => ({
      shipping_options: await service.options(request.principal.orgId!, request.query.region_id),
    }),
  );
  app.post(
    `${base}/shipping-options`,
    {
      schema: {
        description:
          'Creates a shipping option of a region: `flat` with `amount`, or `weight` with `weight_rates`; amounts in major units of the region’s currency.',
        params: OrgSlugParams,
        body: CreateShippingOptionBody,
        response: { 201: ShippingOptionResponse },
      },
      config: WRITE,
    },
    async (request, reply) =>
      reply.code(201).send(await service.createOption(request.principal.orgId!, request.body)),
  );
  app.patch(
    `${base}/shipping-options/:shipping_option_id`,
    {
      schema: { params: option, body: UpdateShippingOptionBody, response: { 200: ShippingOptionResponse } },
      config: WRITE,
    },
    async (request) =>
      service.updateOption(request.principal.orgId!, request.params.shipping_option_id, request.body),
  );
  app.delete(
    `${base}/shipping-options/:shipping_option_id`,
    { schema: { params: option, response: { 200: Deleted } }, config: WRITE },
    async (request) => service.deleteOption(request.principal.orgId!, request.params.shipping_option_id),
  );
}
