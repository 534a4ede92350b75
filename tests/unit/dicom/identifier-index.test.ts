import { describe, expect, it } from 'vitest';
import { IdentifierIndex } from '#shared/dicom/deidentify/text.ts';

describe('IdentifierIndex', () => {
  it('removes every identifier, overlapping and nested ones included, ASCII case-insensitively', () => {
    const index = new IdentifierIndex(['DOE^JOHN', 'JOHN', 'OHNS', 'SMITH']);
    expect(index.remove('Seen by Smith for doe^john')).toBe('Seen by  for ');
    expect(index.remove('JOHNSON')).toBe('ON');
    expect(index.remove('nothing here')).toBe('nothing here');
    expect(index.contains('x smith x')).toBe(true);
    expect(index.contains('smit')).toBe(false);
    expect(index.mask('SV10 smith\0 MRC')).toBe('SV10 XXXXX\0 MRC');
  });

  it('agrees with a naive search on random text', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const letters = 'ABCab ';
    const word = (length: number) =>
      Array.from({ length }, () => letters[Math.floor(next() * letters.length)]).join('');
    const identifiers = Array.from({ length: 40 }, () => word(2 + Math.floor(next() * 4)));
    const index = new IdentifierIndex(identifiers);
    for (let round = 0; round < 200; round++) {
      const text = word(30);
      const covered = new Array<boolean>(text.length).fill(false);
      for (const identifier of identifiers) {
        const upper = text.toUpperCase();
        for (
          let at = upper.indexOf(identifier.toUpperCase());
          at >= 0;
          at = upper.indexOf(identifier.toUpperCase(), at + 1)
        )
          for (let i = at; i < at + identifier.length; i++) covered[i] = true;
      }
      const expected = [...text].filter((_, i) => !covered[i]).join('');
      expect(index.remove(text), text).toBe(expected);
    }
  });

  it('an empty index leaves text alone', () => {
    const index = new IdentifierIndex([]);
    expect(index.empty).toBe(true);
    expect(index.remove('anything')).toBe('anything');
  });
});
