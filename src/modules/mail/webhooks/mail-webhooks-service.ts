import { randomBytes } from 'node:crypto';
import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import { refuseForbiddenDestination, type OutboundClient } from '../../../kernel/outbound/guarded-client.ts';
import { MAIL_POLICY, sortedJson, type TargetKind } from '../../webhooks/index.ts';
import type { MailDelivery, MailFanOut } from '../events/mail-event-recorder.ts';
import { MAIL_WEBHOOK_KIND, SUBSCRIBABLE_EVENTS } from '../events/mail-event-names.ts';
import { mailEventView } from '../events/mail-event-view.ts';
import type { MailContext } from '../mail-context.ts';
import { webhookLimit, webhookNotFound } from '../mail-errors.ts';
import type { RelayAccess } from '../relays/relay-access.ts';
import type { RelaysRepository } from '../relays/relays-repository.ts';
import { mailWebhookView, type MailWebhookView } from './mail-webhook-view.ts';
import type { MailWebhooksRepository } from './mail-webhooks-repository.ts';

/** 10 webhooks per relay, disabled ones counted (docs/mail.md, "Limits"). */
export const MAX_WEBHOOKS = 10;

const secretContext = (serviceId: number): string => `mail-webhook:${serviceId}`;

/**
 * Unknown event names are dropped; an empty list, or one with no known name, means all six (in
 * the order of SUBSCRIBABLE_EVENTS).
 */
export function webhookEvents(input: readonly string[] | undefined): string[] {
  const known = new Set((input ?? []).filter((e) => (SUBSCRIBABLE_EVENTS as readonly string[]).includes(e)));
  return known.size === 0 ? [...SUBSCRIBABLE_EVENTS] : SUBSCRIBABLE_EVENTS.filter((e) => known.has(e));
}

/** A webhook's URL: https:// with a host. */
function checkUrl(input: string): void {
  let url: URL | null = null;
  try {
    url = new URL(input);
  } catch {
    url = null;
  }
  if (!input.startsWith('https://') || url === null || url.hostname === '') {
    throw invalidField(['body', 'url'], 'URL must start with https://', input);
  }
}

/**
 * Mail webhooks of a relay (base /client/smtp-relay/{service_id}/webhooks), the target kind the
 * delivery engine calls them as (the mail policy), and the fan-out of recorded events to them.
 * States: a failed attempt raises `failure_count` (failing), a success resets it
 * (healthy), 50 failures in a row disable it for good (no route enables it again), deleting
 * removes it — its waiting deliveries find no target and are stopped unsent.
 */
export class MailWebhooksService {
  constructor(
    private readonly ctx: MailContext,
    private readonly access: RelayAccess,
    private readonly relays: RelaysRepository,
    private readonly repo: MailWebhooksRepository,
    private readonly outbound: Pick<OutboundClient, 'refusal'>,
  ) {}

  async list(owner: OwnerScope, serviceId: number): Promise<MailWebhookView[]> {
    await this.access.relayFor(owner, serviceId, 'read');
    return (await this.repo.listOf(serviceId)).map(mailWebhookView);
  }

  async create(
    owner: OwnerScope,
    serviceId: number,
    body: { url: string; events?: string[] },
  ): Promise<MailWebhookView & { secret: string }> {
    await this.access.relayFor(owner, serviceId, 'write');
    checkUrl(body.url);
    await refuseForbiddenDestination(this.outbound, body.url, ['body', 'url']);
    const secret = randomBytes(32).toString('hex');
    const row = await this.ctx.transaction(async ({ trx }) => {
      // Under the relay's row lock: two creations at once cannot make an eleventh.
      await this.relays.withTx(trx).lock(serviceId);
      const repo = this.repo.withTx(trx);
      if ((await repo.count(serviceId)) >= MAX_WEBHOOKS) throw webhookLimit();
      return repo.insert({
        service_id: serviceId,
        url: body.url,
        events: webhookEvents(body.events),
        secret: this.ctx.sealer.sealText(secret, secretContext(serviceId)),
        created_at: new Date(this.ctx.clock.now()),
      });
    });
    return { ...mailWebhookView(row), secret };
  }

  async delete(owner: OwnerScope, serviceId: number, id: number): Promise<void> {
    await this.access.relayFor(owner, serviceId, 'write');
    if (!(await this.repo.delete(serviceId, id))) throw webhookNotFound();
  }

  readonly target: TargetKind = {
    kind: MAIL_WEBHOOK_KIND,
    policy: MAIL_POLICY,
    find: async (id) => {
      const row = await this.repo.find(id);
      if (row === null) return null;
      return {
        url: row.url,
        secret: this.ctx.sealer.openText(row.secret, secretContext(Number(row.service_id))),
        active: row.enabled,
      };
    },
    recordSuccess: (id, at, status) => this.repo.recordSuccess(id, status, at),
    recordFailure: (id, at, status, error) => this.repo.recordFailure(id, status, at, error),
    disable: (id) => this.repo.disable(id),
  };

  /** One delivery per enabled webhook of the relay subscribed to the event (`suppressed` is never sent). */
  readonly fanOut: MailFanOut = async (trx, rows) => {
    const repo = this.repo.withTx(trx);
    const deliveries: MailDelivery[] = [];
    for (const row of rows) {
      if (row.event === 'suppressed') continue;
      for (const id of await repo.listeners(Number(row.service_id), row.event)) {
        deliveries.push({
          kind: MAIL_WEBHOOK_KIND,
          targetId: id,
          eventId: Number(row.id),
          eventName: row.event,
          body: sortedJson(mailEventView(row)),
        });
      }
    }
    return deliveries;
  };
}
