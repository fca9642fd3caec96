import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Logger } from '../log/logger.ts';

export interface AuditRow {
  id: number;
  org_id: number | null;
  actor_user_id: number | null;
  actor_realm: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  ip: string | null;
  created_at: Date;
}

export interface AuditTables {
  audit_log: AuditRow;
}

export interface AuditEntry {
  readonly orgId: number | null;
  readonly actorUserId: number | null;
  readonly actorRealm: string;
  /** `<module>.<resource>.<verb>` (`dns.record.create`) or `<module>.<verb>` (`org.create`). */
  readonly action: string;
  readonly resourceType?: string;
  readonly resourceId: string | number | null;
  readonly ip: string | null;
}

export interface AuditView {
  id: number;
  org_id: number | null;
  actor_user_id: number | null;
  actor_realm: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  ip: string | null;
  created_at: string;
}

/** What a route or its module tells the audit writer about the call (set during the request). */
export interface AuditNote {
  /** The organization the touched object belongs to, when the principal does not say it. */
  orgId?: number | null;
  resourceId?: string | number | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The audit action of a state-changing route (`dns.record.create`); false for calls that
     * change nothing the audit log speaks of (sign-in). Every POST/PUT/PATCH/DELETE declares one.
     */
    audit?: string | false;
  }
  interface FastifyRequest {
    /** Filled by the route's module when the principal alone does not name the organization. */
    auditNote: AuditNote | null;
  }
}

const ID_PARAM = /(_id|_slug|^domain)$/;

/** The resource type of an action: its middle word, or the module for two-word actions. */
export function resourceTypeOf(action: string): string {
  const parts = action.split('.');
  return parts.length >= 3 ? parts[parts.length - 2]! : parts[0]!;
}

/**
 * The one audit writer: after every successful (2xx) call of a route that declares an audit
 * action, one row — actor, realm, action, resource, ip, organization. A failure to write is
 * logged, never turned into an error of the call (the change itself is committed by then).
 */
export class AuditLog {
  constructor(
    private readonly db: Kysely<AuditTables>,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** `within`: a transaction of the change, so the entry exists exactly when the change does. */
  async record(entry: AuditEntry, within: Kysely<AuditTables> = this.db): Promise<void> {
    await within
      .insertInto('audit_log')
      .values({
        org_id: entry.orgId,
        actor_user_id: entry.actorUserId,
        actor_realm: entry.actorRealm,
        action: entry.action,
        resource_type: entry.resourceType ?? resourceTypeOf(entry.action),
        resource_id: entry.resourceId === null ? null : String(entry.resourceId),
        ip: entry.ip,
        created_at: new Date(this.clock.now()),
      } as never)
      .execute();
  }

  /** An organization's entries, newest first. */
  async list(orgId: number, limit: number, offset: number): Promise<AuditView[]> {
    const rows = await this.db
      .selectFrom('audit_log')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({
      ...r,
      id: Number(r.id),
      org_id: r.org_id === null ? null : Number(r.org_id),
      actor_user_id: r.actor_user_id === null ? null : Number(r.actor_user_id),
      created_at: new Date(r.created_at).toISOString(),
    }));
  }

  install(app: FastifyInstance): void {
    app.decorateRequest('auditNote', null);
    app.addHook('onSend', async (request, reply, payload) => {
      const action = request.routeOptions.config.audit;
      if (typeof action !== 'string' || reply.statusCode >= 300 || reply.statusCode < 200) return payload;
      // Before the answer leaves: a caller that reads the audit log next sees its own call.
      await this.record(this.entryOf(request, action, payload)).catch((error: unknown) => {
        this.log.error({ err: error, action }, 'audit entry not written');
      });
      return payload;
    });
  }

  private entryOf(request: FastifyRequest, action: string, payload: unknown): AuditEntry {
    const principal = request.principal;
    const note = request.auditNote ?? {};
    return {
      orgId: note.orgId !== undefined ? note.orgId : (principal?.orgId ?? null),
      actorUserId: principal?.userId ?? null,
      actorRealm: principal?.realm ?? 'main',
      action,
      resourceId: note.resourceId !== undefined ? note.resourceId : resourceIdOf(request, payload),
      ip: request.ip,
    };
  }
}

/** The id of the touched object: the answer's `id`, else the last id-like path parameter. */
function resourceIdOf(request: FastifyRequest, payload: unknown): string | number | null {
  if (typeof payload === 'string' && payload.startsWith('{')) {
    try {
      const id = (JSON.parse(payload) as { id?: unknown }).id;
      if (typeof id === 'number' || typeof id === 'string') return id;
    } catch {
      // not JSON: fall through to the path
    }
  }
  const params = (request.params ?? {}) as Record<string, unknown>;
  const keys = Object.keys(params).filter((k) => ID_PARAM.test(k));
  const last = keys[keys.length - 1];
  return last === undefined ? null : String(params[last]);
}
