/**
 * What makes a key's scope hold at the gateway (the gateway enforces it, not us):
 * - full access to the whole service: one more key of the tenant's `owner` user;
 * - read-only on the whole service: a subuser of the owner (`owner:r<id>`) with `read` access;
 * - one bucket: a user of its own (`k<id>`, no buckets) let in by the bucket's policy.
 * Revoking undoes it; the next request with the key answers InvalidAccessKeyId.
 */
import { s3Sdk } from '../gateway/s3-sdk.ts';
import type { Bucket, KeyAccess, StorageKey, StorageService } from '../object-storage-tables.ts';
import type { ServiceS3 } from '../storage/service-s3.ts';
import { OWNER_UID, type TenantUsers } from '../storage/tenant-users.ts';
import type { KeysRepository } from '../storage/keys-repository.ts';
import { bucketPolicy } from './bucket-policy.ts';

/** Where a new key lives at the gateway (the row's `rgw_user` and `subuser`). */
export interface KeyHolder {
  readonly rgwUser: string;
  readonly subuser: string | null;
}

export const holderOf = (id: number, access: KeyAccess, bucket: Bucket | null): KeyHolder =>
  bucket !== null
    ? { rgwUser: `k${id}`, subuser: null }
    : access === 'read'
      ? { rgwUser: OWNER_UID, subuser: `r${id}` }
      : { rgwUser: OWNER_UID, subuser: null };

type Pair = { accessKey: string; secretKey: string };

export class KeyGrants {
  /** Policy rewrites of one bucket run one at a time (each derives the policy from the rows). */
  private readonly queues = new Map<number, Promise<unknown>>();

  constructor(
    private readonly users: TenantUsers,
    private readonly s3: ServiceS3,
    private readonly keys: KeysRepository,
  ) {}

  /** The key's holder at the gateway, with the key (the bucket's policy comes once its row exists). */
  async grant(tenant: string, holder: KeyHolder, access: KeyAccess, pair: Pair): Promise<void> {
    if (holder.subuser !== null) return this.users.addSubuser(tenant, holder.subuser, access, pair);
    if (holder.rgwUser !== OWNER_UID) await this.users.createKeyUser(tenant, holder.rgwUser);
    await this.users.addKey(tenant, holder.rgwUser, pair);
  }

  /** Takes the key away at the gateway (a bucket key: the policy without it first, then its user). */
  async revoke(storage: StorageService, key: StorageKey, bucket: Bucket | null): Promise<void> {
    if (key.subuser !== null) return this.users.removeSubuser(storage.tenant, key.subuser, key.access_key);
    if (key.rgw_user === OWNER_UID) return this.users.removeKey(storage.tenant, OWNER_UID, key.access_key);
    if (bucket !== null) await this.writePolicy(storage, bucket, key.id);
    await this.users.removeKey(storage.tenant, key.rgw_user, key.access_key);
    await this.users.removeUser(storage.tenant, key.rgw_user);
  }

  /** Undoes grant() of a key whose row could not be written. */
  async ungrant(tenant: string, holder: KeyHolder, accessKey: string): Promise<void> {
    if (holder.subuser !== null) return this.users.removeSubuser(tenant, holder.subuser, accessKey);
    await this.users.removeKey(tenant, holder.rgwUser, accessKey);
    if (holder.rgwUser !== OWNER_UID) await this.users.removeUser(tenant, holder.rgwUser);
  }

  /**
   * The bucket's policy from every active key scoped to it (but `except`), see bucket-policy.ts.
   * A bucket gone from the gateway has nothing to let anyone into.
   */
  writePolicy(storage: StorageService, bucket: Bucket, except?: number): Promise<void> {
    const previous = this.queues.get(bucket.id) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.rewrite(storage, bucket, except));
    this.queues.set(bucket.id, next);
    void next
      .finally(() => {
        if (this.queues.get(bucket.id) === next) this.queues.delete(bucket.id);
      })
      .catch(() => undefined);
    return next;
  }

  private async rewrite(storage: StorageService, bucket: Bucket, except?: number): Promise<void> {
    const grants = (await this.keys.active(storage.service_id))
      .filter((k) => k.bucket_id === bucket.id && k.id !== except)
      .map((k) => ({ uid: k.rgw_user, access: k.access }));
    const policy = bucketPolicy(storage.tenant, bucket.name, grants);
    const client = await this.s3.client(storage, bucket.region_code);
    try {
      await client.send(new (await s3Sdk()).PutBucketPolicyCommand({ Bucket: bucket.name, Policy: policy }));
    } catch (e) {
      if ((e as { name?: string }).name !== 'NoSuchBucket') throw e;
    }
  }
}
