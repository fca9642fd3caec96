import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { OrgDirectory } from '../../orgs/index.ts';
import { orgNotFound } from '../analytics-errors.ts';
import { scriptEtag, scriptSource } from './script-source.ts';
import type { SitesService } from './sites-service.ts';

/** A day, and a week more while it is revalidated: the key never changes. */
const CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';

/**
 * GET /orgs/{org_slug}/tracking/script: the organization's tracking script with its public site
 * key (made on first use). Public: a storefront page loads it, and the key in it is public anyway.
 */
export function registerSitesRoutes(app: ModuleApp, sites: SitesService, orgs: OrgDirectory): void {
  app.get(
    '/orgs/:org_slug/tracking/script',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'The tracking script a storefront page includes (JavaScript, cached a day, ETag)',
        params: Type.Object({ org_slug: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: {
          200: Type.String({ description: 'application/javascript' }),
          304: Type.Null(),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const org = await orgs.bySlug(request.params.org_slug);
      if (org === null) throw orgNotFound();
      const source = scriptSource(await sites.keyOf(org.id));
      const etag = scriptEtag(source);
      reply.header('cache-control', CACHE_CONTROL).header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      return reply.type('application/javascript; charset=utf-8').send(source);
    },
  );
}
