import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../../../testing/seeded-random.ts';
import { suggestNames } from './name-suggester.ts';
import { checkSubdomain } from './subdomain-check.ts';

const allFree = async (names: readonly string[]) => new Set(names);

describe('name suggestions', () => {
  it('draws the same names from the same seed, different ones from another', async () => {
    const a = await suggestNames(8, createSeededRandom(42).next, allFree);
    const b = await suggestNames(8, createSeededRandom(42).next, allFree);
    const c = await suggestNames(8, createSeededRandom(43).next, allFree);
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
    expect(new Set(a).size).toBe(8);
    for (const name of a) {
      expect(name).toMatch(/^[a-z]+-[a-z]+$/);
      expect(checkSubdomain(name)).toBeNull();
    }
  });

  it('keeps only names the database calls free', async () => {
    const taken = new Set(await suggestNames(10, createSeededRandom(7).next, allFree));
    const asked: string[] = [];
    const names = await suggestNames(10, createSeededRandom(7).next, async (candidates) => {
      asked.push(...candidates);
      return new Set(candidates.filter((n) => !taken.has(n)));
    });
    expect(names).toHaveLength(10);
    expect(names.filter((n) => taken.has(n))).toEqual([]);
    expect(asked.some((n) => taken.has(n))).toBe(true);
  });

  it('falls back to numbered names when every word pair is taken', async () => {
    const names = await suggestNames(
      3,
      createSeededRandom(1).next,
      async (candidates) => new Set(candidates.filter((n) => /-\d\d$/.test(n))),
    );
    expect(names).toHaveLength(3);
    for (const name of names) expect(name).toMatch(/^[a-z]+-[a-z]+-\d\d$/);
  });

  it('answers fewer names than asked rather than looping when nothing is free', async () => {
    expect(await suggestNames(5, createSeededRandom(2).next, async () => new Set())).toEqual([]);
  });
});
