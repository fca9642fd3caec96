/**
 * A zone's stored DNSSEC key as both schedules need it: a new one made with its private key sealed
 * (it never reaches the database in the clear), and a stored one as the schedules read it (times
 * in milliseconds). Shared by the ZSK schedule (dnssec-service.ts) and the KSK rollover
 * (ksk-rollover-service.ts).
 */
import type { Sealer } from '../../../kernel/crypto/sealing.ts';
import { generateDnssecKey, type DnssecAlgorithm } from '../../../dns/index.ts';
import type { KeyRole } from '../dns-tables.ts';
import type { ScheduledKey } from './dnssec-key-schedule.ts';
import { keyContext } from './dnssec-key-sealing.ts';
import type { StoredKey } from './dnssec-repository.ts';

/** A new key pair for the zone, as the row to insert: `active` keys sign from `now`. */
export function newStoredKey(
  sealer: Sealer,
  zoneId: number,
  algorithm: DnssecAlgorithm,
  role: KeyRole,
  state: 'active' | 'published',
  now: Date,
): Omit<StoredKey, 'id'> {
  const key = generateDnssecKey(algorithm, role);
  return {
    zone_id: zoneId,
    role,
    state,
    algorithm,
    key_tag: key.keyTag,
    dnskey: key.dnskey,
    private_key: sealer.seal(key.privateKeyPkcs8, keyContext(zoneId, role)),
    published_at: now,
    activated_at: state === 'active' ? now : null,
    retired_at: null,
  };
}

export function scheduledKey(k: StoredKey): ScheduledKey {
  return {
    id: k.id,
    role: k.role,
    state: k.state,
    publishedAt: new Date(k.published_at).getTime(),
    activatedAt: msOrNull(k.activated_at),
    retiredAt: msOrNull(k.retired_at),
  };
}

/** A stored time in milliseconds since the epoch, or null. */
export function msOrNull(d: Date | null): number | null {
  return d === null ? null : new Date(d).getTime();
}
