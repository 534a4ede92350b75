import { describe, expect, it } from 'vitest';
import { packHeaders, unpackHeaders } from '#shared/dicom/header-bundle.ts';

describe('series header bundle', () => {
  it('gives back the headers packed, in order, an empty one included', () => {
    const headers = [new Uint8Array([1, 2, 3]), new Uint8Array(0), new Uint8Array(70_000).fill(7)];
    const bundle = packHeaders(headers);
    expect(bundle.byteLength).toBe(3 * 4 + 3 + 70_000);
    expect(unpackHeaders(bundle)).toEqual(headers);
    expect(unpackHeaders(packHeaders([]))).toEqual([]);
  });

  it('refuses a bundle cut inside a length or inside a header', () => {
    const bundle = packHeaders([new Uint8Array([1, 2, 3]), new Uint8Array([4, 5])]);
    expect(() => unpackHeaders(bundle.subarray(0, bundle.byteLength - 1))).toThrow('cut short');
    expect(() => unpackHeaders(bundle.subarray(0, 9))).toThrow('cut short');
  });
});
