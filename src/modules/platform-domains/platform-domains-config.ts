import { defineConfigSection } from '../../kernel/config/config-section.ts';

export interface PlatformDomainsSettings {
  /**
   * The platform's own suffixes (`apps.example.net`): zones this engine hosts, where account
   * holders claim `<label>.<suffix>`. None by default: the routes answer, nothing can be claimed.
   */
  readonly suffixes: readonly string[];
  /** `host:port` of the resolver asked whether a suffix is delegated to us; null → the system's. */
  readonly checkResolver: string | null;
}

export const platformDomainsConfig = defineConfigSection<PlatformDomainsSettings>(
  'platform-domains',
  (env) => {
    const suffixes = env.hostnames('PLATFORM_DOMAIN_SUFFIXES', '');
    for (const s of suffixes)
      if (!s.includes('.')) env.problem(`PLATFORM_DOMAIN_SUFFIXES: "${s}" needs two labels at least`);
    return { suffixes, checkResolver: env.optional('ACME_CHECK_RESOLVER') };
  },
);
