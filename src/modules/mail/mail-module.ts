import type { AuthLayer } from '../../kernel/auth/auth-layer.ts';
import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { CatalogOffers } from '../catalog/index.ts';
import type { ManagedRecords } from '../dns/index.ts';
import type { ServiceDirectory, ServiceProvisioner } from '../services/index.ts';
import type { DeliveryEngine } from '../webhooks/index.ts';
import { SendingDomainsRepository } from './domains/sending-domains-repository.ts';
import { SendingDomainsService } from './domains/sending-domains-service.ts';
import { registerSendingDomainRoutes } from './domains/sending-domains-routes.ts';
import { MailEventRecorder, type NewMailEvent } from './events/mail-event-recorder.ts';
import { MailEventsRepository } from './events/mail-events-repository.ts';
import { registerMailEventRoutes } from './events/mail-events-routes.ts';
import { MailEventsService } from './events/mail-events-service.ts';
import { InboundListener } from './inbound/inbound-listener.ts';
import { ReportIntake } from './inbound/report-intake.ts';
import { mailContext } from './mail-context.ts';
import type { EventRow } from './mail-tables.ts';
import { RelayKeyCheck } from './relay-keys/relay-key-check.ts';
import { RelayKeysRepository } from './relay-keys/relay-keys-repository.ts';
import { registerRelayKeyRoutes } from './relay-keys/relay-keys-routes.ts';
import { RelayKeysService } from './relay-keys/relay-keys-service.ts';
import { RelayAccess } from './relays/relay-access.ts';
import { RelaysRepository } from './relays/relays-repository.ts';
import { smtpRelayProvisioner } from './relays/smtp-relay-provisioner.ts';
import { MessagesRepository } from './sending/messages-repository.ts';
import { createHandoff } from './sending/mta-handoff.ts';
import { OutgoingQueue } from './sending/outgoing-queue.ts';
import { registerSendRoutes } from './sending/send-routes.ts';
import { SendService } from './sending/send-service.ts';
import { registerSuppressionRoutes } from './suppressions/suppressions-routes.ts';
import { SuppressionsRepository } from './suppressions/suppressions-repository.ts';
import { SuppressionsService } from './suppressions/suppressions-service.ts';
import { registerUnsubscribeRoutes } from './unsubscribe/unsubscribe-routes.ts';
import { UnsubscribeService } from './unsubscribe/unsubscribe-service.ts';
import { MailWebhooksRepository } from './webhooks/mail-webhooks-repository.ts';
import { registerMailWebhookRoutes } from './webhooks/mail-webhooks-routes.ts';
import { MailWebhooksService } from './webhooks/mail-webhooks-service.ts';

export interface MailModuleDeps {
  readonly auth: AuthLayer;
  readonly services: ServiceDirectory;
  readonly catalog: CatalogOffers;
  readonly dns: ManagedRecords;
  readonly engine: DeliveryEngine;
}

export interface MailModule extends PlatformModule {
  /** The services registry makes and ends relays through it. */
  readonly provisioner: ServiceProvisioner;
  /** The outgoing queue (tests wait for it, or run a round after moving the clock). */
  readonly queue: OutgoingQueue;
  /** The inbound listener's port once started (MAIL_INBOUND_PORT), else null. */
  inboundPort(): number | null;
  /** Records events in a transaction of their own (the report intake's path, for tests). */
  recordEvents(events: readonly NewMailEvent[]): Promise<EventRow[]>;
}

/**
 * The mail relay (issue 19): relay keys, sending domains with DKIM, sending over HTTPS through an
 * MTA, delivery events from DSNs and feedback reports, suppressions, one-click unsubscribe and
 * mail webhooks. Routes under /api/v1/client/smtp-relay and /api/v1/mail.
 */
export function createMailModule(runtime: Runtime, deps: MailModuleDeps): MailModule {
  const ctx = mailContext(runtime);
  const relays = new RelaysRepository(ctx.db);
  const suppressions = new SuppressionsRepository(ctx.db);
  const access = new RelayAccess(deps.services, relays);
  const relayKeys = new RelayKeysRepository(ctx.db);
  const keys = new RelayKeysService(ctx, access, relayKeys);
  const keyCheck = new RelayKeyCheck(relayKeys, ctx.clock);
  keyCheck.install(deps.auth);
  const events = new MailEventsRepository(ctx.db);
  const webhooks = new MailWebhooksService(ctx, access, relays, new MailWebhooksRepository(ctx.db));
  const recorder = new MailEventRecorder(ctx, deps.engine, events, suppressions, webhooks.fanOut);
  deps.engine.registerTarget(webhooks.target);
  const domains = new SendingDomainsService(ctx, access, deps.dns, new SendingDomainsRepository(ctx.db));
  const signingKeys = (serviceId: number, domain: string) => domains.signingKeyFor(serviceId, domain);
  const handoff = createHandoff(ctx.settings.relaySmtpUrl, ctx.config.dataDir, ctx.log);
  const messages = new MessagesRepository(ctx.db);
  const queue = new OutgoingQueue(ctx, handoff, signingKeys, recorder, messages);
  const send = new SendService(ctx, signingKeys, recorder, queue, { relays, suppressions, messages });
  const listener = new InboundListener(ctx, new ReportIntake(ctx, recorder, messages));
  let listening: number | null = null;
  const provisioner = smtpRelayProvisioner(relays, deps.catalog, async (serviceId) => {
    await relayKeys.deleteAll(serviceId);
    await domains.removeAllFor(serviceId);
  });
  return {
    name: 'mail',
    prefix: '',
    provisioner,
    queue,
    inboundPort: () => listening,
    recordEvents: (newEvents) => recorder.recordNow(newEvents),
    routes(app) {
      registerRelayKeyRoutes(app, keys);
      registerSendingDomainRoutes(app, domains);
      registerSendRoutes(app, send, keyCheck);
      registerSuppressionRoutes(app, new SuppressionsService(access, suppressions));
      registerMailEventRoutes(app, new MailEventsService(access, events));
      registerMailWebhookRoutes(app, webhooks);
      registerUnsubscribeRoutes(app, new UnsubscribeService(ctx.sealer, ctx.clock, relays, suppressions));
    },
    async start() {
      queue.start();
      const { inboundPort, inboundHost } = ctx.settings;
      if (inboundPort !== null) {
        try {
          listening = await listener.start(inboundPort, inboundHost);
        } catch (error) {
          // Several API processes on one host: the first one listens, the others go on without.
          if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
          ctx.log.warn({ port: inboundPort }, 'inbound SMTP port taken: another process listens');
        }
      }
    },
    async stop() {
      await listener.stop();
      listening = null;
      await queue.stop();
    },
  };
}
