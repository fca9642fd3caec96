/**
 * Test helper: a local HTTP server speaking Stripe's v1 wire format for what the `stripe` payment
 * adapter uses, so its tests run the official SDK end to end without the network. As Stripe
 * documents it (https://docs.stripe.com/api): Bearer secret-key auth (401 otherwise),
 * form-encoded bodies with bracket notation (`metadata[invoice_id]=…`, `a[0]=…`), JSON answers,
 * a `Request-Id` on every answer, and idempotency keys (the first answer of a key is saved once
 * the endpoint runs and replayed with `Idempotent-Replayed: true`; the same key with other
 * parameters is a 400 `idempotency_error`). Test payment methods behave as in test mode
 * (https://docs.stripe.com/testing): `pm_card_visa` succeeds, `pm_card_chargeDeclined…` is a
 * 402 `card_error`, `pm_card_authenticationRequired` leaves the intent `requires_action`.
 * PaymentIntents with `capture_method=manual` stop at `requires_capture` and are captured or
 * canceled later (`/v1/payment_intents/{id}/confirm|capture|cancel`); `completeAuthentication`
 * does what the shopper's 3-D Secure challenge would.
 * Disputes: `createDispute` opens one on a captured PaymentIntent as a cardholder's bank would,
 * `closeDispute` decides it; `POST /v1/disputes/{id}` saves evidence (and `submit=true` submits it,
 * once), `POST /v1/disputes/{id}/close` accepts it. `sendEvent` POSTs an event to a webhook URL signed
 * as Stripe signs them (`Stripe-Signature: t=<unix>,v1=<HMAC-SHA256(secret, "<t>.<body>")>`,
 * https://docs.stripe.com/webhooks#verify-manually), with a chosen time or secret to forge one.
 * The contract test (stripe-provider-contract.test.ts) runs the same cases against Stripe itself.
 */
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import { isDeepStrictEqual } from 'node:util';

export type StripeParams = { [key: string]: string | StripeParams | StripeParams[] | string[] };

export interface StripeRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  /** The raw form body as sent. */
  readonly body: string;
  /** The body decoded from bracket notation. */
  readonly params: StripeParams;
  readonly status: number;
  readonly replayed: boolean;
}

type Json = Record<string, unknown>;

export interface StripeServer {
  /** `http://127.0.0.1:<port>`: STRIPE_API_BASE_URL. */
  readonly url: string;
  readonly secretKey: string;
  /** Every request answered, in order. */
  readonly requests: StripeRequest[];
  /** PaymentIntents by id, as the API would return them. */
  readonly paymentIntents: Map<string, Json>;
  readonly refunds: Map<string, Json>;
  readonly disputes: Map<string, Json>;
  /** `whsec_…`: what `sendEvent` signs with (STRIPE_WEBHOOK_SECRET). */
  readonly webhookSecret: string;
  /** A dispute of a captured PaymentIntent (`needs_response`), as the bank opens one. */
  createDispute(paymentIntentId: string, options?: { amount?: number; reason?: string }): Json;
  /** The bank's decision: the dispute `won` or `lost`. */
  closeDispute(disputeId: string, status: 'won' | 'lost'): Json;
  /**
   * POSTs the event `type` about `object` to `url` as Stripe delivers it, signed with the webhook
   * secret at `timestampS` (default now); `secret` signs with another (a forgery). Answers the
   * receiver's status and the event's id.
   */
  sendEvent(
    url: string,
    type: string,
    object: Json,
    options?: { timestampS?: number; secret?: string; eventId?: string },
  ): Promise<{ status: number; eventId: string; body: string }>;
  /** Every PaymentIntent's id, status and amounts, in creation order ("nothing was captured"). */
  intentStatuses(): { id: string; status: string; amount: number; amountReceived: number }[];
  /**
   * The shopper's 3-D Secure challenge on an intent left `requires_action`, as their page would
   * complete it with Stripe.js: passed, it is `requires_capture` (manual capture) or `succeeded`;
   * failed, `requires_payment_method` with `payment_intent_authentication_failure`.
   */
  completeAuthentication(intentId: string, outcome?: 'passed' | 'failed'): void;
  close(): Promise<void>;
}

interface Outcome {
  readonly status: number;
  readonly body: Json;
}

interface CardBehaviour {
  readonly brand: string;
  readonly last4: string;
  readonly decline?: { code: string; declineCode: string | null; message: string };
  readonly requiresAction?: boolean;
}

