/**
 * A storage service through the services registry's lifecycle: order → the tenant, its owner
 * user with the plan's quota and bucket limit, and the first key (`default`); suspend → every user
 * of the tenant suspended at the gateway (requests refused, data kept); unsuspend → lifted;
 * terminate → suspended, and purged (buckets, objects, users) once `grace_days` have passed.
 */
import {
  ProvisioningFailed,
  type ProvisionedService,
  type ServiceProvisioner,
} from '../../services/index.ts';
import type { CatalogOffers } from '../../catalog/index.ts';
import type { StorageGateways } from '../gateway/storage-gateways.ts';
import type { ObjectStorageContext } from '../object-storage-context.ts';
import type { StorageService } from '../object-storage-tables.ts';
import { BucketsRepository } from './buckets-repository.ts';
import { KeysRepository } from './keys-repository.ts';
import { planLimits } from './plan-limits.ts';
import { StorageRepository } from './storage-repository.ts';
import { newKeyPair, OWNER_UID, tenantOf, type TenantUsers } from './tenant-users.ts';

/** The catalogue `module_name` of object storage products. */
export const OBJECT_STORAGE = 'object_storage';

const DAY_MS = 24 * 3600_000;

/** The sealing context of a key's secret. */
export const secretContext = (accessKey: string): string => `object-storage-key:${accessKey}`;

export class StorageLifecycle {
  private readonly storage: StorageRepository;
  private readonly keys: KeysRepository;
  private readonly buckets: BucketsRepository;

  constructor(
    private readonly ctx: ObjectStorageContext,
    private readonly gateways: StorageGateways,
    private readonly users: TenantUsers,
    private readonly catalog: CatalogOffers,
  ) {
    this.storage = new StorageRepository(ctx.db);
    this.keys = new KeysRepository(ctx.db);
    this.buckets = new BucketsRepository(ctx.db);
  }

  /** The services registry's provisioner of object storage products. */
  provisioner(): ServiceProvisioner {
    return {
      module: OBJECT_STORAGE,
      unavailableReason: () => (this.gateways.configured ? null : 'not_configured'),
      provision: (s) => this.provision(s),
      suspend: (s) => this.suspend(s.id, true),
      unsuspend: (s) => this.suspend(s.id, false),
      terminate: (s) => this.terminate(s.id),
    };
  }

  async provision(service: ProvisionedService): Promise<void> {
    if (!this.gateways.configured) throw new ProvisioningFailed('not_configured');
    const region =
      service.locationCode !== null ? this.gateways.region(service.locationCode) : this.gateways.home();
    if (region === undefined) throw new ProvisioningFailed(`region_not_configured: ${service.locationCode}`);
    const offer = await this.catalog.offer(service.productId, 0);
    const limits = planLimits(offer?.product.metadata ?? null);
    const tenant = tenantOf(service.id);
    await this.users.createOwner(tenant, limits);
    const existing = await this.keys.defaultKey(service.id);
    const key = existing === null ? newKeyPair() : null;
    if (key !== null) await this.users.addKey(tenant, OWNER_UID, key);
    await this.ctx.transaction(async (uow) => {
      await this.storage.withTx(uow.trx).insert({
        service_id: service.id,
        user_id: service.userId,
        org_id: service.orgId,
        tenant,
        region_code: region.code,
        quota_bytes: limits.quotaBytes,
        max_buckets: limits.maxBuckets,
        presign_max_seconds: limits.presignMaxSeconds,
        grace_days: limits.graceDays,
        overage_per_gb_month: limits.overagePerGbMonth,
        status: 'active',
      });
      if (key !== null)
        await this.keys.withTx(uow.trx).insert({
          service_id: service.id,
          label: 'default',
          rgw_user: OWNER_UID,
          subuser: null,
          access_key: key.accessKey,
          secret_sealed: this.ctx.sealer.sealText(key.secretKey, secretContext(key.accessKey)),
          bucket_id: null,
          access: 'readwrite',
          is_default: true,
        });
    });
  }

  /** Every gateway user of the tenant: the owner and each bucket key's user. */
  async uidsOf(serviceId: number): Promise<string[]> {
    const keyUsers = (await this.keys.active(serviceId)).map((k) => k.rgw_user);
    return [...new Set([OWNER_UID, ...keyUsers])];
  }

  private async suspend(serviceId: number, suspended: boolean): Promise<void> {
    const s = await this.storage.find(serviceId);
    if (s === null || s.status === 'terminated' || s.status === 'purged') return;
    await this.users.setSuspended(s.tenant, await this.uidsOf(serviceId), suspended);
    await this.storage.setStatus(serviceId, suspended ? 'suspended' : 'active');
  }

  private async terminate(serviceId: number): Promise<void> {
    const s = await this.storage.find(serviceId);
    if (s === null || s.status === 'terminated' || s.status === 'purged') return;
    await this.users.setSuspended(s.tenant, await this.uidsOf(serviceId), true);
    const purgeAfter = new Date(this.ctx.clock.now() + s.grace_days * DAY_MS);
    await this.storage.setStatus(serviceId, 'terminated', purgeAfter);
    if (s.grace_days === 0) await this.purge({ ...s, status: 'terminated', purge_after: purgeAfter });
  }

  /**
   * Terminated services whose grace has ended: their data and users are removed; answers how many.
   * One that fails is logged and left for the next call, the others go on.
   */
  async purgeDue(): Promise<number> {
    const due = await this.storage.duePurge(new Date(this.ctx.clock.now()));
    let purged = 0;
    for (const s of due) {
      try {
        await this.purge(s);
        purged += 1;
      } catch (error) {
        this.ctx.log.error({ err: error, service_id: s.service_id }, 'object storage purge failed');
      }
    }
    return purged;
  }

  private async purge(s: StorageService): Promise<void> {
    await this.users.purge(s.tenant, await this.uidsOf(s.service_id));
    const at = new Date(this.ctx.clock.now());
    await this.ctx.transaction(async (uow) => {
      const keys = this.keys.withTx(uow.trx);
      for (const k of await keys.active(s.service_id)) await keys.revoke(k.id, at);
      await this.buckets.withTx(uow.trx).markAllDeleted(s.service_id, at);
      await this.storage.withTx(uow.trx).setStatus(s.service_id, 'purged');
    });
    this.ctx.log.info({ service_id: s.service_id, tenant: s.tenant }, 'object storage purged');
  }
}
