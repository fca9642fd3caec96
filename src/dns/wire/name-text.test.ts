import { describe, expect, it } from 'vitest';
import {
  NameTextError,
  isSubdomain,
  nameFromWire,
  nameKey,
  nameToText,
  nameToWire,
  parseNameText,
  parseStoredName,
} from './name-text.ts';

const ascii = (labels: Uint8Array[]): string[] => labels.map((l) => Buffer.from(l).toString('latin1'));

describe('parseNameText', () => {
  it('completes relative names and handles @ and absolute names', () => {
    expect(ascii(parseNameText('www', 'example.com'))).toEqual(['www', 'example', 'com']);
    expect(ascii(parseNameText('@', 'example.com'))).toEqual(['example', 'com']);
    expect(ascii(parseNameText('www.example.org.', 'example.com'))).toEqual(['www', 'example', 'org']);
    expect(parseNameText('.', 'example.com')).toEqual([]);
    expect(ascii(parseNameText('a', ''))).toEqual(['a']);
  });
  it('preserves case', () => {
    expect(ascii(parseNameText('WwW', 'Example.COM'))).toEqual(['WwW', 'Example', 'COM']);
  });
  it('resolves \\DDD and \\X escapes', () => {
    expect(ascii(parseNameText('a\\.b', 'example.com'))).toEqual(['a.b', 'example', 'com']);
    expect(ascii(parseNameText('\\065\\066c.', ''))).toEqual(['ABc']);
    expect(parseNameText('\\000.', '')[0]).toEqual(Uint8Array.of(0));
    expect(ascii(parseNameText('a\\\\b.', ''))).toEqual(['a\\b']);
    expect(ascii(parseNameText('a\\ b.', ''))).toEqual(['a b']);
  });
  it('rejects bad escapes, empty labels and overlong labels/names', () => {
    expect(() => parseNameText('a..b', 'example.com')).toThrow(NameTextError);
    expect(() => parseNameText('.a', 'example.com')).toThrow(/empty label/);
    expect(() => parseNameText('a\\25', 'x')).toThrow(/three digits/);
    expect(() => parseNameText('a\\256', 'x')).toThrow(/above 255/);
    expect(() => parseNameText('a\\', 'x')).toThrow(/lone backslash/);
    expect(() => parseNameText('', 'x')).toThrow(/empty/);
    expect(() => parseNameText('a'.repeat(64) + '.', '')).toThrow(/63/);
    expect(parseNameText('a'.repeat(63) + '.', '')[0]!.length).toBe(63);
    const long = Array.from({ length: 4 }, () => 'a'.repeat(63)).join('.') + '.';
    expect(() => parseNameText(long, '')).toThrow(/255/);
    // 3 × 64 + 62 + 1 = 255 octets exactly.
    const max = [...Array.from({ length: 3 }, () => 'a'.repeat(63)), 'b'.repeat(61)].join('.') + '.';
    expect(nameToWire(parseNameText(max, '')).length).toBe(255);
    expect(() =>
      parseNameText(
        'www',
        'a'.repeat(63) + '.' + 'b'.repeat(63) + '.' + 'c'.repeat(63) + '.' + 'd'.repeat(60),
      ),
    ).toThrow(/255/);
  });
});

describe('nameToText / nameKey / parseStoredName', () => {
  it('escapes special and non-printable octets', () => {
    const labels = [Uint8Array.from(Buffer.from('a.b\\"();@$')), Uint8Array.of(0x20, 0x00, 0xff, 0x41)];
    expect(nameToText(labels)).toBe('a\\.b\\\\\\"\\(\\)\\;\\@\\$.\\032\\000\\255A.');
    expect(nameKey(labels)).toBe('a\\.b\\\\\\"\\(\\)\\;\\@\\$.\\032\\000\\255a');
    expect(parseStoredName(nameKey(labels))).toEqual([labels[0], Uint8Array.of(0x20, 0, 0xff, 0x61)]);
  });
  it('handles the root', () => {
    expect(nameToText([])).toBe('.');
    expect(nameKey([])).toBe('');
    expect(parseStoredName('')).toEqual([]);
    expect(parseStoredName('.')).toEqual([]);
  });
  it('round-trips text', () => {
    for (const t of ['www.example.com.', '*.example.com.', 'a\\.b.c.', '\\@.x.', '_sip._tcp.example.com.']) {
      expect(nameToText(parseNameText(t, ''))).toBe(t);
    }
  });
  it('stored form is lower case and tolerates a trailing dot', () => {
    expect(nameKey(parseNameText('WWW.Example.COM.', ''))).toBe('www.example.com');
    expect(ascii(parseStoredName('www.example.com.'))).toEqual(['www', 'example', 'com']);
  });
});

describe('wire form', () => {
  it('encodes and decodes uncompressed names', () => {
    const labels = parseNameText('www.example.com.', '');
    const wire = nameToWire(labels);
    expect(Buffer.from(wire).toString('hex')).toBe('03777777076578616d706c6503636f6d00');
    const buf = Uint8Array.from([0xff, ...wire, 0xee]);
    const { labels: back, end } = nameFromWire(buf, 1);
    expect(back).toEqual(labels);
    expect(end).toBe(1 + wire.length);
    expect(nameToWire([])).toEqual(Uint8Array.of(0));
  });
  it('rejects pointers, bad label types and truncation', () => {
    expect(() => nameFromWire(Uint8Array.of(0xc0, 0x0c), 0)).toThrow(/compressed/);
    expect(() => nameFromWire(Uint8Array.of(0x41, 0x00), 0)).toThrow(/label type/);
    expect(() => nameFromWire(Uint8Array.of(3, 0x61), 0)).toThrow(/truncated/);
    expect(() => nameFromWire(Uint8Array.of(1, 0x61), 0)).toThrow(/truncated/);
  });
});

describe('isSubdomain', () => {
  it('compares label-wise and case-insensitively', () => {
    expect(isSubdomain('www.example.com', 'example.com')).toBe(true);
    expect(isSubdomain('example.com', 'example.com')).toBe(true);
    expect(isSubdomain('WWW.EXAMPLE.com', 'example.COM')).toBe(true);
    expect(isSubdomain('wwwexample.com', 'example.com')).toBe(false);
    expect(isSubdomain('a\\.example.com', 'example.com')).toBe(false);
    expect(isSubdomain('x.a\\.example.com', 'a\\.example.com')).toBe(true);
    expect(isSubdomain('x.a\\.example.com', 'a.example.com')).toBe(false);
    expect(isSubdomain('example.com', 'www.example.com')).toBe(false);
    expect(isSubdomain('anything', '')).toBe(true);
  });
});
