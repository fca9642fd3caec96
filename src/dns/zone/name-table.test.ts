import { describe, expect, it } from 'vitest';
import { ByteArena } from '../wire/byte-arena.ts';
import { NameTable } from './name-table.ts';
import { wireNameFromText, wireSize } from '../wire/wire-name.ts';

const text = (w: Uint8Array) => Buffer.from(w).toString('latin1');

describe('NameTable', () => {
  it('returns one object per spelling and keeps the bytes in the arena', () => {
    const t = new NameTable(new ByteArena());
    const a = t.intern(wireNameFromText('www.Example.com'));
    expect(t.intern(wireNameFromText('www.Example.com'))).toBe(a);
    expect(text(a.wire)).toBe(text(wireNameFromText('www.Example.com').wire));
    expect(wireSize(a)).toBe(a.wire.length);
  });

  it('keeps another letter case as its own name sharing the keys', () => {
    const t = new NameTable(new ByteArena());
    const a = t.intern(wireNameFromText('www.example.com'));
    const b = t.intern(wireNameFromText('WWW.example.com'));
    expect(b).not.toBe(a);
    expect(b.keys).toBe(a.keys);
    expect(text(b.wire)).toBe(text(wireNameFromText('WWW.example.com').wire));
    expect(t.get(a.keys[0]!)).toBe(a);
  });

  it('registers ancestors on their child bytes and shares their key strings', () => {
    const t = new NameTable(new ByteArena());
    const child = t.intern(wireNameFromText('a.b.example.com'));
    const parent = t.get(child.keys[1]!)!;
    expect(parent.bytes).toBe(child.bytes);
    expect(text(parent.wire)).toBe(text(wireNameFromText('b.example.com').wire));
    expect(parent.keys).toEqual(child.keys.slice(1));
    for (let i = 1; i < child.keys.length; i++) expect(child.keys[i]).toBe(parent.keys[i - 1]);
    expect(t.intern(wireNameFromText('b.example.com'))).toBe(parent);
    expect(t.get('')!.keys).toEqual([]);
  });
});
