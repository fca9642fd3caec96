import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { ObjectsService } from './objects-service.ts';

/** Objects (base /api/v1/client/object-storage/{service_id}/...), with an access token (to be built). */
export function registerObjectRoutes(_app: ModuleApp, _service: ObjectsService): void {}
