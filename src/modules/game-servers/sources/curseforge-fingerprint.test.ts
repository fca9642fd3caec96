import { describe, expect, it } from 'vitest';
import { curseForgeFingerprint } from './file-digests.ts';

const of = (text: string) => curseForgeFingerprint(Buffer.from(text, 'latin1'));

describe('CurseForge fingerprint', () => {
  // Vectors from the reference MurmurHash2 in C (seed 1) over the bytes left once 9, 10, 13, 32 are out.
  it('answers the reference MurmurHash2 (seed 1) of the bytes without whitespace', () => {
    expect(of('Hello, World!')).toBe(1961219979);
    expect(of('abc')).toBe(1621425345);
    expect(of('')).toBe(1540447798);
    expect(of('a b\tc\r\nde')).toBe(3469237630);
  });

  it('ignores whitespace bytes, and only those', () => {
    expect(of('a b\tc\r\nde')).toBe(of('abcde'));
    expect(of('abcde')).not.toBe(of('abcdf'));
  });
});
