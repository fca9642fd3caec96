/**
 * Reads the two kinds of reports a relay receives into delivery events, without
 * throwing on anything: RFC 3464 delivery status notifications and RFC 5965 feedback reports, both
 * `multipart/report` (RFC 6522). Only the few MIME rules these reports need are read here: header
 * fields (RFC 5322 §2.2, unfolded), a multipart's boundary (RFC 2046 §5.1.1), base64 and
 * quoted-printable part bodies.
 */

export interface ReportEvent {
  readonly event: 'delivered' | 'deferred' | 'bounced' | 'complaint';
  readonly type: string;
  /** The lower-case address the event is about, when the report names it. */
  readonly recipient: string | null;
  /** The remote server's answer or the report's summary, at most 2000 characters. */
  readonly response: string | null;
}

export interface ParsedReport {
  readonly kind: 'dsn' | 'arf';
  readonly events: readonly ReportEvent[];
  /** RFC 3461 §4.4 Original-Envelope-Id (our queue id), when the DSN carries it. */
  readonly envelopeId: string | null;
  /** The original message's Message-ID as returned in the report. */
  readonly originalMessageId: string | null;
  /** The original's header fields as returned (lower-case names → first value). */
  readonly originalHeaders: Readonly<Record<string, string>>;
}

type Fields = Map<string, string>;

interface Part {
  readonly headers: Fields;
  readonly body: string;
}

/** Header fields of a block (names lower-cased, folded lines joined; the first of a name kept). */
export function parseFields(block: string): Fields {
  const fields: Fields = new Map();
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!/^[!-9;-~]+$/.test(name) || fields.has(name)) continue;
    fields.set(name, line.slice(colon + 1).trim());
  }
  return fields;
}

function splitHeaderBody(text: string): Part {
  const m = /\r?\n\r?\n/.exec(text);
  if (m === null) return { headers: parseFields(text), body: '' };
  return { headers: parseFields(text.slice(0, m.index)), body: text.slice(m.index + m[0].length) };
}

/** A Content-Type's media type (lower case) and its parameters (RFC 2045 §5.1). */
function contentType(value: string | undefined): { type: string; params: Map<string, string> } {
  const v = value ?? 'text/plain';
  const params = new Map<string, string>();
  for (const m of v.matchAll(/;\s*([A-Za-z0-9_.-]+)\s*=\s*("((?:[^"\\]|\\.)*)"|[^;\s]+)/g)) {
    params.set(m[1]!.toLowerCase(), m[3] !== undefined ? m[3].replace(/\\(.)/g, '$1') : m[2]!);
  }
  return { type: v.split(';')[0]!.trim().toLowerCase(), params };
}

