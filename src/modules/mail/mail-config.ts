import { defineConfigSection } from '../../kernel/config/config-section.ts';

/** The mail relay's settings (docs/mail.md, "Configuration"; docs/configuration.md, "Mail"). */
export interface MailSettings {
  /** The MTA messages are handed to (`smtp://host:port`); null → .eml files in DATA_DIR/mail-out. */
  readonly relaySmtpUrl: string | null;
  /** The domain of the VERP return path `bounce+<token>@<domain>` and of `abuse@<domain>`. */
  readonly bounceDomain: string;
  /** The SPF record senders publish: `v=spf1 include:<this> ~all`. */
  readonly spfInclude: string;
  /** `host:port` of the resolver domain checks ask; null → the system resolver. */
  readonly checkResolver: string | null;
  /**
   * The inbound SMTP listener for DSNs and feedback reports (25 in production, as the MX of the
   * bounce domain); null → none (the embedded default); 0 → a port the system picks (tests).
   */
  readonly inboundPort: number | null;
  readonly inboundHost: string;
  /** Base URL of this API as mail receivers reach it (the List-Unsubscribe link). */
  readonly publicApiUrl: string;
}

export const mailConfig = defineConfigSection<MailSettings>('mail', (env) => {
  const resolver = env.optional('MAIL_CHECK_RESOLVER');
  if (resolver !== null && !/^(\[[0-9a-f:.]+\]|[0-9.]+)(:\d{1,5})?$/i.test(resolver)) {
    env.problem(`MAIL_CHECK_RESOLVER must be host:port with an IP address, got "${resolver}"`);
  }
  const bounceDomain = env.hostnames('MAIL_BOUNCE_DOMAIN', 'bounces.localhost')[0] ?? 'bounces.localhost';
  // API_PORT is the kernel's to check; here it only makes the default link base.
  const apiPort = /^\d{1,5}$/.test(env.raw('API_PORT') ?? '') ? env.raw('API_PORT')! : '8080';
  // An SPF include names a domain whose labels may start with `_` (RFC 7208 §7.1 domain-spec).
  const spfInclude = env.str('MAIL_SPF_INCLUDE', `_spf.${bounceDomain}`).toLowerCase().replace(/\.$/, '');
  if (
    !/^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(
      spfInclude,
    )
  ) {
    env.problem(`MAIL_SPF_INCLUDE must be a domain name, got "${spfInclude}"`);
  }
  return {
    relaySmtpUrl: env.url('MAIL_RELAY_SMTP_URL', ['smtp:', 'smtps:']),
    bounceDomain,
    spfInclude,
    checkResolver: resolver,
    inboundPort:
      env.optional('MAIL_INBOUND_PORT') === null ? null : env.int('MAIL_INBOUND_PORT', 0, 0, 65535),
    inboundHost: env.host('MAIL_INBOUND_HOST', '0.0.0.0'),
    publicApiUrl: (env.url('PUBLIC_API_URL', ['http:', 'https:']) ?? `http://127.0.0.1:${apiPort}`).replace(
      /\/$/,
      '',
    ),
  };
});
