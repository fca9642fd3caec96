/** Usage of a service over time (to be built). */
import type { ObjectStorageContext } from '../object-storage-context.ts';
import type { StorageAccess } from '../storage/storage-access.ts';

export class UsageService {
  constructor(
    readonly ctx: ObjectStorageContext,
    readonly access: StorageAccess,
  ) {}
}
