/**
 * Subdomains no account may take under a game proxy base domain: names of the platform's own
 * services, names players expect to be the network's own (play, mc, lobby, hub), and words that
 * invite impersonation. Reviewed by hand; extend freely.
 */
// prettier-ignore
export const RESERVED_SUBDOMAINS: ReadonlySet<string> = new Set([
  // web, mail and DNS of the platform
  'www', 'mail', 'smtp', 'imap', 'pop', 'mx', 'ns1', 'ns2', 'dns', 'api', 'app', 'cdn', 'static',
  'admin', 'administrator', 'root', 'status', 'support', 'help', 'docs', 'billing', 'account',
  'login', 'auth', 'dashboard', 'panel', 'console',
  // what players take for the network's own server
  'play', 'mc', 'minecraft', 'lobby', 'hub', 'server', 'servers', 'join', 'proxy', 'edge',
  'velocity', 'bungee', 'bungeecord', 'waterfall', 'realms',
  // trust
  'official', 'staff', 'team', 'security', 'abuse', 'test', 'localhost',
]);
