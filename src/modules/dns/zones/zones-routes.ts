import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { Type } from 'typebox';
import {
  CreateZoneBody,
  ListZonesQuery,
  UpdateZoneBody,
  ZoneDnssecResponse,
  RolloverBody,
  ZoneIdParams,
  ZoneResponse,
} from './zones-schemas.ts';
import type { ZonesService } from './zones-service.ts';

/** /zones: list, create, read, settings (SOA email, DNSSEC), delete, DNSSEC info. */
export function registerZoneRoutes(app: ModuleApp, service: ZonesService): void {
  app.get(
    '/zones',
    {
      schema: {
        summary:
          'The zones the caller may read (and its organizations’), by domain; org_slug: one organization’s',
        description:
          'Ordered by domain (each domain is one zone platform-wide), then paged by page and per_page.',
        querystring: ListZonesQuery,
        response: { 200: Type.Array(ZoneResponse), ...errorResponses(401, 422, 429) },
      },
    },
    async (request) =>
      service.list(await request.owner(), request.query.page, request.query.per_page, request.query.org_slug),
  );

  app.post(
    '/zones',
    {
      schema: {
        summary: 'Create a zone of the caller’s, or of an organization (org_slug) they own or administer',
        description:
          'A name on the public suffix list (ICANN or private section) is refused (422 on body.domain, ' +
          '`Zone name is a public suffix: co.uk`); so is a zone below or above a zone another account, ' +
          'organization or the platform holds (409 `Zone is inside a zone held by another account`). A zone ' +
          'below one of the same holder is delegated from the closest enclosing zone by managed NS records.',
        body: CreateZoneBody,
        response: { 201: ZoneResponse, ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const zone = await service.create(
        await request.owner(),
        request.body.domain,
        request.body.org_slug,
        request.body.service_id,
      );
      request.auditNote = { orgId: zone.org_id, resourceId: zone.id };
      return reply.code(201).send(zone);
    },
  );

  app.get(
    '/zones/:zone_id',
    {
      schema: {
        summary: 'One zone',
        params: ZoneIdParams,
        response: { 200: ZoneResponse, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.get(await request.owner(), request.params.zone_id),
  );

  app.patch(
    '/zones/:zone_id',
    {
      schema: {
        summary: 'Change the SOA mailbox, or turn DNSSEC on (with an algorithm) or off',
        params: ZoneIdParams,
        body: UpdateZoneBody,
        response: { 200: ZoneResponse, ...errorResponses(401, 403, 404, 413, 415, 422, 429) },
      },
    },
    async (request) => service.update(await request.owner(), request.params.zone_id, request.body),
  );

  app.delete(
    '/zones/:zone_id',
    {
      schema: {
        summary: 'Delete a zone and everything in it',
        params: ZoneIdParams,
        response: { 204: NoContent, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      await service.delete(await request.owner(), request.params.zone_id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/zones/:zone_id/dnssec',
    {
      schema: {
        description: 'The zone’s signing state; ds_records in the order of the keys (oldest KSK first).',
        summary: 'DNSSEC state of a zone: algorithm, key tags, the DS for the parent',
        params: ZoneIdParams,
        response: { 200: ZoneDnssecResponse, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.dnssec(await request.owner(), request.params.zone_id),
  );

  app.post(
    '/zones/:zone_id/dnssec/rollover',
    {
      config: { audit: 'dns.dnssec.ksk_rollover_start' },
      schema: {
        description:
          'Publishes a new KSK beside the active one (DNSKEY, CDS and CDNSKEY name both; ds_records lists both ' +
          'DS). The zone then asks the parent for the new DS once an hour through DNSSEC_PARENT_RESOLVER and moves ' +
          'on only once it has seen it for the DS TTL: rollover.state waiting_for_parent_ds → parent_ds_seen → ' +
          'retiring_old_key (the new KSK signs alone) → done (the old key leaves one DNSKEY TTL later).',
        summary: 'Start a KSK rollover (RFC 7583 double-DS)',
        params: ZoneIdParams,
        body: RolloverBody,
        response: { 200: ZoneDnssecResponse, ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request) => service.startKskRollover(await request.owner(), request.params.zone_id),
  );
}
