/** Regions and storage services as the API answers them (to be built). */
import type { LocationsDirectory } from '../../locations/index.ts';
import type { StorageGateways } from '../gateway/storage-gateways.ts';
import type { ObjectStorageContext } from '../object-storage-context.ts';
import type { StorageAccess } from './storage-access.ts';
import type { StorageRepos } from './storage-repos.ts';

export class StorageService {
  constructor(
    readonly ctx: ObjectStorageContext,
    readonly access: StorageAccess,
    readonly gateways: StorageGateways,
    readonly locations: LocationsDirectory,
    readonly repos: StorageRepos,
  ) {}
}
