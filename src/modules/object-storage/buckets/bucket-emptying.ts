/**
 * What a bucket holds at the gateway, and emptying it before it is removed: S3 removes only an
 * empty bucket — no object, no version, no delete marker, no unfinished multipart upload.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { s3Sdk } from '../gateway/s3-sdk.ts';

/** S3's largest page of a listing and batch of DeleteObjects. */
const BATCH = 1000;

/** Whether the bucket holds anything: an object or a version of one, a delete marker, an upload. */
export async function holdsAnything(client: S3Client, bucket: string): Promise<boolean> {
  const v = await client.send(new (await s3Sdk()).ListObjectVersionsCommand({ Bucket: bucket, MaxKeys: 1 }));
  if ((v.Versions?.length ?? 0) + (v.DeleteMarkers?.length ?? 0) > 0) return true;
  const u = await client.send(
    new (await s3Sdk()).ListMultipartUploadsCommand({ Bucket: bucket, MaxUploads: 1 }),
  );
  return (u.Uploads?.length ?? 0) > 0;
}

/**
 * Removes every version of every object and every delete marker, then aborts every unfinished
 * upload; answers how many objects (versions, of a versioned bucket) were destroyed. Each round
 * lists from the start: what the previous round listed is gone.
 */
export async function emptyBucket(client: S3Client, bucket: string): Promise<number> {
  let destroyed = 0;
  for (;;) {
    const page = await client.send(
      new (await s3Sdk()).ListObjectVersionsCommand({ Bucket: bucket, MaxKeys: BATCH }),
    );
    const versions = page.Versions ?? [];
    const entries = [...versions, ...(page.DeleteMarkers ?? [])];
    if (entries.length === 0) break;
    const out = await client.send(
      new (await s3Sdk()).DeleteObjectsCommand({
        Bucket: bucket,
        Delete: {
          Objects: entries.map((e) => ({
            Key: e.Key!,
            ...(e.VersionId !== undefined ? { VersionId: e.VersionId } : {}),
          })),
          Quiet: true,
        },
      }),
    );
    const failed = out.Errors ?? [];
    if (failed.length > 0) throw new Error(`DeleteObjects: ${failed[0]!.Key} ${failed[0]!.Code}`);
    destroyed += versions.length;
  }
  for (;;) {
    const page = await client.send(
      new (await s3Sdk()).ListMultipartUploadsCommand({ Bucket: bucket, MaxUploads: BATCH }),
    );
    const uploads = page.Uploads ?? [];
    if (uploads.length === 0) break;
    for (const u of uploads)
      await client.send(
        new (await s3Sdk()).AbortMultipartUploadCommand({
          Bucket: bucket,
          Key: u.Key!,
          UploadId: u.UploadId!,
        }),
      );
  }
  return destroyed;
}
