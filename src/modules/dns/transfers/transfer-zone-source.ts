/**
 * Adds each zone's transfer policy (ZoneData.transfer) to what another ZoneSource loads, with the
 * TSIG secret decrypted for the data plane's HMAC. Zones without a settings row get none (not
 * transferred). A secret that no longer decrypts (key-encryption key changed) leaves a policy
 * nobody can satisfy rather than an open one.
 */
import { TSIG_HMAC_SHA256 } from '../../../dns/index.ts';
import type { ZoneData, ZoneNamesData, ZoneSource, ZoneTransferPolicy } from '../../../dns/index.ts';
import type { Logger } from '../../../kernel/log/logger.ts';
import type { Sealer } from '../../../kernel/crypto/sealing.ts';
import type { TransfersRepository } from './transfers-repository.ts';
import type { ZoneTransferRow } from '../dns-tables.ts';
import { openTsigSecret } from './tsig-secret.ts';

const NOBODY: ZoneTransferPolicy = { allowFrom: [], tsig: null };

export function policyFromRow(row: ZoneTransferRow, enc: Sealer, log: Logger): ZoneTransferPolicy {
  const zoneId = Number(row.zone_id);
  if (row.tsig_name === null || row.tsig_secret === null) return { allowFrom: row.allow_from, tsig: null };
  try {
    const secret = openTsigSecret(enc, zoneId, row.tsig_secret);
    return { allowFrom: row.allow_from, tsig: { name: row.tsig_name, algorithm: TSIG_HMAC_SHA256, secret } };
  } catch {
    log.error({ zoneId }, 'TSIG secret does not decrypt: transfers of the zone refused');
    return NOBODY;
  }
}

export class TransferZoneSource implements ZoneSource {
  constructor(
    private readonly inner: ZoneSource,
    private readonly repo: TransfersRepository,
    private readonly enc: Sealer,
    private readonly log: Logger,
  ) {}

  private attach(zone: ZoneData, row: ZoneTransferRow | null | undefined): ZoneData {
    return row ? { ...zone, transfer: policyFromRow(row, this.enc, this.log) } : zone;
  }

  async loadAll(): Promise<ZoneData[]> {
    const zones = await this.inner.loadAll();
    const rows = new Map((await this.repo.listAll()).map((r) => [Number(r.zone_id), r]));
    return zones.map((z) => this.attach(z, rows.get(z.id)));
  }

  async load(zoneId: number): Promise<ZoneData | null> {
    const zone = await this.inner.load(zoneId);
    return zone === null ? null : this.attach(zone, await this.repo.find(zoneId));
  }

  /** Record changes leave the transfer policy as it was: the inner source answers alone (null: load whole). */
  loadNames(zoneId: number, names: readonly string[]): Promise<ZoneNamesData | null> {
    return this.inner.loadNames?.(zoneId, names) ?? Promise.resolve(null);
  }
}
