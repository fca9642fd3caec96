/**
 * Turning DNSSEC on and off for a zone, the GET /zones/{id}/dnssec view, and the key schedule
 * (dnssec-key-schedule.ts) applied over time. Every change to the keys goes through ZoneChanges,
 * so the SOA serial moves and the zone is republished with each one. Private keys are encrypted
 * before they reach the database and are never returned or logged.
 */
import type { Transaction } from 'kysely';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import { DNSSEC_ALGORITHM, DNSSEC_ALGORITHM_NAME, type DnssecAlgorithm } from '../../../dns/index.ts';
import { generateDnssecKey } from '../../../dns/index.ts';
import type { DnsContext } from '../dns-context.ts';
import type { ZoneChanges } from '../shared/zone-changes.ts';
import { dsRecordText } from './dnssec-records.ts';
import { DnssecRepository, type StoredKey } from './dnssec-repository.ts';
import { nextKeyAction, type ScheduledKey } from './dnssec-key-schedule.ts';
import type { DnsTables, KeyRole, ZoneRow } from '../dns-tables.ts';
import { keyContext } from './dnssec-key-sealing.ts';

export interface DnssecInfo {
  enabled: boolean;
  algorithm: string | null;
  ksk_key_tag: number | null;
  zsk_key_tag: number | null;
  ds_records: string[];
  zsk_rotated_at: string | null;
}

/** Accepted by PATCH /zones/{id} as dnssec_algorithm (mnemonic or number). */
const ALGORITHMS: Readonly<Record<string, DnssecAlgorithm>> = {
  ECDSAP256SHA256: DNSSEC_ALGORITHM.ECDSAP256SHA256,
  '13': DNSSEC_ALGORITHM.ECDSAP256SHA256,
  ED25519: DNSSEC_ALGORITHM.ED25519,
  '15': DNSSEC_ALGORITHM.ED25519,
};

export function parseDnssecAlgorithm(input: string | number | undefined): DnssecAlgorithm | undefined {
  if (input === undefined) return undefined;
  const algorithm = ALGORITHMS[String(input).toUpperCase()];
  if (algorithm === undefined) {
    throw invalidField(
      ['body', 'dnssec_algorithm'],
      'DNSSEC algorithm must be ECDSAP256SHA256 (13) or ED25519 (15)',
      input,
    );
  }
  return algorithm;
}

const MAX_STEPS_PER_RUN = 8;

export class DnssecService {
  private readonly repo: DnssecRepository;

  constructor(
    private readonly ctx: DnsContext,
    private readonly changes: ZoneChanges,
  ) {
    this.repo = new DnssecRepository(ctx.db);
  }

  /**
   * Inside a zone change: turns signing on (new KSK and ZSK, or resumes a zone being turned off)
   * or off (delete CDS/CDNSKEY, signed for the grace period). Returns whether anything changed.
   */
  async setEnabled(
    zoneTrx: Transaction<DnsTables>,
    zone: ZoneRow,
    enabled: boolean,
    requested: DnssecAlgorithm | undefined,
  ): Promise<boolean> {
    const repo = this.repo.withTx(zoneTrx);
    const state = await repo.findZone(zone.id);
    const now = new Date(this.ctx.clock.now());
    if (!enabled) {
      if (state === null || state.disabling_since !== null) return false;
      await repo.updateZone(zone.id, { disabling_since: now });
      await repo.setZoneFlag(zone.id, false);
      return true;
    }
    if (state !== null && state.disabling_since === null) {
      if (requested !== undefined && requested !== state.algorithm) {
        throw invalidField(
          ['body', 'dnssec_algorithm'],
          'The algorithm cannot change while DNSSEC is enabled; turn DNSSEC off first',
          requested,
        );
      }
      return false;
    }
    if (state !== null && (requested === undefined || requested === state.algorithm)) {
      await repo.updateZone(zone.id, { disabling_since: null });
    } else {
      if (state !== null) await repo.deleteZone(zone.id);
      const algorithm = requested ?? DNSSEC_ALGORITHM.ECDSAP256SHA256;
      await repo.insertZone({
        zone_id: zone.id,
        algorithm,
        disabling_since: null,
        zsk_rotated_at: null,
        created_at: now,
      });
      await this.addKey(repo, zone.id, algorithm, 'ksk', 'active', now);
      await this.addKey(repo, zone.id, algorithm, 'zsk', 'active', now);
    }
    await repo.setZoneFlag(zone.id, true);
    return true;
  }

