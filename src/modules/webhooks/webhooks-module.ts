import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { DeliveryEngine } from './delivery/delivery-engine.ts';
import { registerOrgWebhookRoutes } from './org-webhooks/org-webhooks-routes.ts';
import { OrgWebhooksService } from './org-webhooks/org-webhooks-service.ts';
import { webhooksContext } from './webhooks-context.ts';

export interface WebhooksModule extends PlatformModule {
  /** The delivery engine (the mail module registers its webhooks as a target kind). */
  readonly engine: DeliveryEngine;
}

/** The engine alone, with the organization webhooks it delivers to (ROLE=worker, and the API). */
export function createDeliveryEngine(runtime: Runtime): {
  engine: DeliveryEngine;
  orgWebhooks: OrgWebhooksService;
} {
  const ctx = webhooksContext(runtime);
  const engine = new DeliveryEngine(ctx, runtime.outbound);
  const orgWebhooks = new OrgWebhooksService(ctx, runtime.outbound);
  engine.registerTarget(orgWebhooks.target);
  engine.addFanOut(orgWebhooks.fanOut);
  return { engine, orgWebhooks };
}

/**
 * Organization webhooks (base /api/v1/orgs/{slug}/webhooks) and the delivery engine: outbox
 * events become signed HTTPS deliveries, retried by policy, through the guarded outbound client.
 */
export function createWebhooksModule(
  runtime: Runtime,
  deps: { readonly runEngine: boolean },
): WebhooksModule {
  const { engine, orgWebhooks } = createDeliveryEngine(runtime);
  return {
    name: 'webhooks',
    prefix: '/orgs',
    engine,
    routes: (app) => registerOrgWebhookRoutes(app, orgWebhooks),
    async start() {
      if (deps.runEngine) engine.start();
    },
    async stop() {
      await engine.stop();
    },
  };
}
