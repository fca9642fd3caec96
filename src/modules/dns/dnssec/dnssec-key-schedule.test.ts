import { describe, expect, it } from 'vitest';
import { SIGNATURE_VALIDITY_MAX_S } from '../../../dns/index.ts';
import { DISABLE_GRACE_MS, nextKeyAction, prepublishMs, type ScheduledKey } from './dnssec-key-schedule.ts';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DNSSEC_KEK_FILE, KeyEncryption, keyContext, resolveDnssecKek } from './key-encryption.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const base = { dnskeyTtlS: 3600, zskRollDays: 30, disablingSince: null };
const ksk: ScheduledKey = {
  id: 1,
  role: 'ksk',
  state: 'active',
  publishedAt: T0,
  activatedAt: T0,
  retiredAt: null,
};
const zsk: ScheduledKey = {
  id: 2,
  role: 'zsk',
  state: 'active',
  publishedAt: T0,
  activatedAt: T0,
  retiredAt: null,
};

describe('DNSSEC key schedule (pre-publish ZSK rollover)', () => {
  it('publishes the next ZSK one DNSKEY TTL (plus margin) before the roll, then activates, then withdraws', () => {
    const lead = prepublishMs(3600);
    expect(lead).toBeGreaterThanOrEqual(3600 * 1000);
    expect(nextKeyAction({ ...base, keys: [ksk, zsk], now: T0 + 30 * DAY - lead - 1 })).toBeNull();
    const publishAt = T0 + 30 * DAY - lead;
    expect(nextKeyAction({ ...base, keys: [ksk, zsk], now: publishAt })).toEqual({ kind: 'publish-zsk' });
    const next: ScheduledKey = {
      id: 3,
      role: 'zsk',
      state: 'published',
      publishedAt: publishAt,
      activatedAt: null,
      retiredAt: null,
    };
    // Not before it has been published for the lead time, nor before the old key is due.
    expect(nextKeyAction({ ...base, keys: [ksk, zsk, next], now: publishAt + lead - 1 })).toBeNull();
    const rollAt = publishAt + lead;
    expect(nextKeyAction({ ...base, keys: [ksk, zsk, next], now: rollAt })).toEqual({
      kind: 'activate-zsk',
      newId: 3,
      oldId: 2,
    });
    const retired = { ...zsk, state: 'retired' as const, retiredAt: rollAt };
    const active = { ...next, state: 'active' as const, activatedAt: rollAt };
    const keys = [ksk, retired, active];
    expect(nextKeyAction({ ...base, keys, now: rollAt + SIGNATURE_VALIDITY_MAX_S * 1000 - 1 })).toBeNull();
    expect(nextKeyAction({ ...base, keys, now: rollAt + SIGNATURE_VALIDITY_MAX_S * 1000 })).toEqual({
      kind: 'withdraw',
      id: 2,
    });
    // A published key that was published late still waits the full lead.
    const late = { ...next, publishedAt: T0 + 40 * DAY };
    expect(nextKeyAction({ ...base, keys: [ksk, zsk, late], now: T0 + 40 * DAY + 1 })).toBeNull();
  });

  it('stops signing once the grace after turning DNSSEC off has passed', () => {
    const off = { ...base, disablingSince: T0, keys: [ksk, zsk] };
    expect(nextKeyAction({ ...off, now: T0 + DISABLE_GRACE_MS - 1 })).toBeNull();
    expect(nextKeyAction({ ...off, now: T0 + DISABLE_GRACE_MS })).toEqual({ kind: 'unsign' });
  });
});

describe('DNSSEC private keys at rest', () => {
  it('seals with AES-256-GCM bound to zone and role; tampering or another context fails', () => {
    const enc = new KeyEncryption(Buffer.alloc(32, 7));
    const plain = Uint8Array.from([1, 2, 3, 4, 5]);
    const sealed = enc.encrypt(plain, keyContext(1, 'zsk'));
    expect(Buffer.from(sealed).includes(Buffer.from(plain))).toBe(false);
    expect(enc.decrypt(sealed, keyContext(1, 'zsk'))).toEqual(plain);
    expect(() => enc.decrypt(sealed, keyContext(2, 'zsk'))).toThrow();
    const bad = Uint8Array.from(sealed);
    bad[bad.length - 1]! ^= 1;
    expect(() => enc.decrypt(bad, keyContext(1, 'zsk'))).toThrow();
    expect(() => new KeyEncryption(Buffer.alloc(16))).toThrow();
  });

  it('uses DNSSEC_KEY_ENCRYPTION_KEY, else a 32-byte key file in DATA_DIR with mode 0600, kept across starts', () => {
    expect(resolveDnssecKek(Buffer.alloc(32, 1).toString('base64'), '/nonexistent')).toEqual(
      Buffer.alloc(32, 1),
    );
    const dir = mkdtempSync(path.join(tmpdir(), 'kek-'));
    try {
      const first = resolveDnssecKek(null, dir);
      const file = path.join(dir, DNSSEC_KEK_FILE);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(first).toHaveLength(32);
      expect(Buffer.from(readFileSync(file, 'utf8'), 'base64')).toEqual(first);
      expect(resolveDnssecKek(null, dir)).toEqual(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
