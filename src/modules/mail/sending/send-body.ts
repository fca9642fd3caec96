import { Type, type Static } from 'typebox';
import { invalidField } from '../../../kernel/errors/app-error.ts';

/** The send body (docs/mail.md, "Sending"). */
export const SendBody = Type.Object(
  {
    from: Type.String({ maxLength: 320 }),
    to: Type.Array(Type.String({ maxLength: 320 }), { minItems: 1, maxItems: 1000 }),
    from_name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    text: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    html: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    reply_to: Type.Optional(Type.Union([Type.String({ maxLength: 320 }), Type.Null()])),
    category: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    cc: Type.Optional(Type.Array(Type.String({ maxLength: 320 }), { maxItems: 1000 })),
    subject: Type.Optional(Type.String({ maxLength: 998 })),
    headers: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 2000 }))),
  },
  { additionalProperties: false },
);
export type SendBody = Static<typeof SendBody>;

/** The largest send body: 413 above it. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * A mailbox as RFC 5321 §4.1.2 allows it in an envelope, in the common dot-atom form (no quoted
 * local parts, no address literals), with a domain of at least two labels.
 */
const ADDRESS_RE =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/** The address lower-cased, or a 422 naming `loc`. */
export function mailbox(value: string, loc: readonly (string | number)[]): string {
  const v = value.trim();
  if (v.length > 254 || v.split('@')[0]!.length > 64 || !ADDRESS_RE.test(v)) {
    throw invalidField(['body', ...loc], 'Not a valid e-mail address', value);
  }
  return v.toLowerCase();
}

/** Headers a sender may not set: the relay writes them (identity, structure, signature, lists). */
const RESERVED_HEADERS = new Set([
  'from',
  'sender',
  'to',
  'cc',
  'bcc',
  'reply-to',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'dkim-signature',
  'return-path',
  'received',
  'list-unsubscribe',
  'list-unsubscribe-post',
]);

export function customHeaders(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    // RFC 5322 §2.2: a field name is printable US-ASCII but colon; a value has no bare line breaks.
    if (!/^[!-9;-~]+$/.test(name))
      throw invalidField(['body', 'headers', name], 'Not a valid header name', name);
    if (/[\r\n]/.test(value))
      throw invalidField(['body', 'headers', name], 'Header values cannot contain line breaks', value);
    if (RESERVED_HEADERS.has(name.toLowerCase())) {
      throw invalidField(['body', 'headers', name], 'This header is set by the relay', name);
    }
    out[name] = value;
  }
  return out;
}

/** A send body's addresses, checked and lower-cased, with the sender's domain. */
export interface SendAddresses {
  readonly from: string;
  readonly to: string[];
  readonly cc: string[];
  readonly replyTo: string | null;
  readonly domain: string;
}

/** The body's addresses, each a mailbox, to and cc together at most `maxRecipients`; else a 422. */
export function sendAddresses(body: SendBody, maxRecipients: number): SendAddresses {
  const from = mailbox(body.from, ['from']);
  const to = body.to.map((a, i) => mailbox(a, ['to', i]));
  const cc = (body.cc ?? []).map((a, i) => mailbox(a, ['cc', i]));
  const replyTo = body.reply_to == null ? null : mailbox(body.reply_to, ['reply_to']);
  if (to.length + cc.length > maxRecipients) {
    throw invalidField(['body', 'to'], `At most ${maxRecipients} recipients in to and cc together`, body.to);
  }
  return { from, to, cc, replyTo, domain: from.split('@')[1]! };
}
