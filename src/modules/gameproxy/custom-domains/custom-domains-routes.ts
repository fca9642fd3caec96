import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { CustomDomainsService } from './custom-domains-service.ts';

/** `/gameproxy/routes/{route_id}/custom-domain` (GET, POST, PATCH, DELETE) and `.../verify`. */
export function registerCustomDomainRoutes(app: ModuleApp, service: CustomDomainsService): void {
  void app;
  void service;
}
