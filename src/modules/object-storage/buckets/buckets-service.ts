/** Buckets of a storage service (to be built). */
import type { ObjectStorageContext } from '../object-storage-context.ts';
import type { ServiceS3 } from '../storage/service-s3.ts';
import type { StorageAccess } from '../storage/storage-access.ts';
import type { StorageRepos } from '../storage/storage-repos.ts';

export class BucketsService {
  constructor(
    readonly ctx: ObjectStorageContext,
    readonly access: StorageAccess,

    readonly s3: ServiceS3,
    readonly repos: StorageRepos,
  ) {}
}
