import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { BoostsService } from './boosts-service.ts';

/** `POST /orgs/{org_slug}/partners/{partner}/boosts` (a partner key as Bearer). */
export function registerBoostRoutes(app: ModuleApp, service: BoostsService): void {
  void app;
  void service;
}
