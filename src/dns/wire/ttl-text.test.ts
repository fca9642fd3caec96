import { describe, expect, it } from 'vitest';
import { MAX_TTL, parseDuration, parseTtl } from './ttl-text.ts';

describe('ttl-text', () => {
  it('reads plain seconds and BIND units', () => {
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('3600')).toBe(3600);
    expect(parseDuration('1h')).toBe(3600);
    expect(parseDuration('2d')).toBe(172_800);
    expect(parseDuration('1w3d')).toBe(864_000);
    expect(parseDuration('1H30M15s')).toBe(5415);
  });
  it('rejects anything else', () => {
    for (const bad of ['', '1y', 'h', '1h30', '-1', '1.5', ' 1', '0x10'])
      expect(parseDuration(bad)).toBeNull();
  });
  it('limits TTLs to 2^31 - 1 (RFC 2181 §8)', () => {
    expect(parseTtl(String(MAX_TTL))).toBe(MAX_TTL);
    expect(parseTtl(String(MAX_TTL + 1))).toBeNull();
  });
});
