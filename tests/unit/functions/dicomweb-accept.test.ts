import { describe, expect, it } from 'vitest';
import { framePartType, renderedType } from '#functions/dicomweb/accept.ts';

/** Which media type answers WADO-RS frames and renderings, from the Accept header (PS3.18 8.7.3.5, 8.3.5). */
const EXPLICIT_LITTLE = '1.2.840.10008.1.2.1';
const JPEG_BASELINE = '1.2.840.10008.1.2.4.50';
const JPEG_2000 = '1.2.840.10008.1.2.4.90';

describe('frames', () => {
  it('answers uncompressed frames as application/octet-stream to what dicomweb-client and OHIF send', () => {
    // Act + Assess
    expect(framePartType(undefined, EXPLICIT_LITTLE, false)).toBe('application/octet-stream');
    expect(framePartType('*/*', EXPLICIT_LITTLE, false)).toBe('application/octet-stream');
    expect(
      framePartType(
        'multipart/related; type="application/octet-stream"; transfer-syntax=1.2.840.10008.1.2.1',
        EXPLICIT_LITTLE,
        false,
      ),
    ).toBe('application/octet-stream');
    expect(framePartType('multipart/related; type="image/jpeg"', EXPLICIT_LITTLE, false)).toBeUndefined();
  });

  it('answers a compressed frame in its own media type, as octet-stream only for transfer-syntax=*, else not at all', () => {
    // Act + Assess
    expect(framePartType('multipart/related; type="image/jpeg"', JPEG_BASELINE, true)).toBe('image/jpeg');
    expect(framePartType('multipart/related; type="image/jp2"', JPEG_2000, true)).toBe('image/jp2');
    expect(framePartType(undefined, JPEG_2000, true)).toBe('image/jp2');
    expect(
      framePartType('multipart/related; type="application/octet-stream"; transfer-syntax=*', JPEG_BASELINE, true),
    ).toBe('application/octet-stream');
    // The default of dicomweb-client: octet-stream, which for a compressed frame would need decoding (406)
    expect(framePartType('multipart/related; type="application/octet-stream"', JPEG_BASELINE, true)).toBeUndefined();
    expect(framePartType('multipart/related; type="image/jp2"', JPEG_BASELINE, true)).toBeUndefined();
    expect(
      framePartType('multipart/related; type="image/jp2", multipart/related; type="image/jpeg"', JPEG_BASELINE, true),
    ).toBe('image/jpeg');
  });
});

describe('renderings', () => {
  it('takes the first of JPEG and PNG the Accept header names; any image or nothing is JPEG; another type none', () => {
    // Act + Assess
    expect(renderedType('image/png')).toBe('image/png');
    expect(renderedType('image/gif, image/png, image/jpeg')).toBe('image/png');
    expect(renderedType('multipart/related; type="image/png"')).toBe('image/png');
    expect(renderedType('image/*')).toBe('image/jpeg');
    expect(renderedType(undefined)).toBe('image/jpeg');
    expect(renderedType('image/gif')).toBeUndefined();
    expect(renderedType('application/dicom')).toBeUndefined();
  });
});
