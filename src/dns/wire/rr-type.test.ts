import { describe, expect, it } from 'vitest';
import { RR_TYPE, isMetaType, typeFromText, typeToText } from './rr-type.ts';

describe('rr-type', () => {
  it('maps mnemonics case-insensitively', () => {
    expect(typeFromText('a')).toBe(1);
    expect(typeFromText('Https')).toBe(65);
    expect(typeFromText('CAA')).toBe(257);
    expect(typeFromText('DNAME')).toBe(RR_TYPE.DNAME);
  });
  it('accepts RFC 3597 TYPEnnn in range only', () => {
    expect(typeFromText('TYPE65534')).toBe(65534);
    expect(typeFromText('type1')).toBe(1);
    expect(typeFromText('TYPE65535')).toBe(65535);
    expect(typeFromText('TYPE65536')).toBeNull();
    expect(typeFromText('TYPE01')).toBeNull();
    expect(typeFromText('TYPE')).toBeNull();
    expect(typeFromText('FOO')).toBeNull();
    expect(typeFromText('constructor')).toBeNull();
  });
  it('prints mnemonics or TYPEnnn', () => {
    expect(typeToText(28)).toBe('AAAA');
    expect(typeToText(65534)).toBe('TYPE65534');
  });
  it('knows meta types', () => {
    expect(isMetaType(RR_TYPE.OPT)).toBe(true);
    expect(isMetaType(RR_TYPE.ANY)).toBe(true);
    expect(isMetaType(RR_TYPE.AXFR)).toBe(true);
    expect(isMetaType(RR_TYPE.A)).toBe(false);
    expect(isMetaType(RR_TYPE.CAA)).toBe(false);
  });
});
