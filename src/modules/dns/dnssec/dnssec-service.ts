/**
 * Turning DNSSEC on and off for a zone, the GET /zones/{id}/dnssec view, and the key schedule
 * (dnssec-key-schedule.ts) applied over time, the KSK rollover's steps taken by
 * ksk-rollover-service.ts. Every change to the keys goes through ZoneChanges, so the SOA serial
 * moves and the zone is republished with each one. Private keys are encrypted before they reach
 * the database and are never returned or logged.
 */
import type { Transaction } from 'kysely';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import {
  DNSSEC_ALGORITHM,
  DNSSEC_ALGORITHM_NAME,
  type DnssecAlgorithm,
  type DnssecDenial,
} from '../../../dns/index.ts';
import type { DnsContext } from '../dns-context.ts';
import type { ZoneChanges } from '../shared/zone-changes.ts';
import { dsRecordText, parentKsks } from './dnssec-records.ts';
import { DnssecRepository, type StoredKey } from './dnssec-repository.ts';
import { nextKeyAction } from './dnssec-key-schedule.ts';
import { newStoredKey, scheduledKey } from './dnssec-stored-key.ts';
import { KskRolloverService, type KskStepTaken } from './ksk-rollover-service.ts';
import type {
  DnssecZoneRow,
  DnsTables,
  KeyRole,
  KeyState,
  KskRolloverState,
  ZoneRow,
} from '../dns-tables.ts';

export interface DnssecKeyInfo {
  key_tag: number;
  role: KeyRole;
  state: KeyState;
  created_at: string;
}

export interface KskRolloverInfo {
  key: 'ksk';
  state: KskRolloverState;
  started_at: string | null;
  last_parent_check_at: string | null;
}

export interface DnssecInfo {
  enabled: boolean;
  algorithm: string | null;
  /** How negative answers are proven: an NSEC3 chain signed with the zone, or NSEC signed per answer. */
  denial: DnssecDenial | null;
  ksk_key_tag: number | null;
  zsk_key_tag: number | null;
  /** The DS of every KSK the parent should have (two while a KSK rollover waits for the parent). */
  ds_records: string[];
  zsk_rotated_at: string | null;
  keys: DnssecKeyInfo[];
  /** The running KSK rollover, or null. */
  rollover: KskRolloverInfo | null;
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

/** Accepted by PATCH /zones/{id} as dnssec_denial. */
export function parseDnssecDenial(input: string | undefined): DnssecDenial | undefined {
  if (input === undefined) return undefined;
  if (input !== 'nsec3' && input !== 'online') {
    throw invalidField(['body', 'dnssec_denial'], 'DNSSEC denial must be nsec3 or online', input);
  }
  return input;
}

/** Denial of a zone signed without saying: the NSEC3 chain (no signing per negative answer). */
export const DEFAULT_DNSSEC_DENIAL: DnssecDenial = 'nsec3';

const MAX_STEPS_PER_RUN = 8;

export class DnssecService {
  private readonly repo: DnssecRepository;
  private readonly kskRollover: KskRolloverService;

  constructor(
    private readonly ctx: DnsContext,
    private readonly changes: ZoneChanges,
  ) {
    this.repo = new DnssecRepository(ctx.db);
    this.kskRollover = new KskRolloverService(ctx, changes);
  }

  /**
   * Inside a zone change: turns signing on (new KSK and ZSK, or resumes a zone being turned off)
   * or off (delete CDS/CDNSKEY, signed for the grace period). `denial`, when given, sets how
   * negative answers are proven (it may change while signing is on). Returns whether anything changed.
   */
  async setEnabled(
    zoneTrx: Transaction<DnsTables>,
    zone: ZoneRow,
    enabled: boolean,
    requested: DnssecAlgorithm | undefined,
    denial?: DnssecDenial,
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
      return this.setDenial(zoneTrx, zone, state, denial);
    }
    if (state !== null && (requested === undefined || requested === state.algorithm)) {
      await repo.updateZone(zone.id, { disabling_since: null, ...(denial !== undefined ? { denial } : {}) });
    } else {
      if (state !== null) await repo.deleteZone(zone.id);
      await this.signAfresh(
        repo,
        zone.id,
        requested ?? DNSSEC_ALGORITHM.ECDSAP256SHA256,
        denial ?? DEFAULT_DNSSEC_DENIAL,
        now,
      );
    }
    await repo.setZoneFlag(zone.id, true);
    return true;
  }

  /**
   * Inside a zone change: sets the denial of a signed zone (`state` its signing row, null when not
   * signed: 422, denial goes with signing). Returns whether it changed.
   */
  async setDenial(
    zoneTrx: Transaction<DnsTables>,
    zone: Pick<ZoneRow, 'id'>,
    state: DnssecZoneRow | null,
    denial: DnssecDenial | undefined,
  ): Promise<boolean> {
    if (denial === undefined) return false;
    if (state === null || state.disabling_since !== null) {
      throw invalidField(['body', 'dnssec_denial'], 'dnssec_denial needs DNSSEC enabled', denial);
    }
    if (state.denial === denial) return false;
    await this.repo.withTx(zoneTrx).updateZone(zone.id, { denial });
    return true;
  }

  /** The zone's signing row (null: never signed). */
  async zoneState(zoneTrx: Transaction<DnsTables>, zoneId: number): Promise<DnssecZoneRow | null> {
    return this.repo.withTx(zoneTrx).findZone(zoneId);
  }

