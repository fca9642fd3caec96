/**
 * Buckets of a storage service: made and removed at the gateway of their region with the
 * service's default key (the gateway puts a bare name in the key's tenant), and recorded here.
 * The gateway goes first and the row second, so a failure leaves no row without its bucket; a row
 * that cannot be written takes its new bucket away again.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { s3Sdk } from '../gateway/s3-sdk.ts';
import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { LocationsDirectory } from '../../locations/index.ts';
import { s3Code, viaGateway } from '../gateway/s3-failures.ts';
import type { ObjectStorageContext } from '../object-storage-context.ts';
import {
  bucketExists,
  bucketLimitReached,
  bucketNotEmpty,
  bucketNotFound,
} from '../object-storage-errors.ts';
import type { Bucket, StorageService } from '../object-storage-tables.ts';
import type { ServiceS3 } from '../storage/service-s3.ts';
import type { StorageAccess } from '../storage/storage-access.ts';
import type { StorageRepos } from '../storage/storage-repos.ts';
import { emptyBucket, holdsAnything } from './bucket-emptying.ts';
import { bucketNameProblem } from './bucket-names.ts';
import { BucketUsageCache, NO_USAGE, usageOf, type UsageReading } from './bucket-usage.ts';
import { bucketView, type BucketPlace, type BucketView } from './bucket-view.ts';

export interface BucketList {
  items: BucketView[];
  total: number;
  bucket_prefix: string;
  max_buckets: number;
}

export interface BucketDeleted {
  ok: boolean;
  bucket: string;
  region: string;
  objects_destroyed: number;
}

export class BucketsService {
  private readonly usage: BucketUsageCache;

  constructor(
    private readonly ctx: ObjectStorageContext,
    private readonly access: StorageAccess,
    private readonly s3: ServiceS3,
    private readonly repos: StorageRepos,
    private readonly locations: LocationsDirectory,
  ) {
    this.usage = new BucketUsageCache(ctx.clock);
  }

  async list(owner: OwnerScope, serviceId: number): Promise<BucketList> {
    const { storage } = await this.access.serviceFor(owner, serviceId, 'read');
    const buckets = await this.repos.buckets.live(serviceId);
    const places = await this.places();
    const readings = await this.readings(storage, buckets);
    return {
      items: buckets.map((b) => this.view(storage, b, places, readings)),
      total: buckets.length,
      bucket_prefix: `${storage.tenant}:`,
      max_buckets: storage.max_buckets,
    };
  }

  async get(owner: OwnerScope, serviceId: number, bucketId: number): Promise<BucketView> {
    const { storage } = await this.access.serviceFor(owner, serviceId, 'read');
    const bucket = await this.repos.buckets.find(serviceId, bucketId);
    if (bucket === null) throw bucketNotFound();
    const readings = await this.readings(storage, [bucket]);
    return this.view(storage, bucket, await this.places(), readings);
  }

  async create(
    owner: OwnerScope,
    serviceId: number,
    body: { name: string; location_id?: number | null | undefined },
  ): Promise<BucketView> {
    const { storage } = await this.access.activeFor(owner, serviceId);
    const problem = bucketNameProblem(body.name);
    if (problem !== null) throw invalidField(['body', 'name'], problem, body.name);
    const places = await this.places();
    const region = this.regionOf(storage, places, body.location_id ?? null);
    if ((await this.repos.buckets.findByName(serviceId, body.name)) !== null) throw bucketExists();
    const count = (await this.repos.buckets.countLive([serviceId])).get(serviceId) ?? 0;
    if (count >= storage.max_buckets) throw bucketLimitReached(storage.max_buckets);
    const client = await this.s3.client(storage, region);
    await this.createAtGateway(client, storage, body.name);
    let bucket: Bucket;
    try {
      bucket = await this.repos.buckets.insert(serviceId, body.name, region);
    } catch (e) {
      await client
        .send(new (await s3Sdk()).DeleteBucketCommand({ Bucket: body.name }))
        .catch(() => undefined);
      if ((await this.repos.buckets.findByName(serviceId, body.name)) !== null) throw bucketExists();
      throw e;
    }
    this.usage.forget(serviceId);
    return bucketView(bucket, storage.tenant, places.get(region) ?? null, NO_USAGE, null);
  }

  /** Removes a bucket: refused while it holds anything, unless `force` (then everything in it goes). */
  async delete(
    owner: OwnerScope,
    serviceId: number,
    bucketId: number,
    force: boolean,
  ): Promise<BucketDeleted> {
    const { storage } = await this.access.activeFor(owner, serviceId);
    const bucket = await this.repos.buckets.find(serviceId, bucketId);
    if (bucket === null) throw bucketNotFound();
    const client = await this.s3.client(storage, bucket.region_code);
    const destroyed = await viaGateway(this.ctx.log, 'bucket deletion', async () => {
      const n = await this.emptied(client, bucket.name, force);
      try {
        await client.send(new (await s3Sdk()).DeleteBucketCommand({ Bucket: bucket.name }));
      } catch (e) {
        if (s3Code(e) === 'BucketNotEmpty') throw bucketNotEmpty();
        if (s3Code(e) !== 'NoSuchBucket') throw e;
      }
      return n;
    });
    await this.repos.buckets.markDeleted(bucket.id, new Date(this.ctx.clock.now()));
    this.usage.forget(serviceId);
    return { ok: true, bucket: bucket.name, region: bucket.region_code, objects_destroyed: destroyed };
  }

  /** Empties the bucket when forced (answers how many objects went), else checks it is empty. */
  private async emptied(client: S3Client, name: string, force: boolean): Promise<number> {
    try {
      if (force) return await emptyBucket(client, name);
      if (await holdsAnything(client, name)) throw bucketNotEmpty();
      return 0;
    } catch (e) {
      if (s3Code(e) === 'NoSuchBucket') return 0;
      throw e;
    }
  }

  private async createAtGateway(client: S3Client, storage: StorageService, name: string): Promise<void> {
    await viaGateway(this.ctx.log, 'bucket creation', async () => {
      try {
        await client.send(new (await s3Sdk()).CreateBucketCommand({ Bucket: name }));
      } catch (e) {
        const code = s3Code(e);
        if (code === 'BucketAlreadyExists' || code === 'BucketAlreadyOwnedByYou') throw bucketExists();
        if (code === 'TooManyBuckets') throw bucketLimitReached(storage.max_buckets);
        if (code === 'InvalidBucketName') throw invalidField(['body', 'name'], 'Invalid bucket name', name);
        throw e;
      }
    });
  }

  /** The region code a new bucket goes to: the service's home, or the configured region of a location. */
  private regionOf(
    storage: StorageService,
    places: ReadonlyMap<string, BucketPlace>,
    locationId: number | null,
  ): string {
    if (locationId === null) return storage.region_code;
    for (const p of places.values()) if (p.locationId === locationId) return p.code;
    throw invalidField(['body', 'location_id'], 'Not a location with object storage', locationId);
  }

  /** The configured regions by code, with their location's id and name. */
  private async places(): Promise<Map<string, BucketPlace>> {
    const locations = new Map((await this.locations.listLocations(false)).map((l) => [l.code, l]));
    const places = new Map<string, BucketPlace>();
    for (const r of this.s3.gateways.all()) {
      const l = locations.get(r.code);
      places.set(r.code, {
        code: r.code,
        locationId: l?.id ?? null,
        locationName: r.name ?? l?.name ?? null,
        endpoint: r.endpoint,
      });
    }
    return places;
  }

  /** Bucket usage at each gateway the buckets live at, by the gateway's internal URL. */
  private async readings(
    storage: StorageService,
    buckets: readonly Bucket[],
  ): Promise<Map<string, UsageReading>> {
    const out = new Map<string, UsageReading>();
    for (const b of buckets) {
      const gateway = this.s3.gateways.region(b.region_code);
      if (gateway === undefined || out.has(gateway.internalUrl)) continue;
      const reading = await viaGateway(this.ctx.log, 'bucket stats', () =>
        this.usage.read(storage.service_id, storage.tenant, gateway),
      );
      out.set(gateway.internalUrl, reading);
    }
    return out;
  }

  private view(
    storage: StorageService,
    bucket: Bucket,
    places: ReadonlyMap<string, BucketPlace>,
    readings: ReadonlyMap<string, UsageReading>,
  ): BucketView {
    const gateway = this.s3.gateways.region(bucket.region_code);
    const reading = gateway === undefined ? undefined : readings.get(gateway.internalUrl);
    return bucketView(
      bucket,
      storage.tenant,
      places.get(bucket.region_code) ?? null,
      reading === undefined ? NO_USAGE : usageOf(reading, bucket.name),
      reading?.at ?? null,
    );
  }
}
