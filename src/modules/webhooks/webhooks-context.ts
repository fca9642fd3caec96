import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { WebhooksTables } from './webhooks-tables.ts';

/** What the webhooks module's code receives: its tables, and the outbox it dispatches. */
export type WebhooksContext = ModuleContext<WebhooksTables>;

export function webhooksContext(runtime: Runtime): WebhooksContext {
  return moduleContext<WebhooksTables>(runtime, 'webhooks');
}
