import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packArchive } from '#tests/helpers/study-archive.ts';

/** The study archive read back by the system tar: apart from the archive's unit tests as it runs tar. */
const bytesOf = (size: number, seed: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) % 251);
const FILES = [bytesOf(1, 1), bytesOf(512, 2), bytesOf(1000, 3), bytesOf(0, 4), bytesOf(70_000, 5)];

describe('the study archive', () => {
  it('is a tar archive the system tar reads back, with members named by index only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'iws-archive-'));
    writeFileSync(join(dir, 'study.tar'), packArchive(FILES));
    expect(
      execFileSync('tar', ['-tf', join(dir, 'study.tar')], { encoding: 'utf8' })
        .trim()
        .split('\n'),
    ).toEqual(['0', '1', '2', '3', '4']);
    execFileSync('tar', ['-xf', join(dir, 'study.tar'), '-C', dir]);
    FILES.forEach((f, i) => expect(new Uint8Array(readFileSync(join(dir, String(i))))).toEqual(f));
  });
});
