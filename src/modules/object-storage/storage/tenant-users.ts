/**
 * A service's users at the gateway: its tenant (`svc<id>`) holds the owner user (`owner`, full
 * access to the tenant's buckets) and one user per bucket-scoped key (`k<id>`, which reaches only
 * what bucket policies grant it). They are made at every distinct gateway of the service's regions,
 * with the same keys, so one key works in every region.
 */
import { randomBytes } from 'node:crypto';
import { RgwAdminError, type RgwUserRef } from '../gateway/rgw-admin-client.ts';
import type { StorageGateways } from '../gateway/storage-gateways.ts';

export const OWNER_UID = 'owner';

/** `svc<id>`: the tenant of a service, and the seed's `namespace`. */
export const tenantOf = (serviceId: number): string => `svc${serviceId}`;

/** A fresh S3 key pair: 20 characters of A-Z0-9 and 40 of base64 without `+/=` (AWS's shapes). */
export function newKeyPair(): { accessKey: string; secretKey: string } {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const accessKey = [...randomBytes(20)].map((b) => alphabet[b % 32]).join('');
  const secretKey = randomBytes(30).toString('base64').replace(/\+/g, 'A').replace(/\//g, 'B');
  return { accessKey, secretKey };
}

const already = (e: unknown, ...codes: string[]): boolean =>
  e instanceof RgwAdminError && codes.includes(e.code);

export class TenantUsers {
  constructor(private readonly gateways: StorageGateways) {}

  /** The owner user at each gateway, with the plan's quota (set, then enabled) and bucket limit. */
  async createOwner(
    tenant: string,
    limits: { quotaBytes: number | null; maxBuckets: number },
  ): Promise<void> {
    const user: RgwUserRef = { tenant, uid: OWNER_UID };
    for (const g of this.gateways.distinct()) {
      try {
        await g.admin.createUser(user, `${tenant} owner`, { maxBuckets: limits.maxBuckets });
      } catch (e) {
        if (!already(e, 'UserAlreadyExists')) throw e;
      }
      if (limits.quotaBytes !== null) {
        await g.admin.setUserQuota(user, { maxSizeBytes: limits.quotaBytes });
        await g.admin.enableUserQuota(user, true);
      }
    }
  }

  /** A user of its own for a bucket-scoped key (no buckets of its own: max-buckets -1). */
  async createKeyUser(tenant: string, uid: string): Promise<void> {
    for (const g of this.gateways.distinct()) {
      try {
        await g.admin.createUser({ tenant, uid }, `${tenant} key ${uid}`, { maxBuckets: -1 });
      } catch (e) {
        if (!already(e, 'UserAlreadyExists')) throw e;
      }
    }
  }

  /** The key on the user at every gateway. */
  async addKey(tenant: string, uid: string, key: { accessKey: string; secretKey: string }): Promise<void> {
    for (const g of this.gateways.distinct()) {
      try {
        await g.admin.createKey({ tenant, uid }, key);
      } catch (e) {
        if (!already(e, 'KeyExists')) throw e;
      }
    }
  }

  async removeKey(tenant: string, uid: string, accessKey: string): Promise<void> {
    for (const g of this.gateways.distinct()) {
      try {
        await g.admin.deleteKey({ tenant, uid }, accessKey);
      } catch (e) {
        if (!already(e, 'NoSuchKey', 'InvalidAccessKeyId', 'NoSuchUser')) throw e;
      }
    }
    this.gateways.forget(accessKey);
  }

  /** A subuser of the owner (`owner:<name>`) with its own S3 key and `access`, at every gateway. */
  async addSubuser(
    tenant: string,
    name: string,
    access: 'read' | 'readwrite',
    key: { accessKey: string; secretKey: string },
  ): Promise<void> {
    for (const g of this.gateways.distinct()) {
      try {
        await g.admin.createSubuser({ tenant, uid: OWNER_UID }, name, access, key);
      } catch (e) {
        if (!already(e, 'SubuserExists', 'KeyExists')) throw e;
      }
    }
  }

  /** Removes the owner's subuser with its keys: the next request with them is refused. */
  async removeSubuser(tenant: string, name: string, accessKey: string): Promise<void> {
    for (const g of this.gateways.distinct()) {
      try {
        await g.admin.deleteSubuser({ tenant, uid: OWNER_UID }, name);
      } catch (e) {
        if (!already(e, 'NoSuchSubUser', 'NoSuchUser', 'InvalidArgument')) throw e;
      }
    }
    this.gateways.forget(accessKey);
  }

  /** Removes one user of the tenant (a bucket key's) at every gateway. */
  async removeUser(tenant: string, uid: string): Promise<void> {
    for (const g of this.gateways.distinct()) {
      try {
        await g.admin.deleteUser({ tenant, uid });
      } catch (e) {
        if (!already(e, 'NoSuchUser')) throw e;
      }
    }
  }

  /** Suspends (or lifts) the users: requests with any of their keys are refused, data kept. */
  async setSuspended(tenant: string, uids: readonly string[], suspended: boolean): Promise<void> {
    for (const g of this.gateways.distinct())
      for (const uid of uids) {
        try {
          await g.admin.setSuspended({ tenant, uid }, suspended);
        } catch (e) {
          if (!already(e, 'NoSuchUser')) throw e;
        }
      }
  }

  /** The tenant's buckets with their objects, then its users: nothing of the service is left. */
  async purge(tenant: string, uids: readonly string[]): Promise<void> {
    for (const g of this.gateways.distinct()) {
      let buckets: string[] = [];
      try {
        buckets = await g.admin.listBuckets({ tenant, uid: OWNER_UID });
      } catch (e) {
        if (!already(e, 'NoSuchUser')) throw e;
      }
      for (const b of buckets) {
        try {
          await g.admin.deleteBucket(tenant, b.includes('/') ? b.slice(b.indexOf('/') + 1) : b, true);
        } catch (e) {
          if (!already(e, 'NoSuchBucket')) throw e;
        }
      }
      for (const uid of uids) {
        try {
          await g.admin.deleteUser({ tenant, uid });
        } catch (e) {
          if (!already(e, 'NoSuchUser')) throw e;
        }
      }
    }
  }
}
