import { describe, expect, it } from 'vitest';
import { buildQuery } from '../../../testing/dns-answer-compare.ts';
import { createSeededRandom } from '../../../testing/seeded-random.ts';
import { wireNameFromText } from '../wire-name.ts';
import { createParsedQuery, parseQuery } from './query-parser.ts';

const rnd = createSeededRandom(41);
const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_';
const randomName = (): string => {
  const labels: string[] = [];
  for (let n = 1 + rnd.int(6); n > 0; n--) {
    let s = '';
    for (let m = 1 + rnd.int(14); m > 0; m--) s += LETTERS[rnd.int(LETTERS.length)];
    labels.push(s);
  }
  return labels.join('.');
};
const keysOf = (name: string): readonly string[] => wireNameFromText(name).keys;

describe('the query name (QueryName): keys made on demand, compared with the bytes', () => {
  it('gives every suffix the key a compiled name has, whatever the case, and makes each once per query', () => {
    const q = createParsedQuery();
    for (let i = 0; i < 3_000; i++) {
      const name = randomName();
      expect(parseQuery(buildQuery({ name, type: 'A' }), q)).toBe('ok');
      const want = keysOf(name.toLowerCase());
      expect(q.name.labels).toBe(want.length);
      // Asked for in a random order, suffixes first or the whole name first.
      const order = want.map((_, l) => l).sort(() => rnd.int(3) - 1);
      for (const l of order) {
        expect(q.name.keyLength(l)).toBe(want[l]!.length);
        expect(q.name.key(l)).toBe(want[l]);
        expect(q.name.key(l)).toBe(q.name.key(l));
      }
    }
    expect(parseQuery(buildQuery({ name: '.', type: 'NS' }), q)).toBe('ok');
    expect(q.name.labels).toBe(0);
    expect(q.name.key(0)).toBe('');
    expect(q.name.keyLength(0)).toBe(0);
  });

  it('compares a key with the bytes exactly as the strings compare, before and after the key is made', () => {
    const q = createParsedQuery();
    for (let i = 0; i < 2_000; i++) {
      const name = randomName();
      const other = randomName();
      expect(parseQuery(buildQuery({ name, type: 'A' }), q)).toBe('ok');
      const want = keysOf(name.toLowerCase());
      // Same length, one byte different: the last letter of the first label changed.
      const near = want.map((k) => k.slice(0, -1) + String.fromCharCode(k.charCodeAt(k.length - 1) ^ 1));
      const candidates = [...want, ...near, ...keysOf(other.toLowerCase()), ...keysOf(name), ''];
      for (const made of [false, true]) {
        for (let l = 0; l < want.length; l++) {
          if (made) q.name.key(l);
          for (const c of candidates) expect(q.name.equalsKey(l, c), `${l} ${c}`).toBe(want[l] === c);
        }
      }
    }
  });

  it('takes an equal string for a suffix, and forgets it with the next query', () => {
    const q = createParsedQuery();
    expect(parseQuery(buildQuery({ name: 'www.Example.COM', type: 'A' }), q)).toBe('ok');
    const apex = keysOf('example.com')[0]!;
    q.name.adopt(1, apex);
    expect(q.name.key(1)).toBe(apex);
    expect(q.name.equalsKey(1, apex)).toBe(true);
    expect(parseQuery(buildQuery({ name: 'mail.example.net', type: 'A' }), q)).toBe('ok');
    expect(q.name.key(1)).toBe(keysOf('example.net')[0]);
    expect(q.name.equalsKey(1, apex)).toBe(false);
    expect(q.name.key(0)).toBe(keysOf('mail.example.net')[0]);
  });
});