// https://docs.stripe.com/testing#cards and #declined-payments
const CARDS: Readonly<Record<string, CardBehaviour>> = {
  pm_card_visa: { brand: 'visa', last4: '4242' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444' },
  pm_card_chargeDeclined: {
    brand: 'visa',
    last4: '0002',
    decline: { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
  },
  pm_card_chargeDeclinedInsufficientFunds: {
    brand: 'visa',
    last4: '9995',
    decline: {
      code: 'card_declined',
      declineCode: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    },
  },
  pm_card_chargeDeclinedLostCard: {
    brand: 'visa',
    last4: '9987',
    decline: { code: 'card_declined', declineCode: 'lost_card', message: 'Your card was declined.' },
  },
  pm_card_chargeDeclinedExpiredCard: {
    brand: 'visa',
    last4: '0069',
    decline: { code: 'expired_card', declineCode: null, message: 'Your card has expired.' },
  },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184', requiresAction: true },
  pm_card_threeDSecure2Required: { brand: 'visa', last4: '3220', requiresAction: true },
};

/** `a[b][0]=x` → `{a: {b: ['x']}}`: Stripe's form encoding of nested parameters. */
export function decodeStripeForm(body: string): StripeParams {
  const root: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const path = name.match(/^[^[]+|\[[^\]]*\]/g)?.map((p) => p.replace(/^\[|\]$/g, '')) ?? [name];
    let node = root;
    path.forEach((key, i) => {
      if (i === path.length - 1) node[key] = value;
      else node = (node[key] ??= {}) as Record<string, unknown>;
    });
  }
  // Objects whose keys are 0..n-1 were arrays.
  const arrays = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    const fixed = Object.fromEntries(keys.map((k) => [k, arrays(o[k])]));
    return keys.length > 0 && keys.every((k, i) => k === String(i)) ? keys.map((k) => fixed[k]) : fixed;
  };
  return arrays(root) as StripeParams;
}

function error(status: number, fields: Json): Outcome {
  return { status, body: { error: fields } };
}

function maskKey(key: string): string {
  // Stripe shows the prefix and the last four characters of a refused key.
  const m = /^([a-z]+_(?:test|live)_)(.*)$/.exec(key);
  const [prefix, rest] = m === null ? ['', key] : [m[1]!, m[2]!];
  return `${prefix}${'*'.repeat(Math.max(0, rest.length - 4))}${rest.slice(-4)}`;
}

