/** The object storage module's public surface. */
export {
  createObjectStorageModule,
  type ObjectStorageModule,
  type ObjectStorageModuleDeps,
} from './object-storage-module.ts';
export { objectStorageConfig, type ObjectStorageSettings } from './object-storage-config.ts';
export {
  RgwAdminClient,
  RgwAdminError,
  type RgwAdminOptions,
  type RgwBucketStats,
  type RgwKey,
  type RgwQuota,
  type RgwUsage,
  type RgwUsageCategory,
  type RgwUserInfo,
  type RgwUserRef,
} from './gateway/rgw-admin-client.ts';
export {
  CEPH_BINARIES,
  CephNode,
  cephBinaries,
  type CephNodeSpec,
  type OsdStore,
} from './gateway/ceph-daemons.ts';
export { Presigner, type PresignInput, type PresignMethod, type PresignedUrl } from './objects/presigner.ts';