  /** The zone's signing state and a new active KSK and ZSK. */
  private async signAfresh(
    repo: DnssecRepository,
    zoneId: number,
    algorithm: DnssecAlgorithm,
    denial: DnssecDenial,
    now: Date,
  ): Promise<void> {
    await repo.insertZone({
      zone_id: zoneId,
      algorithm,
      denial,
      disabling_since: null,
      zsk_rotated_at: null,
      created_at: now,
    });
    await repo.insertKey(newStoredKey(this.ctx.sealer, zoneId, algorithm, 'ksk', 'active', now));
    await repo.insertKey(newStoredKey(this.ctx.sealer, zoneId, algorithm, 'zsk', 'active', now));
  }

  async info(zone: Pick<ZoneRow, 'id' | 'domain' | 'soa_ttl'>): Promise<DnssecInfo> {
    const state = await this.repo.findZone(zone.id);
    if (state === null || state.disabling_since !== null) {
      return {
        enabled: false,
        algorithm: null,
        denial: null,
        ksk_key_tag: null,
        zsk_key_tag: null,
        ds_records: [],
        zsk_rotated_at: null,
        keys: [],
        rollover: null,
      };
    }
    const keys = await this.repo.listKeys([zone.id]);
    const ksk = keys.find((k) => k.role === 'ksk' && k.state === 'active');
    const zsk = keys.find((k) => k.role === 'zsk' && k.state === 'active');
    return {
      enabled: true,
      algorithm: DNSSEC_ALGORITHM_NAME[state.algorithm as DnssecAlgorithm] ?? String(state.algorithm),
      denial: state.denial,
      ksk_key_tag: ksk?.key_tag ?? null,
      zsk_key_tag: zsk?.key_tag ?? null,
      ds_records: parentKsks(keys).map((k) => dsRecordText(zone.domain, zone.soa_ttl, k.dnskey)),
      zsk_rotated_at: state.zsk_rotated_at ? new Date(state.zsk_rotated_at).toISOString() : null,
      keys: keys.map((k) => ({
        key_tag: k.key_tag,
        role: k.role,
        state: k.state,
        created_at: new Date(k.published_at).toISOString(),
      })),
      rollover:
        state.ksk_rollover_state == null
          ? null
          : {
              key: 'ksk',
              state: state.ksk_rollover_state,
              started_at: iso(state.ksk_rollover_started_at),
              last_parent_check_at: iso(state.ksk_parent_check_at),
            },
    };
  }

  /**
   * Inside a zone change: starts a KSK rollover (a new KSK published beside the active one, CDS
   * and CDNSKEY naming both). 409 when the zone is not signed or a rollover runs.
   */
  async startKskRollover(zoneTrx: Transaction<DnsTables>, zone: ZoneRow): Promise<void> {
    await this.kskRollover.start(zoneTrx, zone);
  }

  /** Applies every key step due now to every signed zone (run periodically). */
  async runKeySchedule(): Promise<number> {
    let steps = 0;
    for (const z of await this.repo.listZones()) steps += await this.runZoneSchedule(Number(z.zone_id));
    return steps;
  }

  /**
   * The zone's due steps, one zone change each (at most MAX_STEPS_PER_RUN); a parent DS check,
   * made outside the change, ends the zone's run. Returns how many steps were taken.
   */
  private async runZoneSchedule(zoneId: number): Promise<number> {
    for (let steps = 0; steps < MAX_STEPS_PER_RUN; steps++) {
      const { result, zone } = await this.changes.apply('platform', zoneId, async (trx, zone) => {
        const result = await this.step(trx, zone);
        return {
          value: { result, zone },
          changed: result === 'changed' || (typeof result === 'object' && 'audit' in result),
        };
      });
      if (result === 'none') return steps;
      if (typeof result === 'object' && 'check' in result) {
        await this.kskRollover.checkParent(zone, result.check);
        return steps + 1;
      }
      if (typeof result === 'object') await this.kskRollover.audit(zone, result.audit);
    }
    return MAX_STEPS_PER_RUN;
  }

  /**
   * One due step of the zone's key schedule: an audited KSK rollover step or a parent check to
   * make (outside the transaction), which go first on a signed zone; else 'changed' (ZSK
   * schedule) or 'none'.
   */
  private async step(trx: Transaction<DnsTables>, zone: ZoneRow): Promise<'none' | 'changed' | KskStepTaken> {
    const repo = this.repo.withTx(trx);
    const state = await repo.findZone(zone.id);
    if (state === null) return 'none';
    const keys = await repo.listKeys([zone.id]);
    if (state.disabling_since === null) {
      const ksk = await this.kskRollover.takeDueStep(repo, zone, state, keys);
      if (ksk !== null) return ksk;
    }
    return (await this.takeDueKeyStep(repo, zone, state, keys)) ? 'changed' : 'none';
  }

  /** The ZSK rollover's or unsigning's step due now, if any (dnssec-key-schedule.ts). */
  private async takeDueKeyStep(
    repo: DnssecRepository,
    zone: ZoneRow,
    state: DnssecZoneRow,
    keys: readonly StoredKey[],
  ): Promise<boolean> {
    const nowMs = this.ctx.clock.now();
    const action = nextKeyAction({
      keys: keys.map(scheduledKey),
      now: nowMs,
      dnskeyTtlS: zone.soa_ttl,
      zskRollDays: this.ctx.settings.dnssecZskRollDays,
      disablingSince: state.disabling_since ? new Date(state.disabling_since).getTime() : null,
    });
    if (action === null) return false;
    const now = new Date(nowMs);
    switch (action.kind) {
      case 'publish-zsk':
        await repo.insertKey(
          newStoredKey(this.ctx.sealer, zone.id, state.algorithm as DnssecAlgorithm, 'zsk', 'published', now),
        );
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

function iso(d: Date | null | undefined): string | null {
  return d == null ? null : new Date(d).toISOString();
}
