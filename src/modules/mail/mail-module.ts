import type { AuthLayer } from '../../kernel/auth/auth-layer.ts';
import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Registry } from '../../kernel/module/registry.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { CatalogOffers } from '../catalog/index.ts';
import type { ManagedRecords } from '../dns/index.ts';
import type { ServiceDirectory, ServiceProvisioner } from '../services/index.ts';
import type { Deliveries } from '../webhooks/index.ts';
import { SendingDomainsRepository } from './domains/sending-domains-repository.ts';
import { registerSendingDomainRoutes } from './domains/sending-domains-routes.ts';
import { SendingDomainsService } from './domains/sending-domains-service.ts';
import { MailEventRecorder, type NewMailEvent } from './events/mail-event-recorder.ts';
import { MailEventsRepository } from './events/mail-events-repository.ts';
import { registerMailEventRoutes } from './events/mail-events-routes.ts';
import { MailEventsService } from './events/mail-events-service.ts';
import { InboundListener } from './inbound/inbound-listener.ts';
import { ReportIntake } from './inbound/report-intake.ts';
import { mailContext, type MailContext } from './mail-context.ts';
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
import { OutgoingQueue, type SigningKeys } from './sending/outgoing-queue.ts';
import { registerSendRoutes } from './sending/send-routes.ts';
import { SendService } from './sending/send-service.ts';
import { SuppressionsRepository } from './suppressions/suppressions-repository.ts';
import { registerSuppressionRoutes } from './suppressions/suppressions-routes.ts';
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
  readonly engine: Deliveries;
  /** Where the services registry finds the relay's provisioner. */
  readonly provisioners: Registry<ServiceProvisioner>;
}

export interface MailModule extends PlatformModule {
  /** The outgoing queue (tests wait for it, or run a round after moving the clock). */
  readonly queue: OutgoingQueue;
  /** The inbound listener's port once started (MAIL_INBOUND_PORT), else null. */
  inboundPort(): number | null;
  /** Records events in a transaction of their own (the report intake's path, for tests). */
  recordEvents(events: readonly NewMailEvent[]): Promise<EventRow[]>;
}

/**
 * The mail relay: relay keys, sending domains with DKIM, sending over HTTPS through an
 * MTA, delivery events from DSNs and feedback reports, suppressions, one-click unsubscribe and
 * mail webhooks. Routes under /api/v1/client/smtp-relay and /api/v1/mail.
 */
export function createMailModule(runtime: Runtime, deps: MailModuleDeps): MailModule {
  const ctx = mailContext(runtime);
  const mail = mailServices(ctx, deps, runtime.outbound);
  mail.keyCheck.install(deps.auth);
  deps.engine.registerTarget(mail.webhooks.target);
  deps.provisioners.add(
    smtpRelayProvisioner(mail.repos.relays, deps.catalog, async (serviceId) => {
      await mail.repos.relayKeys.deleteAll(serviceId);
      await mail.domains.removeAllFor(serviceId);
    }),
  );
  let listening: number | null = null;
  return {
    name: 'mail',
    prefix: '',
    queue: mail.queue,
    inboundPort: () => listening,
    recordEvents: (events) => mail.recorder.recordNow(events),
    routes(app) {
      registerRelayKeyRoutes(app, mail.keys);
      registerSendingDomainRoutes(app, mail.domains);
      registerSendRoutes(app, mail.send, mail.keyCheck);
      registerSuppressionRoutes(app, mail.suppressions);
      registerMailEventRoutes(app, mail.events);
      registerMailWebhookRoutes(app, mail.webhooks);
      registerUnsubscribeRoutes(app, mail.unsubscribe);
    },
    async start() {
      mail.queue.start();
      listening = await startInbound(ctx, mail.listener);
    },
    async stop() {
      await mail.listener.stop();
      listening = null;
      await mail.queue.stop();
    },
  };
}

/** The module's repositories, one per table (the relays' own serves the others' locks). */
function mailRepositories(ctx: MailContext) {
  return {
    relays: new RelaysRepository(ctx.db),
    relayKeys: new RelayKeysRepository(ctx.db),
    domains: new SendingDomainsRepository(ctx.db),
    messages: new MessagesRepository(ctx.db),
    events: new MailEventsRepository(ctx.db),
    suppressions: new SuppressionsRepository(ctx.db),
    webhooks: new MailWebhooksRepository(ctx.db),
  };
}

/** The module's services over its repositories, wired to each other and to the modules it uses. */
function mailServices(ctx: MailContext, deps: MailModuleDeps, outbound: Runtime['outbound']) {
  const repos = mailRepositories(ctx);
  const access = new RelayAccess(deps.services, repos.relays);
  const webhooks = new MailWebhooksService(ctx, access, repos.relays, repos.webhooks, outbound);
  const recorder = new MailEventRecorder(ctx, deps.engine, repos.events, repos.suppressions, webhooks.fanOut);
  const domains = new SendingDomainsService(ctx, access, deps.dns, repos.domains);
  const signingKeys: SigningKeys = (serviceId, domain) => domains.signingKeyFor(serviceId, domain);
  const handoff = createHandoff(ctx.settings.relaySmtpUrl, ctx.config.dataDir, ctx.log);
  const queue = new OutgoingQueue(ctx, handoff, signingKeys, recorder, repos.messages);
  return {
    repos,
    webhooks,
    recorder,
    domains,
    queue,
    keys: new RelayKeysService(ctx, access, repos.relayKeys),
    keyCheck: new RelayKeyCheck(repos.relayKeys, ctx.clock),
    send: new SendService(ctx, signingKeys, recorder, queue, repos),
    suppressions: new SuppressionsService(access, repos.suppressions),
    events: new MailEventsService(access, repos.events),
    unsubscribe: new UnsubscribeService(ctx.sealer, ctx.clock, repos.relays, repos.suppressions),
    listener: new InboundListener(ctx, new ReportIntake(ctx, recorder, repos.messages)),
  };
}

/** Starts the inbound listener when MAIL_INBOUND_PORT is set; answers its port, else null. */
async function startInbound(ctx: MailContext, listener: InboundListener): Promise<number | null> {
  const { inboundPort, inboundHost } = ctx.settings;
  if (inboundPort === null) return null;
  try {
    return await listener.start(inboundPort, inboundHost);
  } catch (error) {
    // Several API processes on one host: the first one listens, the others go on without.
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    ctx.log.warn({ port: inboundPort }, 'inbound SMTP port taken: another process listens');
    return null;
  }
}
