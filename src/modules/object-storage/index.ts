export {
  RgwAdminClient,
  RgwAdminError,
  type RgwAdminOptions,
  type RgwKey,
  type RgwQuota,
  type RgwUsage,
  type RgwUsageCategory,
  type RgwUserInfo,
  type RgwUserRef,
} from './gateway/rgw-admin-client.ts';
