import { describe, expect, it } from 'vitest';
import { curseForgeFingerprint, fileDigests, murmurHash2 } from './file-digests.ts';

describe('file digests', () => {
  it('MurmurHash2 (seed 1) gives the reference implementation’s values, every tail length included', () => {
    // Values from Austin Appleby's MurmurHash2 in C, compiled and run with seed 1.
    const cases: [string, number][] = [
      ['', 1540447798],
      ['a', 626045324],
      ['ab', 1692487918],
      ['abc', 1621425345],
      ['abcd', 3376380438],
      ['Hello,World!', 1961219979],
    ];
    for (const [text, expected] of cases) expect(murmurHash2(Buffer.from(text), 1)).toBe(expected);
  });

  it('fingerprints a file as CurseForge does: whitespace bytes 9, 10, 13 and 32 left out', () => {
    const spaced = Buffer.from('The quick brown fox\tjumps over\r\nthe lazy dog');
    expect(curseForgeFingerprint(spaced)).toBe(3751777527);
    expect(curseForgeFingerprint(Buffer.from('Thequickbrownfoxjumpsoverthelazydog'))).toBe(3751777527);
    expect(curseForgeFingerprint(Buffer.from('The quick brown fox jumps over the lazy dog!'))).not.toBe(
      3751777527,
    );
  });

  it('gives SHA-1 and SHA-512 in hex', () => {
    const d = fileDigests(Buffer.from('abc'));
    expect(d.sha1).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(d.sha512).toBe(
      'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a' +
        '2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
    );
    expect(d.fingerprint).toBe(1621425345);
  });
});