  private async addKey(
    repo: DnssecRepository,
    zoneId: number,
    algorithm: DnssecAlgorithm,
    role: KeyRole,
    state: 'active' | 'published',
    now: Date,
  ): Promise<void> {
    const key = generateDnssecKey(algorithm, role);
    await repo.insertKey({
      zone_id: zoneId,
      role,
      state,
      algorithm,
      key_tag: key.keyTag,
      dnskey: key.dnskey,
      private_key: this.ctx.sealer.seal(key.privateKeyPkcs8, keyContext(zoneId, role)),
      published_at: now,
      activated_at: state === 'active' ? now : null,
      retired_at: null,
    });
  }

  async info(zone: Pick<ZoneRow, 'id' | 'domain' | 'soa_ttl'>): Promise<DnssecInfo> {
    const state = await this.repo.findZone(zone.id);
    if (state === null || state.disabling_since !== null) {
      return {
        enabled: false,
        algorithm: null,
        ksk_key_tag: null,
        zsk_key_tag: null,
        ds_records: [],
        zsk_rotated_at: null,
      };
    }
    const keys = await this.repo.listKeys([zone.id]);
    const ksk = keys.find((k) => k.role === 'ksk' && k.state === 'active');
    const zsk = keys.find((k) => k.role === 'zsk' && k.state === 'active');
    return {
      enabled: true,
      algorithm: DNSSEC_ALGORITHM_NAME[state.algorithm as DnssecAlgorithm] ?? String(state.algorithm),
      ksk_key_tag: ksk?.key_tag ?? null,
      zsk_key_tag: zsk?.key_tag ?? null,
      ds_records: ksk ? [dsRecordText(zone.domain, zone.soa_ttl, ksk.dnskey)] : [],
      zsk_rotated_at: state.zsk_rotated_at ? new Date(state.zsk_rotated_at).toISOString() : null,
    };
  }

  /** Applies every key step due now to every signed zone (run periodically). */
  async runKeySchedule(): Promise<number> {
    let steps = 0;
    for (const z of await this.repo.listZones()) {
      for (let i = 0; i < MAX_STEPS_PER_RUN; i++) {
        const done = await this.changes.apply('platform', Number(z.zone_id), async (trx, zone) => {
          const changed = await this.step(trx, zone);
          return { value: changed, changed };
        });
        if (!done) break;
        steps++;
      }
    }
    return steps;
  }

  private async step(trx: Transaction<DnsTables>, zone: ZoneRow): Promise<boolean> {
    const repo = this.repo.withTx(trx);
    const state = await repo.findZone(zone.id);
    if (state === null) return false;
    const keys = await repo.listKeys([zone.id]);
    const nowMs = this.ctx.clock.now();
    const action = nextKeyAction({
      keys: keys.map(toScheduled),
      now: nowMs,
      dnskeyTtlS: zone.soa_ttl,
      zskRollDays: this.ctx.settings.dnssecZskRollDays,
      disablingSince: state.disabling_since ? new Date(state.disabling_since).getTime() : null,
    });
    if (action === null) return false;
    const now = new Date(nowMs);
    switch (action.kind) {
      case 'publish-zsk':
        await this.addKey(repo, zone.id, state.algorithm as DnssecAlgorithm, 'zsk', 'published', now);
        break;
      case 'activate-zsk':
        await repo.setKeyState(action.newId, 'active', { activated_at: now });
        if (action.oldId !== null) await repo.setKeyState(action.oldId, 'retired', { retired_at: now });
        await repo.updateZone(zone.id, { zsk_rotated_at: now });
        break;
      case 'withdraw':
        await repo.deleteKey(action.id);
        break;
      case 'unsign':
        await repo.deleteZone(zone.id);
        break;
    }
    this.ctx.log.info({ zoneId: zone.id, step: action.kind }, 'DNSSEC key step');
    return true;
  }
}

function toScheduled(k: StoredKey): ScheduledKey {
  const ms = (d: Date | null): number | null => (d === null ? null : new Date(d).getTime());
  return {
    id: k.id,
    role: k.role,
    state: k.state,
    publishedAt: new Date(k.published_at).getTime(),
    activatedAt: ms(k.activated_at),
    retiredAt: ms(k.retired_at),
  };
}
