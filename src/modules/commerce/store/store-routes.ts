import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { Deleted, idParams, listOf, OrgSlugParams } from '../shared/commerce-http-schemas.ts';
import {
  CreatePublishableKeyBody,
  CreateSalesChannelBody,
  NewPublishableKeyResponse,
  PublishableKeyResponse,
  SalesChannelResponse,
  StoreResponse,
  UpdateSalesChannelBody,
  UpdateStoreBody,
} from './store-schemas.ts';
import type { StoreService } from './store-service.ts';

const READ = { auth: { scope: 'commerce.store:read' } } as const;
const WRITE = { auth: { scope: 'commerce.store:write' } } as const;
/** Sales channels are read with the catalogue (docs/commerce.md, "Scopes"). */
const CATALOG_READ = { auth: { scope: 'commerce.catalog:read' } } as const;

/** Store settings, sales channels and publishable keys (docs/commerce.md, "Store"). */
export function registerStoreRoutes(app: ModuleApp, service: StoreService): void {
  const base = '/:org_slug/commerce';
  app.get(
    `${base}/store`,
    {
      schema: {
        description: 'The store’s settings.',
        params: OrgSlugParams,
        response: { 200: StoreResponse },
      },
      config: READ,
    },
    async (request) => service.settings(request.principal.orgId!),
  );
  app.patch(
    `${base}/store`,
    {
      schema: {
        description: 'Changes the store’s settings; an unknown currency answers 422.',
        params: OrgSlugParams,
        body: UpdateStoreBody,
        response: { 200: StoreResponse },
      },
      config: WRITE,
    },
    async (request) => service.updateSettings(request.principal.orgId!, request.body),
  );

  const channelParams = idParams('sales_channel_id');
  app.get(
    `${base}/sales-channels`,
    {
      schema: {
        description: 'The sales channels, oldest first.',
        params: OrgSlugParams,
        response: { 200: listOf('sales_channels', SalesChannelResponse) },
      },
      config: CATALOG_READ,
    },
    async (request) => ({ sales_channels: await service.channels(request.principal.orgId!) }),
  );
  app.post(
    `${base}/sales-channels`,
    {
      schema: {
        params: OrgSlugParams,
        body: CreateSalesChannelBody,
        response: { 201: SalesChannelResponse },
      },
      config: WRITE,
    },
    async (request, reply) =>
      reply.code(201).send(await service.createChannel(request.principal.orgId!, request.body)),
  );
  app.get(
    `${base}/sales-channels/:sales_channel_id`,
    { schema: { params: channelParams, response: { 200: SalesChannelResponse } }, config: CATALOG_READ },
    async (request) => service.channel(request.principal.orgId!, request.params.sales_channel_id),
  );
  app.patch(
    `${base}/sales-channels/:sales_channel_id`,
    {
      schema: {
        params: channelParams,
        body: UpdateSalesChannelBody,
        response: { 200: SalesChannelResponse },
      },
      config: WRITE,
    },
    async (request) =>
      service.updateChannel(request.principal.orgId!, request.params.sales_channel_id, request.body),
  );
  app.delete(
    `${base}/sales-channels/:sales_channel_id`,
    {
      schema: {
        description: 'Deletes a sales channel no publishable key names (else 409).',
        params: channelParams,
        response: { 200: Deleted, ...errorResponses(409) },
      },
      config: WRITE,
    },
    async (request) => service.deleteChannel(request.principal.orgId!, request.params.sales_channel_id),
  );

  app.get(
    `${base}/publishable-keys`,
    {
      schema: {
        description: 'The publishable keys, newest first, revoked ones included; never the key itself.',
        params: OrgSlugParams,
        response: { 200: listOf('publishable_keys', PublishableKeyResponse) },
      },
      config: READ,
    },
    async (request) => ({ publishable_keys: await service.keys(request.principal.orgId!) }),
  );
  app.post(
    `${base}/publishable-keys`,
    {
      schema: {
        description:
          'Creates a publishable key (`pk_test_…` or `pk_live_…`) bound to one sales channel: the answer carries the key, the only time it is shown.',
        params: OrgSlugParams,
        body: CreatePublishableKeyBody,
        response: { 201: NewPublishableKeyResponse },
      },
      config: WRITE,
    },
    async (request, reply) =>
      reply.code(201).send(await service.createKey(request.principal.orgId!, request.body)),
  );
  app.post(
    `${base}/publishable-keys/:publishable_key_id/revoke`,
    {
      schema: {
        description:
          'Revokes a publishable key: the Store API refuses it from then on. Revoking twice is harmless.',
        params: idParams('publishable_key_id'),
        response: { 200: PublishableKeyResponse },
      },
      config: WRITE,
    },
    async (request) => service.revokeKey(request.principal.orgId!, request.params.publishable_key_id),
  );
}
