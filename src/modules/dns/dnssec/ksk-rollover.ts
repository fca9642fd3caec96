/**
 * The KSK rollover, as a pure function of the zone's KSKs, the rollover's state and the time
 * (RFC 7583 §3.3, double-DS: the parent holds the DS of both keys while the signing key changes):
 * 1. start: a new KSK is published beside the active one (state `published`); CDS/CDNSKEY and the
 *    DS the owner is shown name both (RFC 7344), the old one still signs the DNSKEY RRset.
 *    State `waiting_for_parent_ds`.
 * 2. the parent's DS RRset is asked for once every PARENT_CHECK_INTERVAL_MS (through
 *    DNSSEC_PARENT_RESOLVER). Seen holding the new key's DS → `parent_ds_seen`, remembering when
 *    and its TTL; not seen → back to (or still) `waiting_for_parent_ds`: nothing moves without it.
 * 3. swap: once the new DS has been seen for at least its TTL (every validator's cached DS RRset
 *    holds it), the new KSK signs the DNSKEY RRset alone; the old one is retired (still published,
 *    gone from CDS/CDNSKEY). State `retiring_old_key`.
 * 4. remove: one DNSKEY TTL later (no cached DNSKEY RRset needs the old key), the old KSK goes and
 *    the rollover is over.
 * Automatic rollovers start DNSSEC_KSK_ROLL_DAYS after the active KSK began signing (0: manual only).
 */
import type { KeyState, KskRolloverState } from '../dns-tables.ts';

const DAY_MS = 86_400_000;
/** How often the parent's DS RRset is asked for while a rollover waits for it. */
export const PARENT_CHECK_INTERVAL_MS = 3_600_000;

export type { KskRolloverState };

export interface RolloverKsk {
  readonly id: number;
  readonly state: KeyState;
  readonly publishedAt: number;
  readonly activatedAt: number | null;
  readonly retiredAt: number | null;
}

export interface KskRollover {
  readonly state: KskRolloverState | null;
  readonly lastParentCheckAt: number | null;
  readonly parentDsSeenAt: number | null;
  /** TTL (seconds) of the parent's DS RRset when it was seen. */
  readonly parentDsTtlS: number | null;
}

export interface KskInput {
  readonly ksks: readonly RolloverKsk[];
  readonly rollover: KskRollover;
  /** Milliseconds since the epoch. */
  readonly now: number;
  readonly dnskeyTtlS: number;
  /** 0: rollovers start only when asked for. */
  readonly kskRollDays: number;
}

export type KskAction =
  | { readonly kind: 'start-ksk-rollover' }
  | { readonly kind: 'check-parent-ds'; readonly newId: number }
  | { readonly kind: 'remove-old-ksk'; readonly id: number };

/** The next KSK step due at `now`, or null. The parent check is I/O: see afterParentCheck. */
export function nextKskAction(input: KskInput): KskAction | null {
  const { ksks, rollover, now } = input;
  const active = ksks.find((k) => k.state === 'active') ?? null;
  const incoming = ksks.find((k) => k.state === 'published') ?? null;
  const retired = ksks.find((k) => k.state === 'retired') ?? null;
  switch (rollover.state) {
    case null: {
      if (input.kskRollDays <= 0 || active === null) return null;
      const since = active.activatedAt ?? active.publishedAt;
      return now >= since + input.kskRollDays * DAY_MS ? { kind: 'start-ksk-rollover' } : null;
    }
    case 'waiting_for_parent_ds':
    case 'parent_ds_seen': {
      if (incoming === null) return null;
      const due =
        rollover.lastParentCheckAt === null || now >= rollover.lastParentCheckAt + PARENT_CHECK_INTERVAL_MS;
      return due ? { kind: 'check-parent-ds', newId: incoming.id } : null;
    }
    case 'retiring_old_key':
      if (retired === null) return null;
      return now >= (retired.retiredAt ?? 0) + input.dnskeyTtlS * 1000
        ? { kind: 'remove-old-ksk', id: retired.id }
        : null;
  }
}

/**
 * What a parent check found changes: the rollover's next state, or a swap when the new DS has now
 * been seen for at least its TTL.
 */
export function afterParentCheck(
  input: KskInput,
  seen: { readonly ttlS: number } | null,
):
  | { readonly kind: 'state'; readonly rollover: KskRollover }
  | { readonly kind: 'swap-ksk'; readonly newId: number; readonly oldId: number } {
  const { rollover, now, ksks } = input;
  if (seen === null) {
    return {
      kind: 'state',
      rollover: {
        state: 'waiting_for_parent_ds',
        lastParentCheckAt: now,
        parentDsSeenAt: null,
        parentDsTtlS: null,
      },
    };
  }
  const active = ksks.find((k) => k.state === 'active');
  const incoming = ksks.find((k) => k.state === 'published');
  const seenAt =
    rollover.state === 'parent_ds_seen' && rollover.parentDsSeenAt !== null ? rollover.parentDsSeenAt : now;
  const ttlS = Math.max(seen.ttlS, rollover.parentDsTtlS ?? 0);
  if (active !== undefined && incoming !== undefined && now >= seenAt + ttlS * 1000 && seenAt < now) {
    return { kind: 'swap-ksk', newId: incoming.id, oldId: active.id };
  }
  return {
    kind: 'state',
    rollover: { state: 'parent_ds_seen', lastParentCheckAt: now, parentDsSeenAt: seenAt, parentDsTtlS: ttlS },
  };
}
