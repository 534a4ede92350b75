import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquisitionFromDicom, classifySeries } from '#shared/dicom/classify/index.ts';
import { parseDicom, withoutPixelData } from '#shared/dicom/parse.ts';
import { listFiles, requireSharedData } from '#tests/helpers/shared-data.ts';

const dicom = requireSharedData();
const read = (path: string) => new Uint8Array(readFileSync(path));

describe('withoutPixelData', () => {
  it.each([
    ['explicit little endian', 'transfer-syntaxes/dicom/1.dcm'],
    ['implicit little endian', 'transfer-syntaxes/dicom/2.dcm'],
    ['explicit big endian', 'transfer-syntaxes/dicom/3.dcm'],
    ['encapsulated JPEG 2000', 'transfer-syntaxes/dicom/9.dcm'],
    ['gzip-compressed Siemens mosaic', 'siemens-dwi-mosaic/siemens_dwi_1000.dcm.gz'],
    ['enhanced multi-frame', 'enhanced-mr-small/emri_small.dcm'],
  ])('keeps every header element and drops the pixel data of a %s file', (_, file) => {
    // Prepare
    const bytes = read(join(dicom, file));
    const parsed = parseDicom(bytes);
    // Act
    const header = withoutPixelData(parsed, bytes);
    // Assess
    const reparsed = parseDicom(header);
    expect(reparsed.dataSet.elements.x7fe00010).toBeUndefined();
    expect(reparsed.lenient).toBeFalsy();
    expect(header.byteLength).toBeLessThan(parsed.bytes.byteLength);
    const headerTags = Object.keys(parsed.dataSet.elements).filter((tag) => tag !== 'x7fe00010');
    expect(Object.keys(reparsed.dataSet.elements).sort()).toEqual(headerTags.sort());
    expect(reparsed.dataSet.string('x0020000e')).toBe(parsed.dataSet.string('x0020000e'));
  });

  it('classifies a series from its headers exactly as from its whole files', () => {
    // Prepare
    const files = listFiles(join(dicom, 'philips-dti-b2000/dicom')).slice(0, 120).map(read);
    // Act
    const fromFiles = classifySeries(acquisitionFromDicom(files));
    const fromHeaders = classifySeries(
      acquisitionFromDicom(files.map((bytes) => withoutPixelData(parseDicom(bytes), bytes))),
    );
    // Assess
    expect(fromHeaders).toEqual(fromFiles);
  });
});
