/** The hourly meter (to be built). */
import type { StorageGateways } from '../gateway/storage-gateways.ts';
import type { ObjectStorageContext } from '../object-storage-context.ts';
import type { StorageLifecycle } from '../storage/storage-lifecycle.ts';

export interface MeterResult {
  readonly hour: string;
  /** False when the hour was already read (or another process reads it now). */
  readonly ran: boolean;
  readonly services: number;
}

export class UsageMeter {
  constructor(
    private readonly ctx: ObjectStorageContext,
    private readonly gateways: StorageGateways,
    private readonly lifecycle: StorageLifecycle,
  ) {}

  async runHour(asOf: Date): Promise<MeterResult> {
    void this.ctx;
    void this.gateways;
    void this.lifecycle;
    return { hour: asOf.toISOString(), ran: false, services: 0 };
  }

  start(): void {}
  stop(): void {}
}
