import type { Module } from '../kernel/app-context.ts';
import type { AccessTokens } from '../kernel/auth/access-token.ts';
import { authModule } from './auth/auth-module.ts';
import { dnsModule } from './dns/dns-module.ts';
import { locationsModule } from './locations/locations-module.ts';

/** Every control-plane module, in the order they register and start. */
export function controlPlaneModules(tokens: AccessTokens): Module[] {
  return [authModule(tokens), locationsModule, dnsModule];
}
