import type { Access, OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import type { ServiceDirectory, ServiceSummary } from '../../services/index.ts';
import { storageNotActive, storageNotFound } from '../object-storage-errors.ts';
import type { StorageService } from '../object-storage-tables.ts';
import { OBJECT_STORAGE } from './storage-lifecycle.ts';
import type { StorageRepository } from './storage-repository.ts';

/** A storage service as a route sees it: the registry's summary and the module's own row. */
export interface StorageOf {
  readonly summary: ServiceSummary;
  readonly storage: StorageService;
}

/**
 * The service behind `/client/object-storage/{service_id}/...`: the caller must hold it (read: any
 * member of its organization; write: its owner, an owner or admin) and it must be object storage.
 * Anything else — another account's service, another product — is 404, as if it did not exist.
 */
export class StorageAccess {
  constructor(
    private readonly services: ServiceDirectory,
    private readonly storage: StorageRepository,
  ) {}

  async serviceFor(owner: OwnerScope, serviceId: number, access: Access): Promise<StorageOf> {
    const summary = await this.services.summaryFor(owner, serviceId, access);
    if (summary === null || summary.module !== OBJECT_STORAGE) throw storageNotFound();
    const storage = await this.storage.find(serviceId);
    if (storage === null) throw storageNotFound();
    return { summary, storage };
  }

  /** As serviceFor, for a change: the service must be active (409 `Storage service is <status>`). */
  async activeFor(owner: OwnerScope, serviceId: number): Promise<StorageOf> {
    const of = await this.serviceFor(owner, serviceId, 'write');
    if (of.storage.status !== 'active') throw storageNotActive(of.storage.status);
    return of;
  }

  /** The caller's storage services (any it may see), newest first. */
  async list(owner: OwnerScope, limit: number): Promise<StorageOf[]> {
    const summaries = await this.services.listFor(owner, OBJECT_STORAGE, limit);
    const rows = new Map(
      (await this.storage.findMany(summaries.map((s) => s.id))).map((r) => [r.service_id, r]),
    );
    return summaries.flatMap((summary) => {
      const storage = rows.get(summary.id);
      return storage === undefined ? [] : [{ summary, storage }];
    });
  }
}
