/**
 * What a committed change of a transferred zone triggers in the process that committed it (so
 * one process, not every DNS node, sends NOTIFY): the new record set is kept for IXFR, then, after
 * NOTIFY_DELAY_MS (time for DNS nodes to load the new serial from the bus event), NOTIFY goes to
 * each configured target (RFC 1996). Failures are logged, never thrown into the change.
 */
import type { Logger } from '../../../kernel/log/logger.ts';
import type { Sealer } from '../../../kernel/crypto/sealing.ts';
import { findSoa } from '../../../dns/index.ts';
import { parseNotifyTarget, sendNotify } from './notify-sender.ts';
import { policyFromRow } from './transfer-zone-source.ts';
import type { TransfersRepository } from './transfers-repository.ts';
import type { ZoneVersions } from './zone-versions.ts';

export const NOTIFY_DELAY_MS = 1_000;

export class TransferChangeHook {
  private readonly pending = new Set<Promise<void>>();
  private readonly abort = new AbortController();

  constructor(
    private readonly repo: TransfersRepository,
    private readonly versions: ZoneVersions,
    private readonly enc: Sealer,
    private readonly log: Logger,
    private readonly notifyDelayMs = NOTIFY_DELAY_MS,
  ) {}

  /** Keeps the zone's current version and notifies its secondaries, detached. */
  changed(zoneId: number): void {
    const work = this.run(zoneId).catch((error: unknown) => {
      this.log.warn({ err: error, zoneId }, 'zone transfer history/NOTIFY failed');
    });
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  /** Waits for work under way; NOTIFY retries still pending are abandoned. */
  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled([...this.pending]);
  }

  private async run(zoneId: number): Promise<void> {
    const row = await this.repo.find(zoneId);
    if (row === null || this.abort.signal.aborted) return;
    const zone = await this.versions.record(zoneId);
    const targets = row.notify.map(parseNotifyTarget).filter((t) => t !== null);
    if (zone === null || targets.length === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.notifyDelayMs);
      this.abort.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    if (this.abort.signal.aborted) return;
    const key = policyFromRow(row, this.enc, this.log).tsig;
    const soa = findSoa(zone.records, zone.domain);
    await Promise.all(
      targets.map(async (t) => {
        const ok = await sendNotify(t, zone.domain, soa, key, undefined, undefined, this.abort.signal);
        if (!ok && !this.abort.signal.aborted) {
          this.log.warn({ zoneId, target: `${t.host}:${t.port}` }, 'NOTIFY not answered');
        }
      }),
    );
  }
}
