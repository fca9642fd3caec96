/**
 * Labels no account may claim under a platform suffix: names of the platform's own services,
 * mail and DNS conventions, and words that invite impersonation. Reviewed by hand; extend freely.
 */
// prettier-ignore
export const RESERVED_LABELS: ReadonlySet<string> = new Set([
  // web and the platform
  'www', 'api', 'admin', 'administrator', 'app', 'apps', 'dashboard', 'console', 'portal', 'panel',
  'status', 'docs', 'help', 'support', 'billing', 'account', 'accounts', 'login', 'signin', 'signup',
  'auth', 'sso', 'oauth', 'id', 'my', 'static', 'assets', 'cdn', 'media', 'img', 'images', 'files',
  'download', 'downloads', 'blog', 'news', 'shop', 'store', 'pay', 'payments', 'checkout',
  // mail
  'mail', 'email', 'smtp', 'imap', 'pop', 'pop3', 'mx', 'webmail', 'autoconfig', 'autodiscover',
  'postmaster', 'hostmaster', 'webmaster', 'abuse', 'noreply', 'no-reply', 'bounce', 'bounces',
  // DNS and infrastructure
  'ns', 'ns1', 'ns2', 'ns3', 'ns4', 'dns', 'root', 'localhost', 'gateway', 'router', 'vpn', 'proxy',
  'ftp', 'sftp', 'ssh', 'git', 'registry', 'internal', 'intranet', 'corp', 'staging', 'test', 'dev',
  // trust
  'security', 'secure', 'ssl', 'tls', 'certs', 'verify', 'official', 'platform', 'staff', 'team',
]);
