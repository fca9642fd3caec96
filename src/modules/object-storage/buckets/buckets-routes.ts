import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { BucketsService } from './buckets-service.ts';

/** Buckets (base /api/v1/client/object-storage/{service_id}/...), with an access token (to be built). */
export function registerBucketRoutes(_app: ModuleApp, _service: BucketsService): void {}
