/**
 * The five delivery events (docs/mail.md, "Events") and their `type` values, and `suppressed`,
 * which a webhook may subscribe to but which is never sent.
 */
export const MAIL_EVENTS = ['accepted', 'delivered', 'deferred', 'bounced', 'complaint'] as const;
export type MailEventName = (typeof MAIL_EVENTS)[number];

export const SUBSCRIBABLE_EVENTS = [...MAIL_EVENTS, 'suppressed'] as const;

export const EVENT_TYPES = {
  accepted: ['queue.authenticated-message-queued', 'queue.message-queued'],
  delivered: ['delivery.delivered', 'delivery.dsn-success'],
  deferred: [
    'delivery.dsn-temp-fail',
    'delivery.rate-limit-exceeded',
    'queue.rate-limit-exceeded',
    'queue.quota-exceeded',
  ],
  bounced: ['delivery.failed', 'delivery.dsn-perm-fail', 'delivery.double-bounce'],
  complaint: [
    'incoming-report.abuse-report',
    'incoming-report.fraud-report',
    'incoming-report.auth-failure-report',
  ],
} as const satisfies Record<MailEventName, readonly string[]>;

/** Events that put the recipient on the relay's suppression list. */
export const SUPPRESSING_EVENTS: ReadonlySet<string> = new Set(['bounced', 'complaint']);

/** `response` is cut to this many characters. */
export const RESPONSE_MAX = 2000;

/** The delivery engine's target kind of mail webhooks. */
export const MAIL_WEBHOOK_KIND = 'mail_webhook';
