import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { KeysService } from './keys-service.ts';

/** Keys (base /api/v1/client/object-storage/{service_id}/...), with an access token (to be built). */
export function registerKeyRoutes(_app: ModuleApp, _service: KeysService): void {}
