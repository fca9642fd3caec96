import type { ConfigSection } from '../kernel/config/config-section.ts';
import { analyticsConfig } from '../modules/analytics/analytics-config.ts';
import { billingConfig } from '../modules/billing/billing-config.ts';
import { computeConfig, pveProviderConfig } from '../modules/compute/compute-config.ts';
import { commerceConfig } from '../modules/commerce/commerce-config.ts';
import { certificatesConfig } from '../modules/certificates/certificates-config.ts';
import { dnsConfig } from '../modules/dns/dns-config.ts';
import { gameServerSourcesConfig, gameServersConfig } from '../modules/game-servers/game-servers-config.ts';
import { gameproxyConfig } from '../modules/gameproxy/gameproxy-config.ts';
import { loadBalancingConfig } from '../modules/load-balancing/load-balancing-config.ts';
import { mailConfig } from '../modules/mail/mail-config.ts';
import { objectStorageConfig } from '../modules/object-storage/object-storage-config.ts';
import { platformDomainsConfig } from '../modules/platform-domains/platform-domains-config.ts';
import { edgeConfig } from '../nodes/edge/edge-config.ts';

/**
 * Every module's settings section, validated together at start. Read through each module's
 * settings door (`<m>-config.ts`), not its index.ts: a DNS or edge node reads every setting
 * without evaluating the platform modules' routes and services (their code is never loaded there).
 */
export const CONFIG_SECTIONS: readonly ConfigSection<unknown>[] = [
  dnsConfig,
  loadBalancingConfig,
  certificatesConfig,
  platformDomainsConfig,
  mailConfig,
  billingConfig,
  objectStorageConfig,
  gameproxyConfig,
  gameServersConfig,
  gameServerSourcesConfig,
  computeConfig,
  commerceConfig,
  pveProviderConfig,
  edgeConfig,
  analyticsConfig,
];
