import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { GameRoutesService } from './game-routes-service.ts';

/** `/gameproxy/availability`, `/name-suggestions`, `/policy`, `/routes` and `/routes/{route_id}`. */
export function registerGameRouteRoutes(app: ModuleApp, service: GameRoutesService): void {
  void app;
  void service;
}
