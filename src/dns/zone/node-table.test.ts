import { describe, expect, it } from 'vitest';
import { buildQuery } from '../../testing/dns-answer-compare.ts';
import { createSeededRandom } from '../../testing/seeded-random.ts';
import { createParsedQuery, parseQuery } from '../wire/message/query-parser.ts';
import { nameKeyHash } from '../wire/name-key-hash.ts';
import { wireNameFromText } from '../wire/wire-name.ts';
import { NodeTable } from './node-table.ts';
import type { ZoneNode } from './zone-snapshot.ts';

const rnd = createSeededRandom(23);
const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_';
const label = () => {
  let s = '';
  for (let n = 1 + rnd.int(12); n > 0; n--) s += LETTERS[rnd.int(LETTERS.length)];
  return s;
};
const randomName = () => {
  const labels: string[] = [];
  for (let n = 1 + rnd.int(5); n > 0; n--) labels.push(label());
  return labels.join('.');
};
const keyOf = (name: string) => wireNameFromText(name).keys[0] ?? '';
const NODE = {} as ZoneNode;

describe('the name filter of a zone (NodeTable) and the query name hash', () => {
  it('hashes a query name and each of its suffixes from its bytes exactly as from their key strings, whatever the case', () => {
    const q = createParsedQuery();
    for (let i = 0; i < 5_000; i++) {
      const name = randomName();
      expect(parseQuery(buildQuery({ name, type: 'A' }), q)).toBe('ok');
      expect(q.name.hash).toBe(nameKeyHash(q.name.key(0)));
      for (let l = 0; l < q.name.labels; l++)
        expect(q.name.hashes[l], q.name.key(l)).toBe(nameKeyHash(q.name.key(l)));
      expect(q.name.hash).toBe(nameKeyHash(keyOf(name.toLowerCase())));
    }
    expect(parseQuery(buildQuery({ name: '.', type: 'NS' }), q)).toBe('ok');
    expect(q.name.hash).toBe(nameKeyHash(''));
  });

  it('never rules out a name it holds, through growth and deletes, and rules out most others', () => {
    const table = new NodeTable();
    const held: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const key = keyOf(randomName().toLowerCase());
      table.set(key, NODE);
      held.push(key);
      // Checked as it grows: every name set so far is still admitted.
      if (i % 997 === 0) for (const k of held) expect(table.mayHave(nameKeyHash(k)), k).toBe(true);
    }
    for (const k of held) expect(table.mayHave(nameKeyHash(k))).toBe(true);
    // Deleted names may pass (a stale bit); a name set again after a delete passes.
    table.delete(held[0]!);
    table.set(held[0]!, NODE);
    expect(table.mayHave(nameKeyHash(held[0]!))).toBe(true);
    let passed = 0;
    const tries = 50_000;
    for (let i = 0; i < tries; i++) {
      const key = keyOf(`${label()}x${i}.absent.example`.toLowerCase());
      if (table.has(key)) continue;
      if (table.mayHave(nameKeyHash(key))) passed++;
    }
    // At least 8 bits per name: about one absent name in eight passes on to the Map.
    expect(passed / tries).toBeLessThan(0.16);
  });
});
