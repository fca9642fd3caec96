import type { AuditLog, AuditSubjectView } from '../../../kernel/audit/audit-log.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { StaffCaller } from '../access/staff-access.ts';
import type { StaffRole } from '../access/staff-roles.ts';
import { activityOwnOnly, activitySubjectRequired } from '../staff-errors.ts';

/** The activity route's query, as validated by its schema. */
export interface ActivityQuery {
  readonly customer_id?: number;
  readonly service_id?: number;
  readonly server_uuid?: string;
  readonly actor_id?: number;
  readonly action?: string;
  readonly resource_type?: string;
  /** `YYYY-MM-DD`, UTC, inclusive. */
  readonly since?: string;
  /** `YYYY-MM-DD`, UTC, inclusive (the whole day). */
  readonly until?: string;
  readonly q?: string;
  readonly limit: number;
  readonly offset: number;
}

/** Who reads what of the activity (docs/staff-console.md, "Activity"). */
type Visibility = 'all' | 'subject_or_own' | 'own';

const VISIBILITY: Readonly<Record<StaffRole, Visibility>> = {
  admin: 'all',
  billing: 'subject_or_own',
  tier3: 'subject_or_own',
  tier2: 'own',
  tier1: 'own',
};

const DAY_MS = 86_400_000;

/**
 * The organization's audit log as the staff console reads it: admins all of it; tier 3 and billing
 * what they name a customer, order (service) or server for, or their own actions; tiers 1 and 2
 * only their own actions (a query without `actor_id` is narrowed to them).
 */
export class ActivityService {
  constructor(private readonly audit: AuditLog) {}

  async list(
    caller: StaffCaller,
    query: ActivityQuery,
  ): Promise<{ items: AuditSubjectView[]; limit: number; offset: number; has_more: boolean }> {
    const actorUserId = this.actorFor(caller, query);
    const from = query.since === undefined ? undefined : dayStart(query.since);
    const before = query.until === undefined ? undefined : new Date(dayStart(query.until).getTime() + DAY_MS);
    if (from !== undefined && before !== undefined && before.getTime() <= from.getTime())
      throw invalidField(['query', 'until'], 'until is before since', query.until);
    const rows = await this.audit.search(caller.orgId, {
      ...(actorUserId !== undefined ? { actorUserId } : {}),
      ...(query.action !== undefined ? { action: query.action } : {}),
      ...(query.resource_type !== undefined ? { resourceType: query.resource_type } : {}),
      ...(query.customer_id !== undefined ? { customerId: query.customer_id } : {}),
      ...(query.service_id !== undefined ? { serviceId: query.service_id } : {}),
      ...(query.server_uuid !== undefined ? { serverUuid: query.server_uuid } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(before !== undefined ? { before } : {}),
      ...(query.q !== undefined ? { text: query.q } : {}),
      limit: query.limit + 1,
      offset: query.offset,
    });
    return {
      items: rows.slice(0, query.limit),
      limit: query.limit,
      offset: query.offset,
      has_more: rows.length > query.limit,
    };
  }

  /** Action names that occurred, by name: below tier 3 only the caller's own. */
  async actions(caller: StaffCaller): Promise<string[]> {
    const own = VISIBILITY[caller.role] === 'own';
    return this.audit.actionNames(caller.orgId, own ? caller.userId : undefined);
  }

  /** The actor the query is narrowed to, or a refusal for what the caller's role does not show. */
  private actorFor(caller: StaffCaller, query: ActivityQuery): number | undefined {
    const self = query.actor_id === caller.userId;
    switch (VISIBILITY[caller.role]) {
      case 'all':
        return query.actor_id;
      case 'subject_or_own': {
        const named =
          query.customer_id !== undefined ||
          query.service_id !== undefined ||
          query.server_uuid !== undefined;
        if (!named && !self) throw activitySubjectRequired();
        return query.actor_id;
      }
      case 'own':
        if (query.actor_id !== undefined && !self) throw activityOwnOnly();
        return caller.userId;
    }
  }
}

function dayStart(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}
