import { describe, expect, it } from 'vitest';
import { wildcardMatches } from '#shared/dicom/wildcard.ts';

/** The regular-expression reading of the same pattern: right, but exponential in the number of stars. */
function byRegExp(value: string, pattern: string, ignoreCase: boolean): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, ignoreCase ? 'is' : 's').test(value);
}

/** A small seeded generator (mulberry32), so a failure names a reproducible case. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('wildcard matching (PS3.4 C.2.2.2.4)', () => {
  it('agrees with the regular-expression reading on 20,000 generated values and patterns', () => {
    // Arrange
    const next = random(42);
    const pick = (alphabet: string, max: number) =>
      Array.from({ length: Math.floor(next() * (max + 1)) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(
        '',
      );
    const disagreements: string[] = [];

    // Act
    for (let i = 0; i < 20_000; i++) {
      const value = pick('abAB.^', 8);
      const pattern = pick('abA*?.^', 6);
      const ignoreCase = next() < 0.5;
      if (wildcardMatches(value, pattern, ignoreCase) !== byRegExp(value, pattern, ignoreCase))
        disagreements.push(`${JSON.stringify(value)} ~ ${JSON.stringify(pattern)} (ignoreCase ${ignoreCase})`);
    }

    // Assert
    expect(disagreements.slice(0, 5)).toEqual([]);
  });

  it('matches descriptions as QIDO keys use them', () => {
    expect(wildcardMatches('T1 MPRAGE SAG', 'T1*')).toBe(true);
    expect(wildcardMatches('T1 MPRAGE SAG', '*mprage*')).toBe(false);
    expect(wildcardMatches('Doe^Jane', 'doe*', true)).toBe(true);
    expect(wildcardMatches('T2', 'T?')).toBe(true);
    expect(wildcardMatches('T2', 'T??')).toBe(false);
    expect(wildcardMatches('', '*')).toBe(true);
    expect(wildcardMatches('', '?')).toBe(false);
  });

  it('answers a many-star pattern that cannot match a long value (which a regular expression takes seconds over)', () => {
    // Arrange: a 119-character description and a key of eight stars whose last letter never comes.
    const value = 'a'.repeat(119);
    const key = `${'*a'.repeat(8)}*b`;

    // Act
    const matched = wildcardMatches(value, key);

    // Assert
    expect(matched).toBe(false);
  });
});
