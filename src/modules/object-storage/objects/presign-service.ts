/**
 * Presigned URLs (POST /client/object-storage/{service_id}/buckets/{bucket_id}/objects/presign):
 * one GET, PUT or DELETE of an object by a browser, without credentials, for at most the plan's
 * `presign_max_seconds`. Signed with the service's default key for the bucket region's public
 * endpoint; the gateway checks the signature and the expiry.
 */
import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import { bucketNotFound, storageNotActive } from '../object-storage-errors.ts';
import type { ObjectStorageContext } from '../object-storage-context.ts';
import type { ServiceS3 } from '../storage/service-s3.ts';
import type { StorageAccess } from '../storage/storage-access.ts';
import type { StorageRepos } from '../storage/storage-repos.ts';
import { Presigner, type PresignMethod } from './presigner.ts';

/** SigV4's longest validity of a presigned URL (seven days). */
const SIGV4_MAX_SECONDS = 7 * 24 * 3600;
export const DEFAULT_EXPIRES_IN = 900;

export interface PresignInput {
  readonly method: PresignMethod;
  readonly key: string;
  readonly expires_in?: number | undefined;
  readonly content_type?: string | undefined;
}

export interface PresignedObjectUrl {
  readonly url: string;
  readonly method: PresignMethod;
  readonly key: string;
  readonly expires_at: string;
  /** Headers the request must send as given (`content-type` when it was signed). */
  readonly headers: Record<string, string>;
}

export class PresignService {
  private readonly presigner: Presigner;

  constructor(
    private readonly ctx: ObjectStorageContext,
    private readonly access: StorageAccess,
    private readonly s3: ServiceS3,
    private readonly repos: StorageRepos,
  ) {
    this.presigner = new Presigner(ctx.settings.signingRegion);
  }

  async presign(
    owner: OwnerScope,
    serviceId: number,
    bucketId: number,
    input: PresignInput,
  ): Promise<PresignedObjectUrl> {
    const { storage } = await this.access.serviceFor(
      owner,
      serviceId,
      input.method === 'GET' ? 'read' : 'write',
    );
    const bucket = await this.repos.buckets.find(serviceId, bucketId);
    if (bucket === null) throw bucketNotFound();
    if (storage.status !== 'active') throw storageNotActive(storage.status);
    const expiresIn = input.expires_in ?? DEFAULT_EXPIRES_IN;
    const max = Math.min(storage.presign_max_seconds, SIGV4_MAX_SECONDS);
    if (expiresIn > max)
      throw invalidField(['body', 'expires_in'], `Must be at most ${max} seconds`, expiresIn);
    if (input.content_type !== undefined && input.method !== 'PUT')
      throw invalidField(['body', 'content_type'], 'Only a PUT sends a content type', input.content_type);
    const now = new Date(this.ctx.clock.now());
    const signed = await this.presigner.presign(await this.s3.credentials(serviceId), {
      method: input.method,
      endpoint: this.s3.region(bucket.region_code).endpoint,
      bucket: bucket.name,
      key: input.key,
      expiresIn,
      ...(input.content_type !== undefined ? { contentType: input.content_type } : {}),
      signingDate: now,
    });
    return {
      url: signed.url,
      method: input.method,
      key: input.key,
      expires_at: new Date(now.getTime() + expiresIn * 1000).toISOString(),
      headers: signed.headers,
    };
  }
}
