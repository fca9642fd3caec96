import { beforeIdQuery } from '../../../kernel/paging/paging.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { beforeIdPage, OrgSlugParams } from '../shared/commerce-http-schemas.ts';
import type { ShopEventsRepository } from './shop-events-repository.ts';
import { EventResponse, eventView } from './shop-event-view.ts';

/** `GET .../commerce/events`: the shop's `commerce.*` events, newest first, paged by before_id. */
export function registerShopEventRoutes(app: ModuleApp, repo: ShopEventsRepository): void {
  app.get(
    '/:org_slug/commerce/events',
    {
      schema: {
        description:
          'The shop’s events (`commerce.<object>.<verb>`), newest first; page with before_id = the previous page’s next_before_id.',
        params: OrgSlugParams,
        querystring: beforeIdQuery(50, 200),
        response: { 200: beforeIdPage('events', EventResponse) },
      },
      config: { auth: { scope: 'commerce.store:read' } },
    },
    async (request) => {
      const { before_id, limit } = request.query;
      const page = await repo.page(request.principal.orgId!, before_id, limit);
      const events = page.rows.map(eventView);
      return { events, next_before_id: page.more ? events[events.length - 1]!.id : null };
    },
  );
}
