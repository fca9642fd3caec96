/**
 * The Ceph RADOS Gateway's admin ops API (`/admin/...`): users of a tenant, their S3 keys and
 * quotas, their buckets and usage. Requests are SigV4-signed (service `s3`) with the keys of a
 * gateway user holding the users, buckets, usage and metadata caps. Settings travel as query
 * parameters: the gateway answers 501 to a JSON body.
 */
import { randomBytes } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';

export interface RgwAdminOptions {
  /** The gateway's base URL, e.g. `http://127.0.0.1:7480`. */
  readonly url: string;
  readonly accessKey: string;
  readonly secretKey: string;
  /** The region requests are signed for (the gateway accepts the one they name). */
  readonly region?: string;
  readonly timeoutMs?: number;
}

/** A gateway user: `tenant$uid`. */
export interface RgwUserRef {
  readonly tenant: string;
  readonly uid: string;
}

export interface RgwKey {
  readonly user: string;
  readonly access_key: string;
  readonly secret_key: string;
}

export interface RgwQuota {
  readonly enabled: boolean;
  readonly max_size: number;
  readonly max_objects: number;
}

export interface RgwUserInfo {
  readonly tenant: string;
  /** The uid within the tenant (`owner` of `svc1$owner`). */
  readonly user_id: string;
  readonly display_name: string;
  readonly suspended: number;
  readonly keys: readonly RgwKey[];
  readonly user_quota: RgwQuota;
  /** Present when asked for (`stats`): bytes and objects stored by the user. */
  readonly stats?: { readonly size: number; readonly size_actual: number; readonly num_objects: number };
}

export interface RgwUsageCategory {
  readonly category: string;
  readonly bytes_sent: number;
  readonly bytes_received: number;
  readonly ops: number;
  readonly successful_ops: number;
}

export interface RgwUsage {
  readonly entries: readonly {
    readonly user: string;
    readonly buckets: readonly {
      readonly bucket: string;
      /** The start of the gateway's hour the entry counts (seconds since the epoch). */
      readonly epoch: number;
      readonly categories: readonly RgwUsageCategory[];
    }[];
  }[];
  readonly summary: readonly {
    readonly user: string;
    readonly categories: readonly RgwUsageCategory[];
    readonly total: Omit<RgwUsageCategory, 'category'>;
  }[];
}

/** A bucket as `/admin/bucket?stats` answers it. */
export interface RgwBucketStats {
  readonly bucket: string;
  readonly tenant: string;
  readonly usage: Readonly<
    Record<string, { readonly size: number; readonly size_actual: number; readonly num_objects: number }>
  >;
}

/** An answer of the gateway other than 2xx: its status and error code (`NoSuchUser`, ...). */
export class RgwAdminError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    what: string,
  ) {
    super(`${what}: ${status} ${code}`);
    this.name = 'RgwAdminError';
  }
}

type Query = Record<string, string>;

/** Access keys as the gateway makes them: 20 characters of A-Z0-9. */
function accessKeyId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return [...randomBytes(20)].map((b) => alphabet[b % alphabet.length]).join('');
}

/** RFC 3986 unreserved characters stay, everything else is %-encoded, as SigV4 canonicalizes. */
function encode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The `Code` of an error answer: JSON from the admin ops API, XML from its S3 front. */
function errorCode(body: string): string | undefined {
  return /"Code"\s*:\s*"([^"]+)"|<Code>([^<]+)<\/Code>/
    .exec(body)
    ?.slice(1)
    .find((c) => c !== undefined);
}

export class RgwAdminClient {
  private readonly base: URL;
  private readonly signer: SignatureV4;
  private readonly timeoutMs: number;

  constructor(options: RgwAdminOptions) {
    this.base = new URL(options.url);
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.signer = new SignatureV4({
      service: 's3',
      region: options.region ?? 'us-east-1',
      credentials: { accessKeyId: options.accessKey, secretAccessKey: options.secretKey },
      sha256: Sha256,
    });
  }

  /** A user of `tenant` with no key yet (see createKey); `maxBuckets` is the gateway's own bucket limit. */
  async createUser(
    user: RgwUserRef,
    displayName = user.uid,
    options: { readonly maxBuckets?: number } = {},
  ): Promise<RgwUserInfo> {
    return (await this.call('PUT', '/admin/user', {
      ...this.userQuery(user),
      'display-name': displayName,
      'generate-key': 'false',
      ...(options.maxBuckets !== undefined ? { 'max-buckets': String(options.maxBuckets) } : {}),
    })) as RgwUserInfo;
  }

  /** Suspends a user (every request with its keys and its subusers' is refused; data kept) or lifts it. */
  async setSuspended(user: RgwUserRef, suspended: boolean): Promise<void> {
    await this.call('POST', '/admin/user', {
      ...this.userQuery(user),
      suspended: suspended ? 'true' : 'false',
    });
  }

  /**
   * A new S3 key of the user: the given one (the same key at every gateway of a service), or one
   * the gateway makes the secret of.
   */
  async createKey(user: RgwUserRef, given?: { accessKey: string; secretKey: string }): Promise<RgwKey> {
    const accessKey = given?.accessKey ?? accessKeyId();
    const keys = (await this.call('PUT', '/admin/user', {
      key: '',
      ...this.userQuery(user),
      'key-type': 's3',
      'access-key': accessKey,
      ...(given !== undefined ? { 'secret-key': given.secretKey } : { 'generate-key': 'true' }),
    })) as RgwKey[];
    const key = keys.find((k) => k.access_key === accessKey);
    if (key === undefined)
      throw new RgwAdminError(500, 'KeyNotReturned', `PUT /admin/user?key for ${accessKey}`);
    return key;
  }

