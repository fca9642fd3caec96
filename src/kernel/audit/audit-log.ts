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
  /** The subjects the route named (migrations/202611300630_staff_activity_audit_subjects.sql). */
  customer_id: number | null;
  service_id: number | null;
  server_uuid: string | null;
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
  /** The storefront customer, service and server the action touched, when the route knows them. */
  readonly subjects?: AuditSubjects;
}

/** What an entry is about beyond its resource: filled from the route's note or its path parameters. */
export interface AuditSubjects {
  readonly customerId?: number | null;
  readonly serviceId?: number | null;
  readonly serverUuid?: string | null;
}

/** How an organization's entries are searched (AuditLog.search); every filter set must hold. */
export interface AuditSearch {
  readonly actorUserId?: number;
  readonly action?: string;
  readonly resourceType?: string;
  /** Entries of the customer: those naming it as subject, and those whose resource is the customer. */
  readonly customerId?: number;
  /** Entries of the service: its subject, or the service as resource. */
  readonly serviceId?: number;
  /** Entries of the server: its subject, or a server or instance resource of that uuid. */
  readonly serverUuid?: string;
  /** From this instant (inclusive). */
  readonly from?: Date;
  /** Before this instant (exclusive). */
  readonly before?: Date;
  /** A piece of the action, resource type or resource id (case-insensitive). */
  readonly text?: string;
  readonly limit: number;
  readonly offset: number;
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
export interface AuditNote extends AuditSubjects {
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
    /** The path parameter naming the server or instance the call touches (`uuid`): its `server_uuid`. */
    auditServerParam?: string;
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
        customer_id: entry.subjects?.customerId ?? null,
        service_id: entry.subjects?.serviceId ?? null,
        server_uuid: entry.subjects?.serverUuid ?? null,
      } as never)
      .execute();
  }

  /** An organization's entries, newest first. */
  async list(orgId: number, limit: number, offset: number): Promise<AuditView[]> {
    const rows = await this.db
      .selectFrom('audit_log')
      .select(VIEW_COLUMNS)
      .where('org_id', '=', orgId)
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map(viewOf);
  }

  /** An organization's entries that match `search`, newest first (ties by id), with their subjects. */
  async search(orgId: number, search: AuditSearch): Promise<AuditSubjectView[]> {
    let q = this.db
      .selectFrom('audit_log')
      .select([...VIEW_COLUMNS, 'customer_id', 'service_id', 'server_uuid'])
      .where('org_id', '=', orgId);
    if (search.actorUserId !== undefined) q = q.where('actor_user_id', '=', search.actorUserId);
    if (search.action !== undefined) q = q.where('action', '=', search.action);
    if (search.resourceType !== undefined) q = q.where('resource_type', '=', search.resourceType);
    if (search.from !== undefined) q = q.where('created_at', '>=', search.from);
    if (search.before !== undefined) q = q.where('created_at', '<', search.before);
    const { customerId, serviceId, serverUuid, text } = search;
    if (customerId !== undefined)
      q = q.where((eb) =>
        eb.or([
          eb('customer_id', '=', customerId),
          eb.and([eb('resource_type', '=', 'customer'), eb('resource_id', '=', String(customerId))]),
        ]),
      );
    if (serviceId !== undefined)
      q = q.where((eb) =>
        eb.or([
          eb('service_id', '=', serviceId),
          eb.and([eb('resource_type', '=', 'service'), eb('resource_id', '=', String(serviceId))]),
        ]),
      );
    if (serverUuid !== undefined)
      q = q.where((eb) =>
        eb.or([
          eb('server_uuid', '=', serverUuid),
          eb.and([eb('resource_type', 'in', ['server', 'instance']), eb('resource_id', '=', serverUuid)]),
        ]),
      );
    if (text !== undefined && text !== '') {
      const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where((eb) =>
        eb.or([
          eb('action', 'ilike', like),
          eb('resource_type', 'ilike', like),
          eb('resource_id', 'ilike', like),
        ]),
      );
    }
    const rows = await q.orderBy('id', 'desc').limit(search.limit).offset(search.offset).execute();
    return rows.map((r) => ({
      ...viewOf(r),
      customer_id: r.customer_id === null ? null : Number(r.customer_id),
      service_id: r.service_id === null ? null : Number(r.service_id),
      server_uuid: r.server_uuid,
    }));
  }

  /** The distinct actions of an organization's entries (of one actor when given), by name. */
  async actionNames(orgId: number, actorUserId?: number): Promise<string[]> {
    let q = this.db.selectFrom('audit_log').select('action').distinct().where('org_id', '=', orgId);
    if (actorUserId !== undefined) q = q.where('actor_user_id', '=', actorUserId);
    const rows = await q.orderBy('action').execute();
    return rows.map((r) => r.action);
  }

  install(app: FastifyInstance): void {
    app.decorateRequest('auditNote', null);
    // A callback hook: every answer passes it, and most (the reads) write nothing.
    app.addHook('onSend', (request, reply, payload, done) => {
      const action = request.routeOptions.config.audit;
      if (typeof action !== 'string' || reply.statusCode >= 300 || reply.statusCode < 200)
        return done(null, payload);
      // Before the answer leaves: a caller that reads the audit log next sees its own call.
      void this.record(this.entryOf(request, action, payload))
        .catch((error: unknown) => {
          this.log.error({ err: error, action }, 'audit entry not written');
        })
        .then(() => done(null, payload));
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
      subjects: subjectsOf(request, note),
    };
  }
}

const VIEW_COLUMNS = [
  'id',
  'org_id',
  'actor_user_id',
  'actor_realm',
  'action',
  'resource_type',
  'resource_id',
  'ip',
  'created_at',
] as const;

/** An entry with the subjects it names (the staff console's activity). */
export interface AuditSubjectView extends AuditView {
  customer_id: number | null;
  service_id: number | null;
  server_uuid: string | null;
}

function viewOf(r: Omit<AuditRow, 'customer_id' | 'service_id' | 'server_uuid'>): AuditView {
  return {
    ...r,
    id: Number(r.id),
    org_id: r.org_id === null ? null : Number(r.org_id),
    actor_user_id: r.actor_user_id === null ? null : Number(r.actor_user_id),
    created_at: new Date(r.created_at).toISOString(),
  };
}

/**
 * A module's routes whose path has `:param` name their server or instance by it: each call's entry
 * records it as `server_uuid` (call in the module's `routes`, before declaring them).
 */
export function auditServerParam(app: FastifyInstance, param: string): void {
  app.addHook('onRoute', (route) => {
    if (route.url.split('/').includes(`:${param}`))
      route.config = { ...route.config, auditServerParam: param };
  });
}

/**
 * The note's subjects, else the path's `customer_id`, `service_id` and server parameters (the
 * route's `auditServerParam`, else `server_uuid`).
 */
function subjectsOf(request: FastifyRequest, note: AuditNote): AuditSubjects {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const idParam = (key: string): number | null => {
    const v = Number(params[key]);
    return Number.isSafeInteger(v) && v > 0 ? v : null;
  };
  const uuid = params[request.routeOptions.config.auditServerParam ?? 'server_uuid'];
  return {
    customerId: note.customerId !== undefined ? note.customerId : idParam('customer_id'),
    serviceId: note.serviceId !== undefined ? note.serviceId : idParam('service_id'),
    serverUuid: note.serverUuid !== undefined ? note.serverUuid : typeof uuid === 'string' ? uuid : null,
  };
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
