/**
 * Objects of a bucket, through the gateway with the service's default key: a listing page (by our
 * lean ListObjectsV2, s3-listing.ts) and a bulk delete (the SDK). Each request reads the service
 * and the bucket once and makes one S3 call.
 */
import { s3Sdk } from '../gateway/s3-sdk.ts';
import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import { s3Code, viaGateway } from '../gateway/s3-failures.ts';
import { S3Lister } from '../gateway/s3-listing.ts';
import type { ObjectStorageContext } from '../object-storage-context.ts';
import { bucketNotFound, storageNotActive } from '../object-storage-errors.ts';
import type { Bucket, StorageService } from '../object-storage-tables.ts';
import type { ServiceS3 } from '../storage/service-s3.ts';
import type { StorageAccess } from '../storage/storage-access.ts';
import type { StorageRepos } from '../storage/storage-repos.ts';
import { entryMaker, type ObjectEntry } from './object-entry.ts';

export interface ObjectPage {
  items: ObjectEntry[];
  prefix: string;
  next_token: string | null;
}

export interface ObjectDeletion {
  deleted: number;
  errors: { key: string; code: string; message: string }[];
}

export interface ListingQuery {
  readonly prefix?: string | undefined;
  readonly token?: string | undefined;
  readonly max_keys: number;
  readonly flat: boolean;
}

export class ObjectsService {
  private readonly lister: S3Lister;

  constructor(
    private readonly ctx: ObjectStorageContext,
    private readonly access: StorageAccess,
    private readonly s3: ServiceS3,
    private readonly repos: StorageRepos,
  ) {
    this.lister = new S3Lister(ctx.settings.signingRegion);
  }

  /** A page of the bucket: folders first (unless flat), then objects, in key order. */
  async list(owner: OwnerScope, serviceId: number, bucketId: number, q: ListingQuery): Promise<ObjectPage> {
    const { storage, bucket } = await this.bucketOf(owner, serviceId, bucketId, 'read');
    const region = this.s3.region(bucket.region_code);
    const key = await this.s3.credentials(storage.service_id);
    const prefix = q.prefix ?? '';
    const page = await this.send(bucket, 'object listing', async () => {
      try {
        return await this.lister.list(
          region.internalUrl,
          key,
          {
            bucket: bucket.name,
            maxKeys: q.max_keys,
            prefix,
            delimiter: q.flat ? undefined : '/',
            continuationToken: q.token,
          },
          entryMaker,
        );
      } catch (e) {
        if (s3Code(e) === 'InvalidArgument')
          throw invalidField(['query', 'token'], 'Not a token of this listing', q.token);
        throw e;
      }
    });
    return { items: page.items, prefix, next_token: page.nextToken };
  }

  /** Deletes the keys (a missing key counts as deleted, as S3 says); failures per key are reported. */
  async delete(
    owner: OwnerScope,
    serviceId: number,
    bucketId: number,
    keys: readonly string[],
  ): Promise<ObjectDeletion> {
    const { storage, bucket } = await this.bucketOf(owner, serviceId, bucketId, 'write');
    const client = await this.s3.client(storage, bucket.region_code);
    const { DeleteObjectsCommand } = await s3Sdk();
    const out = await this.send(bucket, 'object deletion', () =>
      client.send(
        new DeleteObjectsCommand({
          Bucket: bucket.name,
          Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: false },
        }),
      ),
    );
    return {
      deleted: out.Deleted?.length ?? 0,
      errors: (out.Errors ?? []).map((e) => ({
        key: e.Key ?? '',
        code: e.Code ?? 'InternalError',
        message: e.Message ?? '',
      })),
    };
  }

  /** The caller's bucket, of an active service. */
  private async bucketOf(
    owner: OwnerScope,
    serviceId: number,
    bucketId: number,
    access: 'read' | 'write',
  ): Promise<{ storage: StorageService; bucket: Bucket }> {
    // Both lookups at once: the bucket is shown only once the service is known to be the caller's.
    const [{ storage }, bucket] = await Promise.all([
      this.access.serviceFor(owner, serviceId, access),
      this.repos.buckets.find(serviceId, bucketId),
    ]);
    if (bucket === null) throw bucketNotFound();
    // A suspended service's keys are refused by the gateway: say why instead.
    if (storage.status !== 'active') throw storageNotActive(storage.status);
    return { storage, bucket };
  }

  /** A gateway call on the bucket: a bucket gone at the gateway is not found. */
  private send<T>(bucket: Bucket, what: string, call: () => Promise<T>): Promise<T> {
    return viaGateway(this.ctx.log, what, async () => {
      try {
        return await call();
      } catch (e) {
        if (s3Code(e) === 'NoSuchBucket') throw bucketNotFound();
        throw e;
      }
    });
  }
}
