/**
 * S3 keys of a storage service (base /client/object-storage/{service_id}/keys): listed without
 * secrets, issued (the secret shown once, sealed at rest), revoked at the gateway at once. The
 * default key made at order stays: our own S3 calls and presigned URLs use it.
 */
import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { AppError, invalidField } from '../../../kernel/errors/app-error.ts';
import {
  defaultKeyKept,
  gatewayUnavailable,
  keyLimitReached,
  keyNotFound,
} from '../object-storage-errors.ts';
import type { ObjectStorageContext } from '../object-storage-context.ts';
import type { Bucket, KeyAccess, StorageKey, StorageService } from '../object-storage-tables.ts';
import type { ServiceS3 } from '../storage/service-s3.ts';
import type { StorageAccess } from '../storage/storage-access.ts';
import type { StorageRepos } from '../storage/storage-repos.ts';
import { secretContext } from '../storage/storage-lifecycle.ts';
import { newKeyPair, type TenantUsers } from '../storage/tenant-users.ts';
import { holderOf, KeyGrants, type KeyHolder } from './key-grants.ts';
import { keyView, type KeyView } from './key-view.ts';

/** Active keys a service may hold, the default one included. */
export const MAX_KEYS = 50;

export interface NewKeyInput {
  readonly label: string;
  readonly bucket?: string | null | undefined;
  readonly access?: KeyAccess | undefined;
}

export class KeysService {
  private readonly grants: KeyGrants;

  constructor(
    private readonly ctx: ObjectStorageContext,
    private readonly access: StorageAccess,
    users: TenantUsers,
    s3: ServiceS3,
    private readonly repos: StorageRepos,
  ) {
    this.grants = new KeyGrants(users, s3, repos.keys);
  }

  async list(owner: OwnerScope, serviceId: number): Promise<{ items: KeyView[]; total: number }> {
    await this.access.serviceFor(owner, serviceId, 'read');
    const keys = await this.repos.keys.active(serviceId);
    const names = await this.repos.keys.bucketNames(
      keys.flatMap((k) => (k.bucket_id === null ? [] : [k.bucket_id])),
    );
    const items = keys.map((k) => keyView(k, k.bucket_id === null ? null : (names.get(k.bucket_id) ?? null)));
    return { items, total: items.length };
  }

  async create(
    owner: OwnerScope,
    serviceId: number,
    input: NewKeyInput,
  ): Promise<KeyView & { secret_key: string }> {
    const { storage } = await this.access.activeFor(owner, serviceId);
    const bucket = await this.bucketNamed(serviceId, input.bucket ?? null);
    const count = (await this.repos.keys.countActive([serviceId])).get(serviceId) ?? 0;
    if (count >= MAX_KEYS) throw keyLimitReached(MAX_KEYS);
    const access = input.access ?? 'readwrite';
    const id = await this.repos.keys.nextId();
    const holder = holderOf(id, access, bucket);
    const pair = newKeyPair();
    await this.viaGateway('key issue', () => this.grants.grant(storage.tenant, holder, access, pair));
    const key = await this.stored(storage, id, holder, pair, { label: input.label, access, bucket });
    if (bucket !== null)
      await this.viaGateway('bucket policy', () => this.grants.writePolicy(storage, bucket)).catch(
        async (e) => {
          await this.undo(storage, key, holder);
          throw e;
        },
      );
    this.ctx.log.info(
      { service_id: serviceId, key_id: id, access, bucket_id: bucket?.id ?? null },
      'storage key issued',
    );
    return { ...keyView(key, bucket?.name ?? null), secret_key: pair.secretKey };
  }

  /** Revokes a key: the gateway refuses it from now on. The default key stays (409). */
  async revoke(owner: OwnerScope, serviceId: number, keyId: number): Promise<{ ok: true; id: number }> {
    const { storage } = await this.access.serviceFor(owner, serviceId, 'write');
    const key = await this.repos.keys.find(serviceId, keyId);
    if (key === null) throw keyNotFound();
    if (key.is_default) throw defaultKeyKept();
    const bucket = key.bucket_id === null ? null : await this.repos.buckets.find(serviceId, key.bucket_id);
    await this.viaGateway('key revocation', () => this.grants.revoke(storage, key, bucket));
    await this.repos.keys.revoke(key.id, new Date(this.ctx.clock.now()));
    this.ctx.log.info({ service_id: serviceId, key_id: key.id }, 'storage key revoked');
    return { ok: true, id: key.id };
  }

  /** The live bucket of that name, or 422 naming `bucket`. */
  private async bucketNamed(serviceId: number, name: string | null): Promise<Bucket | null> {
    if (name === null) return null;
    const bucket = await this.repos.buckets.findByName(serviceId, name);
    if (bucket === null)
      throw invalidField(['body', 'bucket'], 'No bucket of this service has this name', name);
    return bucket;
  }

  /** The key's row, its secret sealed; if it cannot be written, the gateway's key goes again. */
  private async stored(
    storage: StorageService,
    id: number,
    holder: KeyHolder,
    pair: { accessKey: string; secretKey: string },
    what: { label: string; access: KeyAccess; bucket: Bucket | null },
  ): Promise<StorageKey> {
    try {
      return await this.repos.keys.insertWithId(id, {
        service_id: storage.service_id,
        label: what.label,
        rgw_user: holder.rgwUser,
        subuser: holder.subuser,
        access_key: pair.accessKey,
        secret_sealed: this.ctx.sealer.sealText(pair.secretKey, secretContext(pair.accessKey)),
        bucket_id: what.bucket?.id ?? null,
        access: what.access,
        is_default: false,
      });
    } catch (e) {
      await this.grants.ungrant(storage.tenant, holder, pair.accessKey).catch(() => undefined);
      throw e;
    }
  }

  /** A key whose bucket policy could not be written: its row is revoked and its holder removed. */
  private async undo(storage: StorageService, key: StorageKey, holder: KeyHolder): Promise<void> {
    await this.repos.keys.revoke(key.id, new Date(this.ctx.clock.now()));
    await this.grants.ungrant(storage.tenant, holder, key.access_key).catch(() => undefined);
  }

  /** A gateway call; a failure that is not ours already answers 503 (logged without secrets). */
  private async viaGateway<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (e) {
      if (e instanceof AppError) throw e;
      this.ctx.log.warn({ err: e }, `object storage gateway: ${what} failed`);
      throw gatewayUnavailable();
    }
  }
}
