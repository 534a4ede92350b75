import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseDicom, DicomParseError } from '#shared/dicom/parse.ts';
import { checkDicom } from '#shared/dicom/validate.ts';
import { readSeriesFileMetadata } from '#shared/dicom/metadata.ts';
import { requireSharedData } from '#tests/helpers/shared-data.ts';

const DICOM = requireSharedData();
const read = (path: string) => new Uint8Array(readFileSync(join(DICOM, path)));

describe('parseDicom on the shared data', () => {
  it.each([
    ['transfer-syntaxes/dicom/1.dcm', '1.2.840.10008.1.2.1'],
    ['transfer-syntaxes/dicom/2.dcm', '1.2.840.10008.1.2'],
    ['transfer-syntaxes/dicom/3.dcm', '1.2.840.10008.1.2.2'],
    ['transfer-syntaxes/dicom/4.dcm', '1.2.840.10008.1.2.5'],
    ['transfer-syntaxes/dicom/5.dcm', '1.2.840.10008.1.2.4.70'],
    ['transfer-syntaxes/dicom/6.dcm', '1.2.840.10008.1.2.4.70'],
    ['transfer-syntaxes/dicom/7.dcm', '1.2.840.10008.1.2.4.80'],
    ['transfer-syntaxes/dicom/8.dcm', '1.2.840.10008.1.2.4.80'],
    ['transfer-syntaxes/dicom/9.dcm', '1.2.840.10008.1.2.4.90'],
    ['enhanced-mr-small/emri_small_big_endian.dcm', '1.2.840.10008.1.2.2'],
    ['enhanced-mr-small/emri_small_RLE.dcm', '1.2.840.10008.1.2.5'],
  ])('reads %s in transfer syntax %s with the same mosaic geometry', (path, syntax) => {
    // Act
    const parsed = parseDicom(read(path));
    // Assess
    expect(parsed.transferSyntaxUID).toBe(syntax);
    expect(parsed.dataSet.string('x00080060')).toBe('MR');
    expect(parsed.dataSet.uint16('x00280010')).toBeGreaterThan(0);
    expect(parsed.dataSet.elements.x7fe00010).toBeDefined();
  });

  it('reads gzip-compressed Siemens mosaics and their CSA header', () => {
    const parsed = parseDicom(read('siemens-dwi-mosaic/siemens_dwi_1000.dcm.gz'));
    expect(parsed.dataSet.string('x00080070')).toMatch(/SIEMENS/i);
    expect(parsed.dataSet.elements.x00291010).toBeDefined();
  });

  it('reads a raw dataset without preamble (implicit VR, as old archives write it)', () => {
    const full = read('transfer-syntaxes/dicom/2.dcm');
    const parsed = parseDicom(full);
    const start = parsed.dataSet.elements.x00080005?.dataOffset ?? parsed.dataSet.elements.x00080008!.dataOffset;
    const raw = full.subarray(start - 8);
    expect(checkDicom(raw)).toMatchObject({ valid: true });
  });

  it('keeps the elements before the damage of a truncated file (lenient parse)', () => {
    const result = checkDicom(read('enhanced-mr-small/emri_small_jpeg_2k_lossless_too_short.dcm'));
    expect(result.valid).toBe(true);
    const truncated = read('ct-small/CT_small.dcm').subarray(0, 3000);
    const cut = checkDicom(truncated);
    expect(cut).toMatchObject({ valid: true, parsed: { lenient: true } });
  });

  it('accepts trailing bytes after the dataset', () => {
    const bytes = read('ct-small/CT_small.dcm');
    const padded = new Uint8Array(bytes.length + 7);
    padded.set(bytes);
    padded.set([1, 2, 3, 4, 5, 6, 7], bytes.length);
    expect(checkDicom(padded).valid).toBe(true);
  });
});

describe('checkDicom messages (record section 8)', () => {
  it('says "Not a DICOM file" for text and random bytes', () => {
    expect(checkDicom(read('pet-slices/data_details.md'))).toEqual({ valid: false, message: 'Not a DICOM file' });
    expect(checkDicom(new Uint8Array(0))).toEqual({ valid: false, message: 'Not a DICOM file' });
    expect(checkDicom(gzipSync(Buffer.from('hello')))).toEqual({ valid: false, message: 'Not a DICOM file' });
  });

  it('says "DICOM parsing failed" for a DICM file whose content is garbage', () => {
    const bytes = new Uint8Array(400).fill(0xff);
    bytes.set([0x44, 0x49, 0x43, 0x4d], 128);
    expect(checkDicom(bytes)).toEqual({ valid: false, message: 'DICOM parsing failed' });
    expect(() => parseDicom(bytes)).toThrow(DicomParseError);
  });
});

describe('readSeriesFileMetadata (record section 3)', () => {
  it('reads the listed attributes of a real file', () => {
    const bytes = read('ge-t1-ir-spgr/dicom/00001.dcm');
    const metadata = readSeriesFileMetadata(parseDicom(bytes), '00001.dcm', bytes.length);
    expect(metadata).toMatchObject({
      modality: 'MR',
      seriesNumber: 10,
      seriesDescription: 'Accelerated SAG IR-SPGR',
      instanceNumber: 1,
      fileName: '00001.dcm',
      fileSize: bytes.length,
    });
    expect(metadata.seriesInstanceUID).toMatch(/^[\d.]+$/);
    expect(metadata.imageType.length).toBeGreaterThan(1);
  });

  it('applies the record defaults and a stable generated UID when attributes are missing', async () => {
    const { buildDicom } = await import('#tests/helpers/dicom-builder.ts');
    const bytes = buildDicom({
      omit: [
        'SeriesInstanceUID',
        'StudyInstanceUID',
        'SeriesDescription',
        'Modality',
        'SeriesNumber',
        'InstanceNumber',
        'PatientName',
        'StudyDescription',
      ],
    });
    const first = readSeriesFileMetadata(parseDicom(bytes), basename('a.dcm'), bytes.length);
    const second = readSeriesFileMetadata(parseDicom(bytes), basename('b.dcm'), bytes.length);
    expect(first).toMatchObject({
      seriesDescription: 'Unknown Series',
      modality: 'Unknown',
      seriesNumber: 1,
      instanceNumber: 1,
      patientName: 'Unknown Patient',
      studyDescription: 'Unknown Study',
    });
    expect(first.seriesInstanceUID).toMatch(/^2\.25\.\d+$/);
    expect(second.seriesInstanceUID).toBe(first.seriesInstanceUID);
  });
});
