/**
 * What to do next with a zone's keys, as a pure function of the keys and the time (RFC 6781
 * §4.1.1.1, pre-publish ZSK rollover; RFC 7583 §3.2 timing):
 * 1. publish: a new ZSK enters the DNSKEY RRset PREPUBLISH before the active one is due
 *    (ZSK roll period after its activation), PREPUBLISH = DNSKEY TTL + one hour of propagation;
 * 2. activate: once it has been published PREPUBLISH (every cached DNSKEY RRset holds it) and the
 *    old one is due, it signs and the old one is retired (zsk_rotated_at);
 * 3. withdraw: a retired ZSK leaves the DNSKEY RRset once every signature it made has expired.
 * The KSK rolls on its own schedule, which waits for the parent's DS (ksk-rollover.ts). Turning DNSSEC off keeps the zone signed with the RFC 8078 delete CDS/CDNSKEY for
 * DISABLE_GRACE, then drops keys and signatures.
 */
import { SIGNATURE_VALIDITY_MAX_S } from '../../../dns/index.ts';
import type { KeyRole, KeyState } from '../dns-tables.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** How long the delete CDS/CDNSKEY are served, signed, before signing stops (RFC 8078 §4). */
export const DISABLE_GRACE_MS = 2 * DAY_MS;

export interface ScheduledKey {
  readonly id: number;
  readonly role: KeyRole;
  readonly state: KeyState;
  readonly publishedAt: number;
  readonly activatedAt: number | null;
  readonly retiredAt: number | null;
}

export interface ScheduleInput {
  readonly keys: readonly ScheduledKey[];
  /** Milliseconds since the epoch. */
  readonly now: number;
  readonly dnskeyTtlS: number;
  readonly zskRollDays: number;
  readonly disablingSince: number | null;
}

export type KeyAction =
  | { readonly kind: 'publish-zsk' }
  | { readonly kind: 'activate-zsk'; readonly newId: number; readonly oldId: number | null }
  | { readonly kind: 'withdraw'; readonly id: number }
  | { readonly kind: 'unsign' };

export function prepublishMs(dnskeyTtlS: number): number {
  return dnskeyTtlS * 1000 + HOUR_MS;
}

/** The next step due at `now`, or null. Apply it, then ask again (several may be due). */
export function nextKeyAction(input: ScheduleInput): KeyAction | null {
  const { keys, now } = input;
  if (input.disablingSince !== null) {
    return now >= input.disablingSince + DISABLE_GRACE_MS ? { kind: 'unsign' } : null;
  }
  const zsks = keys.filter((k) => k.role === 'zsk');
  for (const k of zsks) {
    if (k.state === 'retired' && now >= (k.retiredAt ?? 0) + SIGNATURE_VALIDITY_MAX_S * 1000) {
      return { kind: 'withdraw', id: k.id };
    }
  }
  const active = zsks.find((k) => k.state === 'active') ?? null;
  const next = zsks.find((k) => k.state === 'published') ?? null;
  const lead = prepublishMs(input.dnskeyTtlS);
  const due = active === null ? now : (active.activatedAt ?? active.publishedAt) + input.zskRollDays * DAY_MS;
  if (next === null) return now >= due - lead ? { kind: 'publish-zsk' } : null;
  if (now >= due && now >= next.publishedAt + lead) {
    return { kind: 'activate-zsk', newId: next.id, oldId: active?.id ?? null };
  }
  return null;
}
