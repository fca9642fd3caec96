/**
 * Our own S3 calls for a service (bucket creation and deletion, listings, bulk deletes, presigned
 * URLs) go with the service's default key, at the gateway of the bucket's region.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { Sealer } from '../../../kernel/crypto/sealing.ts';
import type { RegionGateway, S3Credentials, StorageGateways } from '../gateway/storage-gateways.ts';
import { gatewayUnavailable } from '../object-storage-errors.ts';
import type { KeysRepository } from './keys-repository.ts';
import type { StorageService } from '../object-storage-tables.ts';
import { secretContext } from './storage-lifecycle.ts';

export class ServiceS3 {
  /** Opened default keys by service id (a key changes only when revoked: forget()). */
  private readonly keys = new Map<number, S3Credentials>();

  constructor(
    readonly gateways: StorageGateways,
    private readonly keysRepo: KeysRepository,
    private readonly sealer: Sealer,
  ) {}

  /** The region's gateway; a region no longer configured is the gateway being unavailable. */
  region(code: string): RegionGateway {
    const r = this.gateways.region(code);
    if (r === undefined) throw gatewayUnavailable();
    return r;
  }

  /** The service's default key, opened. */
  async credentials(serviceId: number): Promise<S3Credentials> {
    let creds = this.keys.get(serviceId);
    if (creds === undefined) {
      const key = await this.keysRepo.defaultKey(serviceId);
      if (key === null) throw gatewayUnavailable();
      creds = {
        accessKey: key.access_key,
        secretKey: this.sealer.openText(key.secret_sealed, secretContext(key.access_key)),
      };
      this.keys.set(serviceId, creds);
    }
    return creds;
  }

  /** An S3 client of the service's default key at `regionCode`'s gateway. */
  async client(storage: StorageService, regionCode: string): Promise<S3Client> {
    return this.gateways.s3(this.region(regionCode), await this.credentials(storage.service_id));
  }

  forget(serviceId: number): void {
    this.keys.delete(serviceId);
  }
}
