import { describe, expect, it } from 'vitest';
import { ZoneTokenError, tokenizeRdataText, tokenizeZoneFile } from './zone-file-tokenizer.ts';

describe('tokenizeZoneFile', () => {
  it('splits entries, keeps escapes raw and strips quotes', () => {
    const lines = tokenizeZoneFile('a\\.b 300 TXT "x \\"y\\" ; z" c\\;d ; comment\n');
    expect(lines).toEqual([
      {
        line: 1,
        blankOwner: false,
        error: null,
        tokens: [
          { text: 'a\\.b', quoted: false },
          { text: '300', quoted: false },
          { text: 'TXT', quoted: false },
          { text: 'x \\"y\\" ; z', quoted: true },
          { text: 'c\\;d', quoted: false },
        ],
      },
    ]);
  });

  it('joins lines inside parentheses and reports the first line', () => {
    const lines = tokenizeZoneFile('\n; c\n@ SOA a b (\n 1 ; serial\n 2 3 4\n 5 )\n  NS x\n');
    expect(lines.map((l) => [l.line, l.blankOwner, l.tokens.map((t) => t.text).join(' ')])).toEqual([
      [3, false, '@ SOA a b 1 2 3 4 5'],
      [7, true, 'NS x'],
    ]);
  });

  it('keeps key="value" as one token', () => {
    const [line] = tokenizeZoneFile('x SVCB 1 . alpn="h2,h3" key667="a b"\n');
    expect(line!.tokens.slice(4)).toEqual([
      { text: 'alpn="h2,h3"', quoted: false },
      { text: 'key667="a b"', quoted: false },
    ]);
  });

  it('reports unbalanced quotes and parentheses per entry and recovers', () => {
    const lines = tokenizeZoneFile('a TXT "open\nb A 1.2.3.4\nc A 1.2.3.4 )\nd SOA ( x\n  y\ne A 1.2.3.4\n');
    expect(lines.map((l) => [l.line, l.error])).toEqual([
      [1, 'unbalanced quotes: a quoted string is not closed on its line'],
      [2, null],
      [3, "unbalanced parentheses: ')' without a matching '('"],
      [4, "unbalanced parentheses: '(' on line 4 is never closed"],
      [6, null],
    ]);
  });

  it('handles CRLF and a missing final newline', () => {
    const lines = tokenizeZoneFile('a A 1.2.3.4\r\nb A 1.2.3.5');
    expect(lines.map((l) => l.tokens.map((t) => t.text))).toEqual([
      ['a', 'A', '1.2.3.4'],
      ['b', 'A', '1.2.3.5'],
    ]);
  });
});

describe('tokenizeRdataText', () => {
  it('allows parentheses over lines but only one entry', () => {
    expect(tokenizeRdataText('  ( 1\n 2 ) ').map((t) => t.text)).toEqual(['1', '2']);
    expect(tokenizeRdataText('')).toEqual([]);
    expect(() => tokenizeRdataText('1\n2')).toThrow(ZoneTokenError);
    expect(() => tokenizeRdataText('"x')).toThrow(/unbalanced quotes/);
  });
});