export async function startStripeServer(
  options: { secretKey?: string; now?: () => number; webhookSecret?: string } = {},
): Promise<StripeServer> {
  const secretKey = options.secretKey ?? `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(16).toString('hex')}`;
  const disputes = new Map<string, Json>();
  const now = options.now ?? Date.now;
  const requests: StripeRequest[] = [];
  const paymentIntents = new Map<string, Json>();
  const refunds = new Map<string, Json>();
  /** By key: the first request's endpoint and parameters, and its saved answer. */
  const idempotency = new Map<
    string,
    { endpoint: string; params: StripeParams; outcome: Outcome; requestId: string }
  >();
  const id = (prefix: string): string => `${prefix}_${randomBytes(12).toString('base64url')}`;
  const created = (): number => Math.floor(now() / 1000);

  function createPaymentIntent(p: StripeParams): Outcome {
    const amount = typeof p.amount === 'string' ? p.amount : undefined;
    if (amount === undefined)
      return error(400, {
        type: 'invalid_request_error',
        code: 'parameter_missing',
        param: 'amount',
        message: 'Missing required param: amount.',
      });
    if (!/^\d+$/.test(amount) || Number(amount) < 1)
      return error(400, {
        type: 'invalid_request_error',
        code: 'parameter_invalid_integer',
        param: 'amount',
        message: 'This value must be greater than or equal to 1.',
      });
    if (typeof p.currency !== 'string' || !/^[a-z]{3}$/i.test(p.currency))
      return error(400, {
        type: 'invalid_request_error',
        code: p.currency === undefined ? 'parameter_missing' : 'parameter_invalid_string',
        param: 'currency',
        message:
          p.currency === undefined
            ? 'Missing required param: currency.'
            : `Invalid currency: ${String(p.currency)}.`,
      });
    const pm = typeof p.payment_method === 'string' ? p.payment_method : null;
    const card = pm === null ? undefined : CARDS[pm];
    if (pm !== null && card === undefined) return noSuchMethod(pm);
    const apm = p.automatic_payment_methods as StripeParams | undefined;
    const types = p.allowed_payment_method_types ?? p.payment_method_types;
    const captureMethod = typeof p.capture_method === 'string' ? p.capture_method : 'automatic_async';
    const intentId = id('pi');
    const intent: Json = {
      id: intentId,
      object: 'payment_intent',
      amount: Number(amount),
      amount_capturable: 0,
      amount_received: 0,
      allowed_payment_method_types: Array.isArray(types) ? types : null,
      automatic_payment_methods:
        apm === undefined
          ? null
          : { enabled: apm.enabled === 'true', allow_redirects: apm.allow_redirects ?? 'always' },
      canceled_at: null,
      cancellation_reason: null,
      capture_method: captureMethod,
      client_secret: `${intentId}_secret_${randomBytes(12).toString('base64url')}`,
      confirmation_method: 'automatic',
      created: created(),
      currency: p.currency.toLowerCase(),
      customer: typeof p.customer === 'string' ? p.customer : null,
      description: typeof p.description === 'string' ? p.description : null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: typeof p.metadata === 'object' && !Array.isArray(p.metadata) ? p.metadata : {},
      next_action: null,
      payment_method: pm,
      payment_method_types: ['card'],
      status: pm === null ? 'requires_payment_method' : 'requires_confirmation',
    };
    paymentIntents.set(intentId, intent);
    if (p.confirm !== 'true' || card === undefined) return { status: 200, body: intent };
    return confirmWith(intent, pm!, card);
  }

  /** Confirms with a test card: authenticated, declined (402), held or paid. */
  function confirmWith(intent: Json, pm: string, card: CardBehaviour): Outcome {
    intent.payment_method = pm;
    intent.last_payment_error = null;
    intent.next_action = null;
    if (card.requiresAction) {
      intent.status = 'requires_action';
      intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };
      return { status: 200, body: intent };
    }
    const chargeId = id('ch');
    intent.latest_charge = chargeId;
    if (card.decline !== undefined) {
      const fields: Json = {
        type: 'card_error',
        code: card.decline.code,
        ...(card.decline.declineCode === null ? {} : { decline_code: card.decline.declineCode }),
        charge: chargeId,
        doc_url: `https://stripe.com/docs/error-codes/${card.decline.code.replace(/_/g, '-')}`,
        message: card.decline.message,
      };
      intent.status = 'requires_payment_method';
      intent.payment_method = null;
      intent.last_payment_error = { ...fields, payment_method: { id: pm, object: 'payment_method' } };
      return error(402, {
        ...fields,
        payment_intent: intent,
        payment_method: { id: pm, object: 'payment_method' },
      });
    }
    authorized(intent);
    return { status: 200, body: intent };
  }

  /** The issuer said yes: held for a manual capture, otherwise paid. */
  function authorized(intent: Json): void {
    intent.latest_charge ??= id('ch');
    if (intent.capture_method === 'manual') {
      intent.status = 'requires_capture';
      intent.amount_capturable = intent.amount;
    } else {
      intent.status = 'succeeded';
      intent.amount_received = intent.amount;
    }
  }

  function unexpectedState(intent: Json, action: string, allowed: readonly string[]): Outcome {
    const status = String(intent.status);
    const list = allowed.join(', ');
    const message =
      action === 'capture'
        ? `This PaymentIntent could not be captured because it has a status of ${status}. Only a PaymentIntent with one of the following statuses may be captured: ${list}.`
        : `You cannot ${action} this PaymentIntent because it has a status of ${status}. Only a PaymentIntent with one of the following statuses may be ${action === 'cancel' ? 'canceled' : 'confirmed'}: ${list}.`;
    return error(400, {
      type: 'invalid_request_error',
      code: 'payment_intent_unexpected_state',
      doc_url: 'https://stripe.com/docs/error-codes/payment-intent-unexpected-state',
      message,
      payment_intent: intent,
    });
  }

  const CONFIRMABLE = ['requires_payment_method', 'requires_confirmation', 'requires_action'];
  const CANCELABLE = [
    'requires_payment_method',
    'requires_capture',
    'requires_confirmation',
    'requires_action',
    'processing',
  ];

  function confirmPaymentIntent(intent: Json, p: StripeParams): Outcome {
    if (!CONFIRMABLE.includes(intent.status as string))
      return unexpectedState(intent, 'confirm', CONFIRMABLE);
    const pm =
      typeof p.payment_method === 'string' ? p.payment_method : (intent.payment_method as string | null);
    if (pm === null)
      return error(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message:
          "You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent with cus_, pass a payment_method in the confirm request.",
        payment_intent: intent,
      });
    const card = CARDS[pm];
    if (card === undefined) return noSuchMethod(pm);
    return confirmWith(intent, pm, card);
  }

  function capturePaymentIntent(intent: Json, p: StripeParams): Outcome {
    if (intent.status !== 'requires_capture') return unexpectedState(intent, 'capture', ['requires_capture']);
    const amount =
      typeof p.amount_to_capture === 'string' ? Number(p.amount_to_capture) : (intent.amount as number);
    if (!Number.isInteger(amount) || amount < 1 || amount > (intent.amount_capturable as number))
      return error(400, {
        type: 'invalid_request_error',
        code: 'amount_too_large',
        param: 'amount_to_capture',
        message: `The amount to capture (${amount}) must be less than or equal to the amount capturable (${String(intent.amount_capturable)}).`,
      });
    intent.status = 'succeeded';
    intent.amount_received = amount;
    intent.amount_capturable = 0;
    return { status: 200, body: intent };
  }

  function cancelPaymentIntent(intent: Json, p: StripeParams): Outcome {
    if (!CANCELABLE.includes(intent.status as string)) return unexpectedState(intent, 'cancel', CANCELABLE);
    intent.status = 'canceled';
    intent.amount_capturable = 0;
    intent.next_action = null;
    intent.canceled_at = created();
    intent.cancellation_reason = typeof p.cancellation_reason === 'string' ? p.cancellation_reason : null;
    return { status: 200, body: intent };
  }

  function noSuchMethod(pm: string): Outcome {
    return error(400, {
      type: 'invalid_request_error',
      code: 'resource_missing',
      param: 'payment_method',
      message: `No such PaymentMethod: '${pm}'`,
    });
  }

  const ACTIONS: Readonly<Record<string, (intent: Json, p: StripeParams) => Outcome>> = {
    confirm: confirmPaymentIntent,
    capture: capturePaymentIntent,
    cancel: cancelPaymentIntent,
  };

  function createRefund(p: StripeParams): Outcome {
    const piId = typeof p.payment_intent === 'string' ? p.payment_intent : null;
    if (piId === null)
      return error(400, {
        type: 'invalid_request_error',
        code: 'parameter_missing',
        message: 'One of the following params should be provided for this request: payment_intent or charge.',
      });
    const intent = paymentIntents.get(piId);
    if (intent === undefined)
      return error(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'payment_intent',
        message: `No such payment_intent: '${piId}'`,
      });
    if (intent.status !== 'succeeded')
      return error(400, {
        type: 'invalid_request_error',
        code: 'charge_not_refundable',
        message: `This PaymentIntent (${piId}) does not have a successful charge to refund.`,
      });
    const refunded = [...refunds.values()]
      .filter((r) => r.payment_intent === piId)
      .reduce((sum, r) => sum + (r.amount as number), 0);
    const left = (intent.amount_received as number) - refunded;
    const amount = typeof p.amount === 'string' ? Number(p.amount) : left;
    if (!Number.isInteger(amount) || amount < 1 || amount > left)
      return error(400, {
        type: 'invalid_request_error',
        code: 'amount_too_large',
        param: 'amount',
        message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
      });
    const refund: Json = {
      id: id('re'),
      object: 'refund',
      amount,
      charge: intent.latest_charge,
      created: created(),
      currency: intent.currency,
      metadata: typeof p.metadata === 'object' && !Array.isArray(p.metadata) ? p.metadata : {},
      payment_intent: piId,
      reason: typeof p.reason === 'string' ? p.reason : null,
      status: 'succeeded',
    };
    refunds.set(refund.id as string, refund);
    return { status: 200, body: refund };
  }

  function noSuchIntent(intentId: string): Outcome {
    return error(404, {
      type: 'invalid_request_error',
      code: 'resource_missing',
      param: 'intent',
      message: `No such payment_intent: '${intentId}'`,
    });
  }

  function completeAuthentication(intentId: string, outcome: 'passed' | 'failed' = 'passed'): void {
    const intent = paymentIntents.get(intentId);
    if (intent?.status !== 'requires_action') {
      throw new Error(`PaymentIntent ${intentId} is not waiting for authentication`);
    }
    intent.next_action = null;
    if (outcome === 'passed') return authorized(intent);
    intent.status = 'requires_payment_method';
    intent.last_payment_error = {
      type: 'invalid_request_error',
      code: 'payment_intent_authentication_failure',
      doc_url: 'https://stripe.com/docs/error-codes/payment-intent-authentication-failure',
      message:
        'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
      payment_method: { id: intent.payment_method, object: 'payment_method' },
    };
    intent.payment_method = null;
  }

  function createDispute(paymentIntentId: string, o: { amount?: number; reason?: string } = {}): Json {
    const intent = paymentIntents.get(paymentIntentId);
    if (intent?.status !== 'succeeded') throw new Error(`PaymentIntent ${paymentIntentId} is not captured`);
    const dispute: Json = {
      id: id('dp'),
      object: 'dispute',
      amount: o.amount ?? intent.amount_received,
      charge: intent.latest_charge,
      created: created(),
      currency: intent.currency,
      evidence: {},
      evidence_details: {
        due_by: created() + 7 * 86_400,
        has_evidence: false,
        past_due: false,
        submission_count: 0,
      },
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      payment_intent: paymentIntentId,
      reason: o.reason ?? 'fraudulent',
      status: 'needs_response',
    };
    disputes.set(dispute.id as string, dispute);
    return dispute;
  }

  function closeDispute(disputeId: string, status: 'won' | 'lost'): Json {
    const dispute = disputes.get(disputeId);
    if (dispute === undefined) throw new Error(`no dispute ${disputeId}`);
    dispute.status = status;
    return dispute;
  }

  function noSuchDispute(disputeId: string): Outcome {
    return error(404, {
      type: 'invalid_request_error',
      code: 'resource_missing',
      param: 'dispute',
      message: `No such dispute: '${disputeId}'`,
    });
  }

  /** https://docs.stripe.com/api/disputes/update: evidence saved; `submit=true` sends it, once. */
  function updateDispute(dispute: Json, p: StripeParams): Outcome {
    if (dispute.status !== 'needs_response' && dispute.status !== 'warning_needs_response')
      return error(400, {
        type: 'invalid_request_error',
        message: `This dispute is already ${String(dispute.status)} and can no longer be updated.`,
      });
    const evidence = typeof p.evidence === 'object' && !Array.isArray(p.evidence) ? p.evidence : {};
    dispute.evidence = { ...(dispute.evidence as Json), ...evidence };
    if (p.submit === 'true') {
      dispute.status = 'under_review';
      const details = dispute.evidence_details as Json;
      details.submission_count = (details.submission_count as number) + 1;
      details.has_evidence = true;
    }
    return { status: 200, body: dispute };
  }

  /** https://docs.stripe.com/api/disputes/close: the merchant accepts; the dispute is lost. */
  function closeDisputeByMerchant(dispute: Json): Outcome {
    if (dispute.status !== 'needs_response' && dispute.status !== 'warning_needs_response')
      return error(400, {
        type: 'invalid_request_error',
        message: `This dispute is already ${String(dispute.status)} and cannot be closed.`,
      });
    dispute.status = 'lost';
    return { status: 200, body: dispute };
  }

  async function sendEvent(
    url: string,
    type: string,
    object: Json,
    o: { timestampS?: number; secret?: string; eventId?: string } = {},
  ): Promise<{ status: number; eventId: string; body: string }> {
    const eventId = o.eventId ?? id('evt');
    const body = JSON.stringify({
      id: eventId,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: created(),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    });
    const t = o.timestampS ?? created();
    const v1 = createHmac('sha256', o.secret ?? webhookSecret)
      .update(`${t}.${body}`)
      .digest('hex');
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': `t=${t},v1=${v1}` },
      body,
    });
    return { status: res.status, eventId, body: await res.text() };
  }

  function route(method: string, path: string, params: StripeParams): Outcome | null {
    const disputeAction = /^\/v1\/disputes\/([^/]+)(\/close)?$/.exec(path);
    if (disputeAction !== null) {
      const disputeId = decodeURIComponent(disputeAction[1]!);
      const dispute = disputes.get(disputeId);
      if (dispute === undefined) return noSuchDispute(disputeId);
      if (method === 'GET' && disputeAction[2] === undefined) return { status: 200, body: dispute };
      if (method === 'POST')
        return disputeAction[2] === undefined
          ? updateDispute(dispute, params)
          : closeDisputeByMerchant(dispute);
    }
    if (method === 'POST' && path === '/v1/payment_intents') return createPaymentIntent(params);
    if (method === 'POST' && path === '/v1/refunds') return createRefund(params);
    const action = /^\/v1\/payment_intents\/([^/]+)\/(confirm|capture|cancel)$/.exec(path);
    if (method === 'POST' && action !== null) {
      const intentId = decodeURIComponent(action[1]!);
      const intent = paymentIntents.get(intentId);
      return intent === undefined ? noSuchIntent(intentId) : ACTIONS[action[2]!]!(intent, params);
    }
    const get = /^\/v1\/(payment_intents|refunds)\/([^/]+)$/.exec(path);
    if (method === 'GET' && get !== null) {
      const objectId = decodeURIComponent(get[2]!);
      const found = (get[1] === 'refunds' ? refunds : paymentIntents).get(objectId);
      if (found !== undefined) return { status: 200, body: found };
      return get[1] === 'refunds'
        ? error(404, {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'refund',
            message: `No such refund: '${objectId}'`,
          })
        : noSuchIntent(objectId);
    }
    return null;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://localhost');
      const method = req.method ?? 'GET';
      const params = decodeStripeForm(method === 'GET' ? url.search.slice(1) : body);
      const requestId = `req_${randomBytes(7).toString('base64url')}`;
      const send = (outcome: Outcome, headers: Record<string, string> = {}, replayed = false): void => {
        requests.push({
          method,
          path: url.pathname,
          headers: req.headers,
          body,
          params,
          status: outcome.status,
          replayed,
        });
        res.writeHead(outcome.status, {
          'content-type': 'application/json',
          'request-id': requestId,
          'stripe-version': String(req.headers['stripe-version'] ?? '2026-10-28.endive'),
          ...headers,
        });
        res.end(JSON.stringify(outcome.body, null, 2));
      };

      const auth = req.headers.authorization ?? '';
      const bearer = /^Bearer (.+)$/.exec(auth)?.[1];
      // `curl -u sk_…:` sends the key as the Basic user name.
      const basic = /^Basic (.+)$/.exec(auth)?.[1];
      const given =
        bearer ?? (basic === undefined ? undefined : Buffer.from(basic, 'base64').toString().split(':')[0]);
      if (given === undefined || given === '') {
        send(
          error(401, {
            type: 'invalid_request_error',
            message:
              "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
          }),
        );
        return;
      }
      if (given !== secretKey) {
        send(
          error(401, {
            type: 'invalid_request_error',
            message: `Invalid API Key provided: ${maskKey(given)}`,
          }),
        );
        return;
      }

      const key = method === 'POST' ? req.headers['idempotency-key'] : undefined;
      const endpoint = `${method} ${url.pathname}`;
      if (typeof key === 'string') {
        const saved = idempotency.get(key);
        if (saved !== undefined) {
          if (saved.endpoint !== endpoint || !isDeepStrictEqual(saved.params, params)) {
            send(
              error(400, {
                type: 'idempotency_error',
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
              }),
              { 'idempotency-key': key },
            );
            return;
          }
          send(
            saved.outcome,
            { 'idempotency-key': key, 'idempotent-replayed': 'true', 'original-request': saved.requestId },
            true,
          );
          return;
        }
      }
      const outcome =
        route(method, url.pathname, params) ??
        error(404, {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
        });
      // Stripe saves an answer only once the endpoint ran: a parameter error is not kept.
      const ran = outcome.status < 400 || outcome.status === 402;
      if (typeof key === 'string' && ran) idempotency.set(key, { endpoint, params, outcome, requestId });
      send(outcome, typeof key === 'string' ? { 'idempotency-key': key, 'original-request': requestId } : {});
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    requests,
    paymentIntents,
    refunds,
    disputes,
    webhookSecret,
    createDispute,
    closeDispute,
    sendEvent,
    intentStatuses: () =>
      [...paymentIntents.values()].map((pi) => ({
        id: pi.id as string,
        status: pi.status as string,
        amount: pi.amount as number,
        amountReceived: pi.amount_received as number,
      })),
    completeAuthentication,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // The SDK keeps connections alive; close them with the listener.
        server.close((err) => (err === undefined ? resolve() : reject(err)));
        server.closeAllConnections();
      }),
  };
}
