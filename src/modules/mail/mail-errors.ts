import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the mail module, with its stable code. */
export const invalidRelayKey = defineError('mail.invalid_relay_key', 401, 'Invalid relay key');
export const relayNotFound = defineError('mail.relay_not_found', 404, 'SMTP relay not found');
export const relayNotActive = defineError('mail.relay_not_active', 403, 'SMTP relay is not active');
export const relayKeyNotFound = defineError('mail.relay_key_not_found', 404, 'Relay key not found');
export const domainNotFound = defineError('mail.domain_not_found', 404, 'Sending domain not found');
export const domainExists = defineError('mail.domain_exists', 409, 'Sending domain already added');
export const senderNotVerified = defineError(
  'mail.sender_not_verified',
  422,
  (domain: string) => `Sender domain is not verified: ${domain}`,
);
export const messageTooLarge = defineError('mail.message_too_large', 413, 'Message is larger than 10 MiB');
export const suppressionNotFound = defineError('mail.suppression_not_found', 404, 'Suppression not found');
export const unsubscribeNotFound = defineError('mail.unsubscribe_not_found', 404, 'Not Found');
export const webhookNotFound = defineError('mail.webhook_not_found', 404, 'Webhook not found');
export const webhookLimit = defineError('mail.webhook_limit', 422, 'Limit of 10 webhooks per service');
