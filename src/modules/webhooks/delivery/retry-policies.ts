import { createHmac } from 'node:crypto';

const MINUTE = 60_000;

/**
 * How one kind of webhook is called and retried. Two policies share the delivery engine:
 * - `org`: 5 attempts, the next 1, 5, 30 and 120 minutes
 *   after the previous failure; when the fifth attempt fails and the webhook has failed 10 times in
 *   a row, it is turned off. Signed `X-Webhook-Signature: t=<unix>,v1=<hex HMAC-SHA256("<t>.<body>")>`.
 * - `mail`: 6 attempts about 2, 4, 8, 16 and 32 minutes apart, sent
 *   about once a minute (attempts fall on whole minutes); disabled for good after 50 failed attempts
 *   in a row (any event). Signed `X-Mail-Signature: <hex HMAC-SHA256(body)>`, with the secret as text.
 */
export interface RetryPolicy {
  readonly name: 'org' | 'mail';
  /** Gap after the n-th failed attempt (index n-1); attempts in all = gaps + 1. */
  readonly gapsMs: readonly number[];
  /** Failures in a row at which the target is disabled. */
  readonly disableAt: number;
  /** true: only a delivery's last failed attempt may disable (org); false: any failed attempt (mail). */
  readonly disableOnLastAttemptOnly: boolean;
  /** Attempts fall on whole minutes (mail: "requests go out about once a minute"). */
  readonly wholeMinutes: boolean;
  headers(
    eventName: string,
    body: string,
    secret: string,
    nowMs: number,
    eventId: number,
  ): Record<string, string>;
}

export const ORG_POLICY: RetryPolicy = {
  name: 'org',
  gapsMs: [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE],
  disableAt: 10,
  disableOnLastAttemptOnly: true,
  wholeMinutes: false,
  headers(eventName, body, secret, nowMs, eventId) {
    const t = Math.floor(nowMs / 1000);
    const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    return {
      'content-type': 'application/json',
      'x-webhook-event': eventName,
      'x-webhook-id': String(eventId),
      'x-webhook-signature': `t=${t},v1=${v1}`,
    };
  },
};

export const MAIL_POLICY: RetryPolicy = {
  name: 'mail',
  gapsMs: [2 * MINUTE, 4 * MINUTE, 8 * MINUTE, 16 * MINUTE, 32 * MINUTE],
  disableAt: 50,
  disableOnLastAttemptOnly: false,
  wholeMinutes: true,
  headers(eventName, body, secret) {
    return {
      'content-type': 'application/json',
      'x-mail-event': eventName,
      'x-mail-signature': createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex'),
    };
  },
};

export const POLICIES: Readonly<Record<RetryPolicy['name'], RetryPolicy>> = {
  org: ORG_POLICY,
  mail: MAIL_POLICY,
};

/** When the attempt after `failedAttempts` failures is due, or null when none is left. */
export function nextAttemptAt(policy: RetryPolicy, failedAttempts: number, nowMs: number): number | null {
  const gap = policy.gapsMs[failedAttempts - 1];
  if (gap === undefined) return null;
  const at = nowMs + gap;
  return policy.wholeMinutes ? Math.ceil(at / MINUTE) * MINUTE : at;
}

/** Compact JSON with every object's keys in alphabetical order (the mail policy's body). */
export function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}
