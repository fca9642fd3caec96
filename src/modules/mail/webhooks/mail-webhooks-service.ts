import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import { MAIL_POLICY, type TargetKind } from '../../webhooks/index.ts';
import { MAIL_WEBHOOK_KIND, SUBSCRIBABLE_EVENTS } from '../events/mail-event-names.ts';
import type { MailContext } from '../mail-context.ts';
import { webhookLimit, webhookNotFound } from '../mail-errors.ts';
import type { MailWebhookRow } from '../mail-tables.ts';
import type { RelayAccess } from '../relays/relay-access.ts';

/** Seed "Limits": 10 webhooks per relay, disabled ones counted. */
export const MAX_WEBHOOKS = 10;

export interface MailWebhookView {
  id: number;
  url: string;
  events: string[];
  enabled: boolean;
  failure_count: number;
  last_status: number | null;
  last_delivered_at: string | null;
  created_at: string;
}

function view(row: MailWebhookRow): MailWebhookView {
  return {
    id: Number(row.id),
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    failure_count: Number(row.failure_count),
    last_status: row.last_status === null ? null : Number(row.last_status),
    last_delivered_at: row.last_delivered_at === null ? null : new Date(row.last_delivered_at).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
  };
}

const secretContext = (serviceId: number): string => `mail-webhook:${serviceId}`;

/**
 * Seed "Mail webhooks": unknown event names are dropped; an empty list, or one with no known name,
 * means all six (in the seed's order).
 */
export function webhookEvents(input: readonly string[] | undefined): string[] {
  const known = new Set((input ?? []).filter((e) => (SUBSCRIBABLE_EVENTS as readonly string[]).includes(e)));
  return known.size === 0 ? [...SUBSCRIBABLE_EVENTS] : SUBSCRIBABLE_EVENTS.filter((e) => known.has(e));
}

/**
 * Mail webhooks of a relay (base /client/smtp-relay/{service_id}/webhooks) and the target kind the
 * delivery engine calls them as (the mail policy). States (seed table): a failed attempt raises
 * `failure_count` (failing), a success resets it (healthy), 50 failures in a row disable it for
 * good (no route enables it again), deleting removes it — its waiting deliveries find no target
 * and are stopped unsent.
 */
export class MailWebhooksService {
  constructor(
    private readonly ctx: MailContext,
    private readonly access: RelayAccess,
  ) {}

  async list(owner: OwnerScope, serviceId: number): Promise<MailWebhookView[]> {
    await this.access.relayFor(owner, serviceId, 'read');
    const rows = await this.ctx.db
      .selectFrom('mail_webhooks')
      .selectAll()
      .where('service_id', '=', serviceId)
      .orderBy('id')
      .execute();
    return rows.map(view);
  }

  async create(
    owner: OwnerScope,
    serviceId: number,
    body: { url: string; events?: string[] },
  ): Promise<MailWebhookView & { secret: string }> {
    await this.access.relayFor(owner, serviceId, 'write');
    let url: URL | null = null;
    try {
      url = new URL(body.url);
    } catch {
      url = null;
    }
    if (!body.url.startsWith('https://') || url === null || url.hostname === '') {
      throw invalidField(['body', 'url'], 'URL must start with https://', body.url);
    }
    const secret = randomBytes(32).toString('hex');
    const row = await this.ctx.transaction(async ({ trx }) => {
      // Under the relay's row lock: two creations at once cannot make an eleventh.
      await trx
        .selectFrom('mail_relays')
        .select('service_id')
        .where('service_id', '=', serviceId)
        .forUpdate()
        .execute();
      const count = await trx
        .selectFrom('mail_webhooks')
        .select(sql<string>`count(*)`.as('n'))
        .where('service_id', '=', serviceId)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_WEBHOOKS) throw webhookLimit();
      return trx
        .insertInto('mail_webhooks')
        .values({
          service_id: serviceId,
          url: body.url,
          events: webhookEvents(body.events),
          secret: this.ctx.sealer.sealText(secret, secretContext(serviceId)),
          created_at: new Date(this.ctx.clock.now()),
        } as never)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return { ...view(row), secret };
  }

  async delete(owner: OwnerScope, serviceId: number, id: number): Promise<void> {
    await this.access.relayFor(owner, serviceId, 'write');
    const res = await this.ctx.db
      .deleteFrom('mail_webhooks')
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) throw webhookNotFound();
  }

  readonly target: TargetKind = {
    kind: MAIL_WEBHOOK_KIND,
    policy: MAIL_POLICY,
    find: async (id) => {
      const row = await this.ctx.db
        .selectFrom('mail_webhooks')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      if (row === undefined) return null;
      return {
        url: row.url,
        secret: this.ctx.sealer.openText(row.secret, secretContext(Number(row.service_id))),
        active: row.enabled,
      };
    },
    recordSuccess: async (id, at, status) => {
      await this.ctx.db
        .updateTable('mail_webhooks')
        .set({ failure_count: 0, last_status: status, last_delivered_at: at })
        .where('id', '=', id)
        .execute();
    },
    recordFailure: async (id, _at, status) => {
      const row = await this.ctx.db
        .updateTable('mail_webhooks')
        .set({ failure_count: sql`failure_count + 1`, last_status: status })
        .where('id', '=', id)
        .returning('failure_count')
        .executeTakeFirst();
      return row === undefined ? 0 : Number(row.failure_count);
    },
    disable: async (id) => {
      await this.ctx.db.updateTable('mail_webhooks').set({ enabled: false }).where('id', '=', id).execute();
    },
  };
}