  /** The user's quota limits (all its buckets together); it applies once enabled (enableUserQuota). */
  async setUserQuota(user: RgwUserRef, limits: { maxSizeBytes: number; maxObjects?: number }): Promise<void> {
    await this.call('PUT', '/admin/user', {
      quota: '',
      ...this.userQuery(user),
      'quota-type': 'user',
      'max-size': String(limits.maxSizeBytes),
      'max-objects': String(limits.maxObjects ?? -1),
    });
  }

  async enableUserQuota(user: RgwUserRef, enabled = true): Promise<void> {
    await this.call('PUT', '/admin/user', {
      quota: '',
      ...this.userQuery(user),
      'quota-type': 'user',
      enabled: String(enabled),
    });
  }

  /** The user, with what it stores when `stats` is set. */
  async getUser(user: RgwUserRef, options: { stats?: boolean } = {}): Promise<RgwUserInfo> {
    return (await this.call('GET', '/admin/user', {
      ...this.userQuery(user),
      ...(options.stats === true ? { stats: 'true' } : {}),
    })) as RgwUserInfo;
  }

  /** Removes the user with its buckets and objects. */
  async deleteUser(user: RgwUserRef): Promise<void> {
    await this.call('DELETE', '/admin/user', { ...this.userQuery(user), 'purge-data': 'true' });
  }

  /** Removes one S3 key of the user: the next request with it answers InvalidAccessKeyId. */
  async deleteKey(user: RgwUserRef, accessKey: string): Promise<void> {
    await this.call('DELETE', '/admin/user', { key: '', ...this.userQuery(user), 'access-key': accessKey });
  }

  /**
   * A subuser of the user (`<uid>:<name>`) with an S3 key of its own and `access` (`read` is
   * enforced for S3 by the gateway). `subuser` is sent once, as the flag and the name together.
   */
  async createSubuser(
    user: RgwUserRef,
    name: string,
    access: 'read' | 'write' | 'readwrite' | 'full',
    key: { accessKey: string; secretKey: string },
  ): Promise<void> {
    await this.call('PUT', '/admin/user', {
      ...this.userQuery(user),
      subuser: `${user.tenant}$${user.uid}:${name}`,
      access,
      'key-type': 's3',
      'access-key': key.accessKey,
      'secret-key': key.secretKey,
    });
  }

  /** Removes a subuser and its keys. */
  async deleteSubuser(user: RgwUserRef, name: string): Promise<void> {
    await this.call('DELETE', '/admin/user', {
      ...this.userQuery(user),
      subuser: `${user.tenant}$${user.uid}:${name}`,
      'purge-keys': 'true',
    });
  }

  /** Removes a bucket of the tenant, with its objects when `purgeObjects`. */
  async deleteBucket(tenant: string, bucket: string, purgeObjects: boolean): Promise<void> {
    await this.call('DELETE', '/admin/bucket', {
      bucket: `${tenant}/${bucket}`,
      'purge-objects': purgeObjects ? 'true' : 'false',
    });
  }

  /** Each bucket of the user with what it holds (`usage['rgw.main']`: bytes and objects). */
  async bucketStats(user: RgwUserRef): Promise<RgwBucketStats[]> {
    return (await this.call('GET', '/admin/bucket', {
      ...this.userQuery(user),
      stats: 'true',
    })) as RgwBucketStats[];
  }

  /** One bucket of a tenant with what it holds; NoSuchBucket when there is none. */
  async bucket(tenant: string, bucket: string): Promise<RgwBucketStats> {
    return (await this.call('GET', '/admin/bucket', {
      bucket: `${tenant}/${bucket}`,
      stats: 'true',
    })) as RgwBucketStats;
  }

  /** Names of the user's buckets. */
  async listBuckets(user: RgwUserRef): Promise<string[]> {
    return (await this.call('GET', '/admin/bucket', this.userQuery(user))) as string[];
  }

  /** The usage log of the user: per bucket and category, and summed. */
  async usage(user: RgwUserRef, range: { start?: Date; end?: Date } = {}): Promise<RgwUsage> {
    const stamp = (d: Date): string => d.toISOString().slice(0, 19).replace('T', ' ');
    return (await this.call('GET', '/admin/usage', {
      ...this.userQuery(user),
      'show-entries': 'true',
      'show-summary': 'true',
      ...(range.start !== undefined ? { start: stamp(range.start) } : {}),
      ...(range.end !== undefined ? { end: stamp(range.end) } : {}),
    })) as RgwUsage;
  }

  /** `tenant$uid` in `uid`: the gateway honours a separate `tenant` parameter only when creating a user. */
  private userQuery(user: RgwUserRef): Query {
    return { uid: `${user.tenant}$${user.uid}` };
  }

  private async call(
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    path: string,
    query: Query,
  ): Promise<unknown> {
    const port = this.base.port === '' ? undefined : Number(this.base.port);
    const signed = await this.signer.sign({
      method,
      protocol: this.base.protocol,
      hostname: this.base.hostname,
      ...(port !== undefined ? { port } : {}),
      path,
      query,
      headers: { host: this.base.host },
    });
    const search = Object.entries(query)
      .map(([k, v]) => (v === '' ? encode(k) : `${encode(k)}=${encode(v)}`))
      .join('&');
    const res = await fetch(new URL(`${path}?${search}`, this.base), {
      method,
      headers: signed.headers,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await res.text();
    if (!res.ok) {
      throw new RgwAdminError(res.status, errorCode(text) ?? res.statusText, `${method} ${path}`);
    }
    return text === '' ? undefined : JSON.parse(text);
  }
}
