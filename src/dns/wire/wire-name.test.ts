import { describe, expect, it } from 'vitest';
import { wireNameFromText, wireNameFromWire } from './wire-name.ts';

/** The wire form of a dotted name built label by label (no escapes), the reference. */
function wireOf(text: string): Uint8Array {
  const labels = text.replace(/\.$/, '').split('.');
  return Uint8Array.from([...labels.flatMap((l) => [l.length, ...[...l].map((c) => c.charCodeAt(0))]), 0]);
}

describe('wireNameFromText', () => {
  it('parses plain names into the same wire and keys as the label-by-label form, case kept in the wire', () => {
    const names = [
      'a',
      'A.b',
      'www.Example.COM',
      'x.y.',
      '*.w.example',
      '_sip._tcp.Ex',
      `${'a'.repeat(63)}.b`,
      'é.x',
    ];
    for (let i = 0; i < 200; i++) names.push(`host${i * 7919}.Zone${i % 7}.example`);
    for (const text of names) {
      const name = wireNameFromText(text);
      const ref = wireNameFromWire(wireOf(text));
      expect(Buffer.from(name.wire), text).toEqual(Buffer.from(ref.wire));
      expect(name.keys, text).toEqual(ref.keys);
      expect(name.keys[0], text).toBe(name.keys[0]!.toLowerCase());
    }
  });

  it('reads escapes (RFC 1035 §5.1) and the root', () => {
    expect(wireNameFromText('a\\.b.c').keys).toHaveLength(2);
    expect(wireNameFromText('\\065.c').keys[0]).toBe(wireNameFromText('a.c').keys[0]);
    expect(Buffer.from(wireNameFromText('\\065.c').wire)).toEqual(Buffer.from(wireOf('A.c')));
    expect(wireNameFromText('a\\.').keys).toEqual(['\x02a.']);
    for (const root of ['', '.']) expect(Buffer.from(wireNameFromText(root).wire)).toEqual(Buffer.of(0));
  });

  it('refuses empty and long labels, long names and characters beyond latin1', () => {
    for (const bad of ['a..b', '.a', `${'a'.repeat(64)}.b`, 'a.'.repeat(128) + 'a', 'a\\', 'ā.b']) {
      expect(() => wireNameFromText(bad), bad).toThrow();
    }
    expect(() => wireNameFromText(`${'a.'.repeat(126)}a`)).not.toThrow(); // 255 octets
  });
});
