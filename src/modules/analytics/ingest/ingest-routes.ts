import { Type } from 'typebox';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { SitesService } from '../sites/sites-service.ts';
import { ingestBudget } from './ingest-budget.ts';
import { Accepted, HitBody, SiteParams } from './ingest-schemas.ts';
import { isBot, type IngestService } from './ingest-service.ts';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type',
  'access-control-max-age': '86400',
};

/**
 * POST /t/{site_key}: the public ingestion route the tracking script sends to. No token, open to
 * every origin; 202 for what it takes and for what it drops (Do Not Track, bots).
 */
export function registerIngestRoutes(app: ModuleApp, sites: SitesService, ingest: IngestService): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.routeOptions.url?.endsWith('/t/:site_key')) reply.headers(CORS);
    done(null, payload);
  });
  app.options(
    '/t/:site_key',
    {
      config: { auth: 'public', audit: false },
      schema: {
        summary: 'The CORS preflight of the ingestion route',
        params: SiteParams,
        response: { 204: Type.Null() },
      },
    },
    async (_request, reply) => reply.code(204).send(null),
  );
  app.post(
    '/t/:site_key',
    {
      config: { auth: 'public', audit: false, budget: ingestBudget },
      schema: {
        summary: 'Takes one page view or event from the tracking script (10 a second per client address)',
        params: SiteParams,
        body: HitBody,
        response: { 202: Accepted, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const orgId = await sites.orgOf(request.params.site_key);
      const body = request.body;
      if (body.link !== undefined && body.name !== 'link')
        throw invalidField(['body', 'link'], 'link goes with name "link"', body.link);
      if (body.name === 'link' && body.link === undefined)
        throw invalidField(['body', 'link'], 'Field required', null, 'missing');
      const ua = request.headers['user-agent'];
      if (request.headers.dnt !== '1' && !isBot(ua))
        await ingest.accept(orgId, request.ip, ua!, {
          name: body.name,
          url: body.url,
          referrer: body.referrer,
          screenWidth: body.screen_width,
          props: body.props,
          link: body.link,
        });
      return reply.code(202).send({});
    },
  );
}
