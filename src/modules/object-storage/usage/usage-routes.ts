import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { UsageService } from './usage-service.ts';

/** Usage (base /api/v1/client/object-storage/{service_id}/usage), with an access token (to be built). */
export function registerUsageRoutes(_app: ModuleApp, _service: UsageService): void {}
