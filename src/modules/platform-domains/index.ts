/** The platform domains module's public surface. */
export { createPlatformDomainsModule } from './platform-domains-module.ts';
export { platformDomainsConfig, type PlatformDomainsSettings } from './platform-domains-config.ts';
