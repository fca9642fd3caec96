import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEALING_KEY_FILE, Sealer, resolveSealingKey } from './sealing.ts';

describe('secrets sealed at rest', () => {
  it('seals with AES-256-GCM bound to its context; tampering or another context fails', () => {
    const enc = new Sealer(Buffer.alloc(32, 7));
    const plain = Uint8Array.from([1, 2, 3, 4, 5]);
    const sealed = enc.seal(plain, 'dnssec-key:1:zsk');
    expect(Buffer.from(sealed).includes(Buffer.from(plain))).toBe(false);
    expect(enc.open(sealed, 'dnssec-key:1:zsk')).toEqual(plain);
    expect(() => enc.open(sealed, 'dnssec-key:2:zsk')).toThrow();
    const bad = Uint8Array.from(sealed);
    bad[bad.length - 1]! ^= 1;
    expect(() => enc.open(bad, 'dnssec-key:1:zsk')).toThrow();
    expect(() => new Sealer(Buffer.alloc(16))).toThrow();
  });

  it('tags short values with an HMAC under a key derived per context', () => {
    const one = new Sealer(Buffer.alloc(32, 7));
    const tag = one.mac('Q1', 'mail-verp', 6);
    expect(tag).toMatch(/^[0-9a-f]{12}$/);
    expect(one.mac('Q1', 'mail-verp', 6)).toBe(tag);
    expect(one.mac('Q2', 'mail-verp', 6)).not.toBe(tag);
    expect(one.mac('Q1', 'other', 6)).not.toBe(tag);
    expect(new Sealer(Buffer.alloc(32, 8)).mac('Q1', 'mail-verp', 6)).not.toBe(tag);
    expect(one.mac('Q1', 'mail-verp')).toHaveLength(64);
  });

  it('uses SEALING_KEY, else a 32-byte key file in DATA_DIR with mode 0600, kept across starts', () => {
    expect(resolveSealingKey(Buffer.alloc(32, 1).toString('base64'), '/nonexistent')).toEqual(
      Buffer.alloc(32, 1),
    );
    const dir = mkdtempSync(path.join(tmpdir(), 'kek-'));
    try {
      const first = resolveSealingKey(null, dir);
      const file = path.join(dir, SEALING_KEY_FILE);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(first).toHaveLength(32);
      expect(Buffer.from(readFileSync(file, 'utf8'), 'base64')).toEqual(first);
      expect(resolveSealingKey(null, dir)).toEqual(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
