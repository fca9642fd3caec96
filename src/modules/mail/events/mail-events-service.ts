import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import type { RelayAccess } from '../relays/relay-access.ts';
import type { MailEventName } from './mail-event-names.ts';
import { mailEventView, type MailEventView } from './mail-event-view.ts';
import type { MailEventsRepository } from './mail-events-repository.ts';

/**
 * A relay's delivery events: the same bodies its webhooks receive, newest first — for a sender
 * without a webhook endpoint, and to look up one message by `queue_id`.
 */
export class MailEventsService {
  constructor(
    private readonly access: RelayAccess,
    private readonly repo: MailEventsRepository,
  ) {}

  async list(
    owner: OwnerScope,
    serviceId: number,
    query: { page: number; limit: number; queue_id?: string; event?: MailEventName },
  ): Promise<MailEventView[]> {
    await this.access.relayFor(owner, serviceId, 'read');
    const filter = {
      ...(query.queue_id !== undefined ? { queueId: query.queue_id.toUpperCase() } : {}),
      ...(query.event !== undefined ? { event: query.event } : {}),
    };
    const rows = await this.repo.page(serviceId, filter, query.limit, (query.page - 1) * query.limit);
    return rows.map(mailEventView);
  }
}
