/**
 * The bucket policy that lets bucket-scoped keys in: each such key is a gateway user of the
 * tenant (`k<id>`) with no buckets of its own, granted read or object actions on one bucket. The
 * policy is derived from every active key scoped to the bucket (it is rewritten whole each time).
 * An object such a key stores is owned by its user, and the gateway lets no one else read it (the
 * bucket's owner neither) but through the policy: so the policy also lets the owner read every
 * object, and stays with that alone once no key is scoped to the bucket (their objects remain).
 * Only reading: a broader grant to the owner would reach its read-only subusers too.
 */
import type { KeyAccess } from '../object-storage-tables.ts';
import { OWNER_UID } from '../storage/tenant-users.ts';

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

/** The policy document: the owner reads every object, each key's user has its actions. */
export function bucketPolicy(tenant: string, bucket: string, grants: readonly BucketGrant[]): string {
  const resource = [`arn:aws:s3:::${bucket}`, `arn:aws:s3:::${bucket}/*`];
  const owner = {
    Sid: 'owner-reads',
    Effect: 'Allow',
    Principal: { AWS: [principalOf(tenant, OWNER_UID)] },
    Action: ['s3:GetObject'],
    Resource: [`arn:aws:s3:::${bucket}/*`],
  };
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
  return JSON.stringify({ Version: '2012-10-17', Statement: [owner, ...statement] });
}
