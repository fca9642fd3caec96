/** The webhooks module's public surface: organization webhooks and the one delivery engine. */
export { createDeliveryEngine, createWebhooksModule, type WebhooksModule } from './webhooks-module.ts';
export type { Deliveries, DeliveryTarget, QueuedDelivery, TargetKind } from './webhooks-interfaces.ts';
export { MAIL_POLICY, ORG_POLICY, sortedJson, type RetryPolicy } from './delivery/retry-policies.ts';
