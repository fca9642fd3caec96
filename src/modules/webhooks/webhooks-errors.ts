import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the webhooks module (docs/webhooks.md, "Errors"). */
export const webhookNotFound = defineError('webhooks.not_found', 404, 'Webhook not found');
