import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { StorageService } from './storage-service.ts';

/** Regions and services (base /api/v1/client/object-storage), with an access token (to be built). */
export function registerStorageRoutes(_app: ModuleApp, _service: StorageService): void {}
