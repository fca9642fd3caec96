/**
 * The KSK rollover (ksk-rollover.ts) applied to a zone's stored keys: started by the owner or by
 * the key schedule, its due steps taken inside the zone's change, the parent's DS asked for
 * outside it (a network round trip must not hold the zone's lock), each step audited once its
 * change committed.
 */
import type { Transaction } from 'kysely';
import { dsRdata, wireNameFromText, type DnssecAlgorithm } from '../../../dns/index.ts';
import type { DnsContext } from '../dns-context.ts';
import { dnssecNotEnabled, kskRolloverRunning } from '../dns-errors.ts';
import type { DnssecZoneRow, DnsTables, ZoneRow } from '../dns-tables.ts';
import type { ZoneChanges } from '../shared/zone-changes.ts';
import { DnssecRepository, type StoredKey } from './dnssec-repository.ts';
import { msOrNull, newStoredKey, scheduledKey } from './dnssec-stored-key.ts';
import { afterParentCheck, nextKskAction, type KskInput } from './ksk-rollover.ts';
import { dsKey, lookupParentDs } from './parent-ds-lookup.ts';

/** One step of a KSK rollover, for the zone's audit trail. */
export type RolloverStep = 'start' | 'parent_ds_seen' | 'swap' | 'finish';

/** A parent DS check that is due: made outside the zone's transaction (checkParent). */
export interface ParentDsCheck {
  /** The incoming KSK, whose DS the parent should hold. */
  readonly newId: number;
  readonly ds: string;
}

/** A KSK step taken inside the zone's change (to audit once committed), or a parent check due. */
export type KskStepTaken = { readonly audit: RolloverStep } | { readonly check: ParentDsCheck };

export class KskRolloverService {
  private readonly repo: DnssecRepository;

  constructor(
    private readonly ctx: DnsContext,
    private readonly changes: ZoneChanges,
  ) {
    this.repo = new DnssecRepository(ctx.db);
  }

  /**
   * Inside a zone change: starts a KSK rollover (a new KSK published beside the active one, CDS
   * and CDNSKEY naming both). 409 when the zone is not signed or a rollover runs.
   */
  async start(zoneTrx: Transaction<DnsTables>, zone: ZoneRow): Promise<void> {
    const repo = this.repo.withTx(zoneTrx);
    const state = await repo.findZone(zone.id);
    if (state === null || state.disabling_since !== null) throw dnssecNotEnabled();
    if (state.ksk_rollover_state != null) throw kskRolloverRunning();
    await this.begin(repo, zone, state);
  }

  /**
   * Inside the key schedule's zone change (`repo` in its transaction), on a signed zone: takes the
   * KSK step due now, if any. A parent check is only handed back: checkParent makes it.
   */
  async takeDueStep(
    repo: DnssecRepository,
    zone: ZoneRow,
    state: DnssecZoneRow,
    keys: readonly StoredKey[],
  ): Promise<KskStepTaken | null> {
    const action = nextKskAction(this.input(zone, state, keys));
    if (action === null) return null;
    switch (action.kind) {
      case 'start-ksk-rollover':
        await this.begin(repo, zone, state);
        this.ctx.log.info({ zoneId: zone.id, step: action.kind }, 'DNSSEC key step');
        return { audit: 'start' };
      case 'check-parent-ds':
        return { check: parentDsCheck(zone, keys, action.newId) };
      case 'remove-old-ksk':
        await this.removeOldKey(repo, zone, action.id);
        return { audit: 'finish' };
    }
  }

  /** Asks the parent for its DS (no zone lock held), then applies and audits what it found. */
  async checkParent(zone: ZoneRow, check: ParentDsCheck): Promise<void> {
    const seen = await lookupParentDs(zone.domain, check.ds, this.ctx.settings.dnssecParentResolver).catch(
      (error: unknown) => {
        this.ctx.log.warn({ err: error, zoneId: zone.id }, 'parent DS check failed');
        return null;
      },
    );
    const step = await this.changes.apply('platform', zone.id, async (trx, locked) => {
      const taken = await this.applyParentCheck(trx, locked, check.newId, seen);
      return { value: taken, changed: taken === 'swap' };
    });
    if (step !== null) await this.audit(zone, step);
  }

  /** Records a rollover step in the zone's audit trail (after its change committed). */
  async audit(zone: Pick<ZoneRow, 'id' | 'org_id'>, step: RolloverStep): Promise<void> {
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

  private async begin(repo: DnssecRepository, zone: ZoneRow, state: DnssecZoneRow): Promise<void> {
    const now = new Date(this.ctx.clock.now());
    const algorithm = state.algorithm as DnssecAlgorithm;
    await repo.insertKey(newStoredKey(this.ctx.sealer, zone.id, algorithm, 'ksk', 'published', now));
    await repo.updateZone(zone.id, {
      ksk_rollover_state: 'waiting_for_parent_ds',
      ksk_rollover_started_at: now,
      ksk_parent_check_at: null,
      ksk_parent_ds_seen_at: null,
      ksk_parent_ds_ttl: null,
    });
  }

  private async removeOldKey(repo: DnssecRepository, zone: ZoneRow, keyId: number): Promise<void> {
    await repo.deleteKey(keyId);
    await repo.updateZone(zone.id, {
      ksk_rollover_state: null,
      ksk_rollover_started_at: null,
      ksk_parent_check_at: null,
      ksk_parent_ds_seen_at: null,
      ksk_parent_ds_ttl: null,
    });
    const at = new Date(this.ctx.clock.now()).toISOString();
    this.ctx.log.info({ zoneId: zone.id, step: 'remove-old-ksk', at }, 'DNSSEC key step');
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
    const input = this.input(zone, state, await repo.listKeys([zone.id]));
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
      ksk_parent_check_at: dateOrNull(r.lastParentCheckAt),
      ksk_parent_ds_seen_at: dateOrNull(r.parentDsSeenAt),
      ksk_parent_ds_ttl: r.parentDsTtlS,
    });
    // First sight of the new DS is a step of its own; a check that changes nothing is not.
    return r.state === 'parent_ds_seen' && input.rollover.state !== 'parent_ds_seen'
      ? 'parent_ds_seen'
      : null;
  }

  /** The KSK rollover's view of the zone: its KSKs and rollover state. */
  private input(zone: ZoneRow, state: DnssecZoneRow, keys: readonly StoredKey[]): KskInput {
    return {
      ksks: keys.filter((k) => k.role === 'ksk').map(scheduledKey),
      rollover: {
        state: state.ksk_rollover_state ?? null,
        lastParentCheckAt: msOrNull(state.ksk_parent_check_at ?? null),
        parentDsSeenAt: msOrNull(state.ksk_parent_ds_seen_at ?? null),
        parentDsTtlS: state.ksk_parent_ds_ttl ?? null,
      },
      now: this.ctx.clock.now(),
      dnskeyTtlS: zone.soa_ttl,
      kskRollDays: this.ctx.settings.dnssecKskRollDays,
    };
  }
}

/** The check of the parent for the incoming KSK's DS. */
function parentDsCheck(zone: ZoneRow, keys: readonly StoredKey[], newId: number): ParentDsCheck {
  const incoming = keys.find((k) => k.id === newId)!;
  return { newId, ds: dsKey(dsRdata(wireNameFromText(zone.domain).wire, incoming.dnskey)) };
}

function dateOrNull(t: number | null): Date | null {
  return t === null ? null : new Date(t);
}
