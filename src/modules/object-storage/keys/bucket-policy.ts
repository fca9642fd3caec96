/**
 * The bucket policy that lets bucket-scoped keys in: each such key is a gateway user of the
 * tenant (`k<id>`) with no buckets of its own, granted read or object actions on one bucket. The
 * policy is derived from every active key scoped to the bucket (it is rewritten whole each time).
 */
import type { KeyAccess } from '../object-storage-tables.ts';

const READ_ACTIONS = ['s3:GetObject', 's3:ListBucket', 's3:GetBucketLocation'];
const READWRITE_ACTIONS = [
  's3:GetObject',
  's3:PutObject',
  's3:DeleteObject',
  's3:ListBucket',
  's3:ListBucketMultipartUploads',
  's3:AbortMultipartUpload',
  's3:ListMultipartUploadParts',
  's3:GetBucketLocation',
];

/** A key's gateway user granted on the bucket. */
export interface BucketGrant {
  readonly uid: string;
  readonly access: KeyAccess;
}

/** `arn:aws:iam::<tenant>:user/<uid>`: how radosgw names a user of a tenant in a policy. */
export const principalOf = (tenant: string, uid: string): string => `arn:aws:iam::${tenant}:user/${uid}`;

/** The policy document granting each user its actions, or null when no key is scoped to the bucket. */
export function bucketPolicy(tenant: string, bucket: string, grants: readonly BucketGrant[]): string | null {
  const resource = [`arn:aws:s3:::${bucket}`, `arn:aws:s3:::${bucket}/*`];
  const statement = (['read', 'readwrite'] as const).flatMap((access) => {
    const users = grants.filter((g) => g.access === access).map((g) => principalOf(tenant, g.uid));
    if (users.length === 0) return [];
    return [
      {
        Sid: `keys-${access}`,
        Effect: 'Allow',
        Principal: { AWS: users },
        Action: access === 'read' ? READ_ACTIONS : READWRITE_ACTIONS,
        Resource: resource,
      },
    ];
  });
  return statement.length === 0 ? null : JSON.stringify({ Version: '2012-10-17', Statement: statement });
}
