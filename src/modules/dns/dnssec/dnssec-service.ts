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
import { dsRecordText, parentKsks } from './dnssec-records.ts';
import { afterParentCheck, nextKskAction, type KskInput, type KskRollover } from './ksk-rollover.ts';
import { dsKey, lookupParentDs } from './parent-ds-lookup.ts';
import { dsRdata, wireNameFromText } from '../../../dns/index.ts';
import { dnssecNotEnabled, kskRolloverRunning } from '../dns-errors.ts';
import { DnssecRepository, type StoredKey } from './dnssec-repository.ts';
import { nextKeyAction, type ScheduledKey } from './dnssec-key-schedule.ts';
import type {
  DnssecZoneRow,
  DnsTables,
  KeyRole,
  KeyState,
  KskRolloverState,
  ZoneRow,
} from '../dns-tables.ts';
import { keyContext } from './dnssec-key-sealing.ts';

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
  ksk_key_tag: number | null;
  zsk_key_tag: number | null;
  /** The DS of every KSK the parent should have (two while a KSK rollover waits for the parent). */
  ds_records: string[];
  zsk_rotated_at: string | null;
  keys: DnssecKeyInfo[];
  /** The running KSK rollover, or null. */
  rollover: KskRolloverInfo | null;
}

/** One step of a KSK rollover, for the zone's audit trail. */
type RolloverStep = 'start' | 'parent_ds_seen' | 'swap' | 'finish';

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
    const repo = this.repo.withTx(zoneTrx);
    const state = await repo.findZone(zone.id);
    if (state === null || state.disabling_since !== null) throw dnssecNotEnabled();
    if (state.ksk_rollover_state != null) throw kskRolloverRunning();
    await this.beginKskRollover(repo, zone, state);
  }

  private async beginKskRollover(repo: DnssecRepository, zone: ZoneRow, state: DnssecZoneRow): Promise<void> {
    const now = new Date(this.ctx.clock.now());
    await this.addKey(repo, zone.id, state.algorithm as DnssecAlgorithm, 'ksk', 'published', now);
    await repo.updateZone(zone.id, {
      ksk_rollover_state: 'waiting_for_parent_ds',
      ksk_rollover_started_at: now,
      ksk_parent_check_at: null,
      ksk_parent_ds_seen_at: null,
      ksk_parent_ds_ttl: null,
    });
  }

  /** Records a rollover step in the zone's audit trail (after its change committed). */
  async auditRollover(zone: Pick<ZoneRow, 'id' | 'org_id'>, step: RolloverStep): Promise<void> {
    await this.ctx.audit
      .record({
        orgId: zone.org_id === null ? null : Number(zone.org_id),
        actorUserId: null,
        actorRealm: 'system',
        action: `dns.dnssec.ksk_rollover_${step}`,
        resourceType: 'zone',
        resourceId: zone.id,
        ip: null,
      })
      .catch((error: unknown) =>
        this.ctx.log.error({ err: error, zoneId: zone.id }, 'audit entry not written'),
      );
  }

  /** Applies every key step due now to every signed zone (run periodically). */
  async runKeySchedule(): Promise<number> {
    let steps = 0;
    for (const z of await this.repo.listZones()) {
      for (let i = 0; i < MAX_STEPS_PER_RUN; i++) {
        const outcome = await this.changes.apply('platform', Number(z.zone_id), async (trx, zone) => {
          const result = await this.step(trx, zone);
          return {
            value: { result, zone },
            changed: result === 'changed' || (typeof result === 'object' && 'audit' in result),
          };
        });
        const { result, zone } = outcome;
        if (result === 'none') break;
        if (typeof result === 'object' && 'check' in result) {
          // The parent is asked outside the zone's transaction (a network round trip).
          const seen = await lookupParentDs(
            zone.domain,
            result.check.ds,
            this.ctx.settings.dnssecParentResolver,
          ).catch((error: unknown) => {
            this.ctx.log.warn({ err: error, zoneId: zone.id }, 'parent DS check failed');
            return null;
          });
          const after = await this.changes.apply('platform', zone.id, async (trx, locked) => {
            const step = await this.applyParentCheck(trx, locked, result.check.newId, seen);
            return { value: step, changed: step === 'swap' };
          });
          if (after !== null) await this.auditRollover(zone, after);
          steps++;
          break;
        }
        if (typeof result === 'object') await this.auditRollover(zone, result.audit);
        steps++;
      }
    }
    return steps;
  }

  /** The KSK rollover's view of the zone: its KSKs and rollover state. */
  private kskInput(zone: ZoneRow, state: DnssecZoneRow, keys: readonly StoredKey[]): KskInput {
    const rollover: KskRollover = {
      state: state.ksk_rollover_state ?? null,
      lastParentCheckAt: ms(state.ksk_parent_check_at ?? null),
      parentDsSeenAt: ms(state.ksk_parent_ds_seen_at ?? null),
      parentDsTtlS: state.ksk_parent_ds_ttl ?? null,
    };
    return {
      ksks: keys.filter((k) => k.role === 'ksk').map(toScheduled),
      rollover,
      now: this.ctx.clock.now(),
      dnskeyTtlS: zone.soa_ttl,
      kskRollDays: this.ctx.settings.dnssecKskRollDays,
    };
  }

  /** Applies what a parent check found, if the rollover still waits for that key's DS. */
  private async applyParentCheck(
    trx: Transaction<DnsTables>,
    zone: ZoneRow,
    newId: number,
    seen: { ttlS: number } | null,
  ): Promise<RolloverStep | null> {
    const repo = this.repo.withTx(trx);
    const state = await repo.findZone(zone.id);
    if (state === null || state.disabling_since !== null) return null;
    const keys = await repo.listKeys([zone.id]);
    const input = this.kskInput(zone, state, keys);
    const due = nextKskAction(input);
    if (due?.kind !== 'check-parent-ds' || due.newId !== newId) return null;
    const outcome = afterParentCheck(input, seen);
    const now = new Date(input.now);
    if (outcome.kind === 'swap-ksk') {
      await repo.setKeyState(outcome.newId, 'active', { activated_at: now });
      await repo.setKeyState(outcome.oldId, 'retired', { retired_at: now });
      await repo.updateZone(zone.id, { ksk_rollover_state: 'retiring_old_key', ksk_parent_check_at: now });
      this.ctx.log.info({ zoneId: zone.id, step: 'swap-ksk' }, 'DNSSEC key step');
      return 'swap';
    }
    const r = outcome.rollover;
    await repo.updateZone(zone.id, {
      ksk_rollover_state: r.state,
      ksk_parent_check_at: dateOf(r.lastParentCheckAt),
      ksk_parent_ds_seen_at: dateOf(r.parentDsSeenAt),
      ksk_parent_ds_ttl: r.parentDsTtlS,
    });
    // First sight of the new DS is a step of its own; a check that changes nothing is not.
    return r.state === 'parent_ds_seen' && input.rollover.state !== 'parent_ds_seen'
      ? 'parent_ds_seen'
      : null;
  }

  /**
   * One due step of the zone's key schedule: 'changed' (ZSK schedule), an audited rollover step,
   * a parent check to make (outside the transaction), or 'none'.
   */
  private async step(
    trx: Transaction<DnsTables>,
    zone: ZoneRow,
  ): Promise<'none' | 'changed' | { audit: RolloverStep } | { check: { newId: number; ds: string } }> {
    const repo = this.repo.withTx(trx);
    const state = await repo.findZone(zone.id);
    if (state === null) return 'none';
    const keys = await repo.listKeys([zone.id]);
    const nowMs = this.ctx.clock.now();
    if (state.disabling_since === null) {
      const ksk = nextKskAction(this.kskInput(zone, state, keys));
      if (ksk !== null) {
        const now = new Date(nowMs);
        switch (ksk.kind) {
          case 'start-ksk-rollover':
            await this.beginKskRollover(repo, zone, state);
            this.ctx.log.info({ zoneId: zone.id, step: ksk.kind }, 'DNSSEC key step');
            return { audit: 'start' };
          case 'check-parent-ds': {
            const incoming = keys.find((k) => k.id === ksk.newId)!;
            return {
              check: {
                newId: ksk.newId,
                ds: dsKey(dsRdata(wireNameFromText(zone.domain).wire, incoming.dnskey)),
              },
            };
          }
          case 'remove-old-ksk':
            await repo.deleteKey(ksk.id);
            await repo.updateZone(zone.id, {
              ksk_rollover_state: null,
              ksk_rollover_started_at: null,
              ksk_parent_check_at: null,
              ksk_parent_ds_seen_at: null,
              ksk_parent_ds_ttl: null,
            });
            this.ctx.log.info({ zoneId: zone.id, step: ksk.kind, at: now.toISOString() }, 'DNSSEC key step');
            return { audit: 'finish' };
        }
      }
    }
    const action = nextKeyAction({
      keys: keys.map(toScheduled),
      now: nowMs,
      dnskeyTtlS: zone.soa_ttl,
      zskRollDays: this.ctx.settings.dnssecZskRollDays,
      disablingSince: state.disabling_since ? new Date(state.disabling_since).getTime() : null,
    });
    if (action === null) return 'none';
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
    return 'changed';
  }
}

function ms(d: Date | null): number | null {
  return d === null ? null : new Date(d).getTime();
}

function dateOf(t: number | null): Date | null {
  return t === null ? null : new Date(t);
}

function iso(d: Date | null | undefined): string | null {
  return d == null ? null : new Date(d).toISOString();
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
