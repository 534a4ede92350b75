import { describe, expect, it } from 'vitest';
import { FileStartReader } from '#web/features/uploads/utils/file-start-reader.ts';

const bytesOf = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (i * 31 + seed) & 0xff);

describe('FileStartReader: the first bytes of picked files, in reused buffers', () => {
  it("reads a file's first bytes, then more of them, as the file holds them", async () => {
    // Prepare
    const content = bytesOf(300_000, 1);
    const start = new FileStartReader().open(new File([content], 'a.dcm'));
    // Act
    const first = await start.read(16 * 1024);
    const firstCopy = first.slice();
    const more = await start.read(100_000);
    const whole = await start.read(content.length);
    // Assess
    expect(firstCopy).toEqual(content.subarray(0, 16 * 1024));
    expect(more).toEqual(content.subarray(0, 100_000));
    expect(whole).toEqual(content);
    start.close();
  });

  it('gives the next file the buffer of a closed one', async () => {
    // Prepare
    const reader = new FileStartReader();
    const a = reader.open(new File([bytesOf(50_000, 2)], 'a.dcm'));
    const fromA = await a.read(16 * 1024);
    a.close();
    // Act
    const b = reader.open(new File([bytesOf(50_000, 3)], 'b.dcm'));
    const fromB = await b.read(16 * 1024);
    // Assess: b's bytes in a's memory (a BYOB read took a's buffer over, which detached it).
    expect(fromB).toEqual(bytesOf(50_000, 3).subarray(0, 16 * 1024));
    expect(fromB.buffer.byteLength).toBe(16 * 1024);
    expect(fromA.buffer.byteLength).toBe(0);
    b.close();
  });

  it('reads a small file whole, and fails a read past the end of a file changed since it was picked', async () => {
    const small = bytesOf(1000, 4);
    const start = new FileStartReader().open(new File([small], 'small.dcm'));
    expect(await start.read(small.length)).toEqual(small);
    await expect(new FileStartReader().open(new File([small], 'small.dcm')).read(2000)).rejects.toThrow(
      'The file is shorter than when it was picked',
    );
  });
});
