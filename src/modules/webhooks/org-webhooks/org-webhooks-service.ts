import { randomBytes } from 'node:crypto';
import { invalidField, invalidFields, type ValidationProblem } from '../../../kernel/errors/app-error.ts';
import { refuseForbiddenDestination, type OutboundClient } from '../../../kernel/outbound/guarded-client.ts';
import type { FanOut } from '../delivery/delivery-engine.ts';
import { DeliveriesRepository } from '../delivery/deliveries-repository.ts';
import type { TargetKind } from '../webhooks-interfaces.ts';
import { ORG_POLICY } from '../delivery/retry-policies.ts';
import { isSubscribable, subscribed } from './webhook-event-names.ts';
import type { WebhooksContext } from '../webhooks-context.ts';
import { webhookNotFound } from '../webhooks-errors.ts';
import type { WebhookRow } from '../webhooks-tables.ts';
import { orgWebhookView, type OrgWebhookView } from './org-webhook-view.ts';
import { OrgWebhooksRepository } from './org-webhooks-repository.ts';

export const ORG_WEBHOOK_KIND = 'org_webhook';
const MAX_URL = 1024;

/** The sealing context binding a webhook's secret to its organization. */
export const webhookSecretContext = (orgId: number): string => `webhook-secret:${orgId}`;

/**
 * Organization webhooks (docs/webhooks.md, "Organization webhooks"): the routes' rules, the target
 * kind the delivery engine calls them as (policy `org`), and the fan-out of an organization's
 * outbox events to the webhooks subscribed to them.
 */
export class OrgWebhooksService {
  private readonly repo: OrgWebhooksRepository;
  private readonly deliveries: DeliveriesRepository;

  constructor(
    private readonly ctx: WebhooksContext,
    private readonly outbound: Pick<OutboundClient, 'refusal'>,
  ) {
    this.repo = new OrgWebhooksRepository(ctx.db);
    this.deliveries = new DeliveriesRepository(ctx.db);
  }

  async list(orgId: number): Promise<OrgWebhookView[]> {
    return (await this.repo.listOfOrg(orgId)).map(orgWebhookView);
  }

  async create(orgId: number, body: { url: string; events: string[] }): Promise<OrgWebhookView> {
    await this.check(body);
    const secret = randomBytes(32).toString('hex');
    const row = await this.repo.insert({
      org_id: orgId,
      url: body.url,
      events: [...new Set(body.events)],
      secret: this.ctx.sealer.sealText(secret, webhookSecretContext(orgId)),
      created_at: new Date(this.ctx.clock.now()),
    });
    return orgWebhookView(row);
  }

  async update(
    orgId: number,
    id: number,
    body: { url?: string; events?: string[]; is_active?: boolean },
  ): Promise<OrgWebhookView> {
    const row = await this.repo.findOfOrg(orgId, id);
    if (row === null) throw webhookNotFound();
    await this.check(body);
    await this.repo.update(row.id, {
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.events !== undefined ? { events: [...new Set(body.events)] } : {}),
      ...(body.is_active !== undefined ? { is_active: body.is_active } : {}),
      // Turning it on again resumes deliveries, with a clean count of failures.
      ...(body.is_active === true ? { failure_count: 0 } : {}),
    });
    if (body.is_active === false)
      await this.deliveries.stopPending(ORG_WEBHOOK_KIND, Number(row.id), new Date(this.ctx.clock.now()));
    return orgWebhookView((await this.repo.find(row.id))!);
  }

  async delete(orgId: number, id: number): Promise<{ id: number; deleted: true }> {
    const row = await this.repo.findOfOrg(orgId, id);
    if (row === null) throw webhookNotFound();
    const at = new Date(this.ctx.clock.now());
    await this.repo.markDeleted(row.id, at);
    // Deleting stops deliveries at once.
    await this.deliveries.stopPending(ORG_WEBHOOK_KIND, Number(row.id), at);
    return { id: Number(row.id), deleted: true };
  }

  /** The target kind the engine delivers organization webhooks as. */
  readonly target: TargetKind = {
    kind: ORG_WEBHOOK_KIND,
    policy: ORG_POLICY,
    find: async (id) => {
      const row = await this.repo.find(id);
      if (row === null) return null;
      return {
        url: row.url,
        secret: this.ctx.sealer.openText(row.secret, webhookSecretContext(Number(row.org_id))),
        active: row.is_active,
      };
    },
    recordSuccess: (id, at) => this.repo.recordSuccess(id, at),
    recordFailure: (id, at, _status, error) => this.repo.recordFailure(id, at, error),
    disable: (id) => this.repo.update(id, { is_active: false }),
  };

  /**
   * One delivery per subscribed, active webhook that existed when the event
   * occurred; body `{id, event, occurred_at, data}`, compact. One read of each organization's
   * webhooks per batch.
   */
  readonly fanOut: FanOut = async (trx, events) => {
    const repo = this.repo.withTx(trx);
    const byOrg = new Map<number, Promise<WebhookRow[]>>();
    const out: Awaited<ReturnType<FanOut>> = [];
    for (const event of events) {
      if (event.orgId === null) continue;
      let hooks = byOrg.get(event.orgId);
      if (hooks === undefined) byOrg.set(event.orgId, (hooks = repo.listeners(event.orgId)));
      const listeners = (await hooks).filter(
        (w) =>
          new Date(w.created_at).getTime() <= event.occurredAt.getTime() && subscribed(w.events, event.name),
      );
      if (listeners.length === 0) continue;
      const body = JSON.stringify({
        id: event.id,
        event: event.name,
        occurred_at: event.occurredAt.toISOString(),
        data: event.data,
      });
      for (const w of listeners)
        out.push({
          kind: ORG_WEBHOOK_KIND,
          targetId: Number(w.id),
          eventId: event.id,
          eventName: event.name,
          body,
        });
    }
    return out;
  };

  private async check(body: { url?: string; events?: string[] }): Promise<void> {
    const problems: ValidationProblem[] = [];
    if (body.url !== undefined) {
      if (!body.url.startsWith('https://')) {
        problems.push({
          type: 'value_error',
          loc: ['body', 'url'],
          msg: 'URL must start with https://',
          input: body.url,
          ctx: {},
        });
      } else if (body.url.length > MAX_URL) {
        throw invalidField(['body', 'url'], `URL must be at most ${MAX_URL} characters`, body.url);
      } else {
        try {
          new URL(body.url);
        } catch {
          problems.push({
            type: 'value_error',
            loc: ['body', 'url'],
            msg: 'Value is not a valid URL',
            input: body.url,
            ctx: {},
          });
        }
      }
    }
    if (body.events !== undefined) {
      if (body.events.length === 0)
        problems.push({
          type: 'too_short',
          loc: ['body', 'events'],
          msg: 'List should have at least 1 item',
          input: [],
          ctx: {},
        });
      body.events.forEach((name, i) => {
        if (!isSubscribable(name)) {
          problems.push({
            type: 'value_error',
            loc: ['body', 'events', i],
            msg: `Unknown event: ${name}`,
            input: name,
            ctx: {},
          });
        }
      });
    }
    if (problems.length > 0) throw invalidFields(problems);
    // A well-formed URL whose host is, or resolves now to, a private or reserved address.
    if (body.url !== undefined) await refuseForbiddenDestination(this.outbound, body.url, ['body', 'url']);
  }
}