function decode(part: Part): string {
  const enc = (part.headers.get('content-transfer-encoding') ?? '').toLowerCase();
  if (enc === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    return part.body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
  return part.body;
}

function multipartParts(body: string, boundary: string): Part[] {
  const delimiter = `--${boundary}`;
  const parts: Part[] = [];
  const lines = body.split(/\r?\n/);
  let current: string[] | null = null;
  for (const line of lines) {
    if (line.startsWith(delimiter)) {
      if (current !== null) parts.push(splitHeaderBody(current.join('\r\n')));
      if (line.startsWith(`${delimiter}--`)) return parts;
      current = [];
    } else if (current !== null) {
      current.push(line);
    }
  }
  if (current !== null) parts.push(splitHeaderBody(current.join('\r\n')));
  return parts;
}

/** Blocks of fields separated by blank lines (RFC 3464 §2.1: per-message, then per-recipient). */
function fieldBlocks(text: string): Fields[] {
  return text
    .split(/\r?\n[ \t]*\r?\n/)
    .map((b) => b.trim())
    .filter((b) => b !== '')
    .map(parseFields);
}

/** `rfc822; User@Example.net` → `user@example.net` (RFC 3464 §2.3.2 address-type). */
function address(value: string | undefined): string | null {
  if (value === undefined) return null;
  const semi = value.indexOf(';');
  const a = (semi >= 0 ? value.slice(semi + 1) : value).trim().replace(/^<|>$/g, '').trim();
  return a.includes('@') ? a.toLowerCase() : null;
}

function clip(text: string | null): string | null {
  return text === null ? null : text.replace(/\s+/g, ' ').trim().slice(0, 2000);
}

function headersOf(fields: Fields): Record<string, string> {
  return Object.fromEntries(fields);
}

/** The returned original: a message/rfc822 part (its header), or text/rfc822-headers. */
function originalOf(parts: readonly Part[]): Fields | null {
  for (const p of parts) {
    const t = contentType(p.headers.get('content-type')).type;
    if (t === 'message/rfc822' || t === 'text/rfc822-headers' || t === 'message/rfc822-headers') {
      return splitHeaderBody(decode(p)).headers;
    }
  }
  return null;
}

/** RFC 3464 §2.3.3 Action → the delivery event and its type (docs/mail.md, "Events"). */
function dsnEvent(action: string): Pick<ReportEvent, 'event' | 'type'> | null {
  switch (action.toLowerCase()) {
    case 'delivered':
    case 'relayed':
    case 'expanded':
      return { event: 'delivered', type: 'delivery.dsn-success' };
    case 'delayed':
      return { event: 'deferred', type: 'delivery.dsn-temp-fail' };
    case 'failed':
      return { event: 'bounced', type: 'delivery.dsn-perm-fail' };
    default:
      return null;
  }
}

/**
 * RFC 5965 §7.3 Feedback-Type → the complaint types (docs/mail.md, "Events"). `abuse`, `fraud` and
 * `auth-failure` map to their own; `virus` and `other` are complaints about the mail too, filed as
 * abuse reports; `not-spam` is a recipient saying the mail was wanted: no complaint.
 */
function feedbackType(value: string): string | null {
  switch (value.trim().toLowerCase()) {
    case 'abuse':
    case 'virus':
    case 'other':
      return 'incoming-report.abuse-report';
    case 'fraud':
      return 'incoming-report.fraud-report';
    case 'auth-failure':
      return 'incoming-report.auth-failure-report';
    default:
      return null;
  }
}

export async function parseReport(raw: Buffer): Promise<ParsedReport | null> {
  try {
    return readReport(raw.toString('utf8'));
  } catch {
    return null;
  }
}

function readReport(text: string): ParsedReport | null {
  const top = splitHeaderBody(text);
  const ct = contentType(top.headers.get('content-type'));
  const boundary = ct.params.get('boundary');
  if (ct.type !== 'multipart/report' || boundary === undefined) return null;
  const reportType = (ct.params.get('report-type') ?? '').toLowerCase();
  const parts = multipartParts(top.body, boundary);
  const original = originalOf(parts);
  const originalHeaders = original === null ? {} : headersOf(original);
  const originalMessageId = original?.get('message-id') ?? null;

  if (reportType === 'delivery-status') {
    const status = parts.find(
      (p) => contentType(p.headers.get('content-type')).type === 'message/delivery-status',
    );
    if (status === undefined) return null;
    const [perMessage, ...perRecipient] = fieldBlocks(decode(status));
    // A bounce of a bounce: the returned original is itself a delivery report, or was sent with
    // the null reverse-path (RFC 5321 §4.5.5), which only reports use.
    const originalType = contentType(original?.get('content-type')).type;
    const originalReportType = (
      contentType(original?.get('content-type')).params.get('report-type') ?? ''
    ).toLowerCase();
    const returnPath = original?.get('return-path');
    const postfixSender = perMessage?.get('x-postfix-sender');
    const doubleBounce =
      (originalType === 'multipart/report' && originalReportType === 'delivery-status') ||
      returnPath === '<>' ||
      (postfixSender !== undefined && address(postfixSender) === null && /;\s*$/.test(postfixSender)) ||
      /^mailer-daemon@/i.test(address(perMessage?.get('x-postfix-sender')) ?? '');
    const events: ReportEvent[] = [];
    for (const r of perRecipient) {
      const mapped = dsnEvent(r.get('action') ?? '');
      if (mapped === null) continue;
      const bounced = mapped.event === 'bounced' && doubleBounce;
      events.push({
        ...(bounced ? { event: 'bounced', type: 'delivery.double-bounce' } : mapped),
        recipient: address(r.get('original-recipient')) ?? address(r.get('final-recipient')),
        response: clip(
          r.get('diagnostic-code')?.replace(/^[a-z0-9-]+;\s*/i, '') ??
            `${r.get('action') ?? ''} ${r.get('status') ?? ''}`.trim(),
        ),
      });
    }
    return {
      kind: 'dsn',
      events,
      envelopeId: perMessage?.get('original-envelope-id')?.trim() ?? null,
      originalMessageId,
      originalHeaders,
    };
  }

  if (reportType === 'feedback-report') {
    const feedback = parts.find(
      (p) => contentType(p.headers.get('content-type')).type === 'message/feedback-report',
    );
    if (feedback === undefined) return null;
    const fields = fieldBlocks(decode(feedback))[0] ?? new Map<string, string>();
    const type = feedbackType(fields.get('feedback-type') ?? '');
    const to = original?.get('to') ?? '';
    const named = [...to.matchAll(/<([^<>\s]+@[^<>\s]+)>|(?:^|[\s,])([^\s<>,"]+@[^\s<>,"]+)/g)].map((m) =>
      (m[1] ?? m[2])!.toLowerCase(),
    );
    const single = named.length === 1 ? named[0]! : null;
    const recipient = address(fields.get('original-rcpt-to')) ?? single;
    return {
      kind: 'arf',
      events:
        type === null
          ? []
          : [
              {
                event: 'complaint',
                type,
                recipient,
                response: clip(
                  `Feedback-Type: ${fields.get('feedback-type') ?? ''}${
                    fields.get('user-agent') ? `; User-Agent: ${fields.get('user-agent')}` : ''
                  }`,
                ),
              },
            ],
      envelopeId: null,
      originalMessageId,
      originalHeaders,
    };
  }
  return null;
}
