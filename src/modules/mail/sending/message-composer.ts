import type { Transporter } from 'nodemailer';
import type * as Nodemailer from 'nodemailer';

/** A message as submitted (the send body, checked), kept until it is handed to the MTA. */
export interface OutgoingSpec {
  readonly from: string;
  readonly from_name: string | null;
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly reply_to: string | null;
  readonly subject: string;
  readonly text: string | null;
  readonly html: string | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly category: string | null;
  /** The envelope recipients: to and cc without the suppressed. */
  readonly recipients: readonly string[];
}

export interface SigningKey {
  readonly domain: string;
  readonly selector: string;
  readonly privateKeyPem: string;
}

/** One copy to hand off: its envelope recipients and its signed bytes. */
export interface MessageCopy {
  readonly recipients: readonly string[];
  readonly raw: Buffer;
}

/**
 * Header fields the DKIM signature covers (RFC 6376 §5.4.1), with List-Unsubscribe and
 * List-Unsubscribe-Post, which RFC 8058 §4 requires to be signed for one-click unsubscribing.
 */
const SIGNED_HEADERS = [
  'From',
  'Sender',
  'Reply-To',
  'Subject',
  'Date',
  'Message-ID',
  'To',
  'Cc',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'In-Reply-To',
  'References',
  'List-Id',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
].join(':');

let nodemailer: Promise<typeof Nodemailer> | null = null;

/**
 * Builds the message (nodemailer's composer) and signs it with the sending domain's key
 * (nodemailer's DKIM signer, rsa-sha256, relaxed/relaxed). A message with a `category` is a
 * bulk-style message: each recipient gets a copy with their own one-click unsubscribe link
 * (RFC 8058 `List-Unsubscribe` + `List-Unsubscribe-Post`), since the link names the addressee;
 * other messages go as one copy to every recipient.
 */
export async function composeCopies(
  spec: OutgoingSpec,
  key: SigningKey,
  ids: { readonly messageId: string; readonly date: Date },
  unsubscribeUrl: (address: string) => string,
): Promise<MessageCopy[]> {
  const mailer = await (nodemailer ??= import('nodemailer'));
  const transport: Transporter = mailer.default.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
    dkim: {
      domainName: key.domain,
      keySelector: key.selector,
      privateKey: key.privateKeyPem,
      headerFieldNames: SIGNED_HEADERS,
    },
  });
  const build = async (extra: Record<string, string>): Promise<Buffer> => {
    const info = await transport.sendMail({
      from: spec.from_name ? { name: spec.from_name, address: spec.from } : spec.from,
      to: [...spec.to],
      ...(spec.cc.length > 0 ? { cc: [...spec.cc] } : {}),
      ...(spec.reply_to !== null ? { replyTo: spec.reply_to } : {}),
      subject: spec.subject,
      ...(spec.text !== null ? { text: spec.text } : {}),
      ...(spec.html !== null ? { html: spec.html } : {}),
      messageId: ids.messageId,
      date: ids.date,
      headers: { ...spec.headers, ...extra },
    });
    return info.message as Buffer;
  };
  if (spec.category === null) return [{ recipients: spec.recipients, raw: await build({}) }];
  const copies: MessageCopy[] = [];
  for (const rcpt of spec.recipients) {
    copies.push({
      recipients: [rcpt],
      raw: await build({
        'List-Unsubscribe': `<${unsubscribeUrl(rcpt)}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      }),
    });
  }
  return copies;
}
