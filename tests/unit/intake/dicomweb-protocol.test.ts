import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonText, toDicomJson } from '#shared/dicom/dicom-json.ts';
import { readMetaGroup } from '#shared/dicom/deidentify/tokenize.ts';
import { checkDicom } from '#shared/dicom/validate.ts';
import { matches } from '#shared/domain/intake/dicomweb-read.ts';
import { addressAllowed, part10File } from '#shared/domain/intake/listener.ts';
import { buildMultipart, MultipartError, parseMediaType, parseMultipart } from '#shared/domain/intake/multipart.ts';
import { isAeTitle, isSourceAddress } from '#shared/schemas/api/integrations.ts';
import { SHARED_DATA } from '#tests/helpers/shared-data.ts';

const CT = join(SHARED_DATA, 'dicom/ct-small/CT_small.dcm');
const bytes = (text: string) => new TextEncoder().encode(text);

describe('multipart/related (PS3.18 8.6.1.2)', () => {
  it('reads back what it writes, binary parts byte for byte, with a boundary longer than RFC 2046 allows', () => {
    // Arrange
    const boundary = 'e953c653-2f3d-4597-aeb8-fd505362a198-e953c653-2f3d-4597-aeb8-fd505362a198';
    const parts = [
      { contentType: 'application/dicom', bytes: new Uint8Array([0, 13, 10, 45, 45, 255]) },
      { contentType: 'application/dicom', bytes: bytes('second\r\n--not-the-boundary') },
    ];
    // Act
    const read = parseMultipart(buildMultipart(parts, boundary), boundary);
    // Assert
    expect(read).toEqual(parts);
  });

  it('refuses a body without its boundary or cut before the close delimiter', () => {
    expect(() => parseMultipart(bytes('no boundary here'), 'b')).toThrow(MultipartError);
    expect(() => parseMultipart(bytes('--b\r\nContent-Type: application/dicom\r\n\r\nabc'), 'b')).toThrow(
      MultipartError,
    );
  });

  it('reads media type parameters, quoted or not', () => {
    expect(parseMediaType('Multipart/Related; type="application/dicom"; boundary=abc')).toEqual({
      type: 'multipart/related',
      params: { type: 'application/dicom', boundary: 'abc' },
    });
  });
});

describe('DICOM JSON (PS3.18 F.2)', () => {
  it('gives the attributes of a file, person names as Alphabetic, numbers as numbers, and no bulk data', () => {
    // Act
    const json = toDicomJson(new Uint8Array(readFileSync(CT)));
    // Assert
    expect(json['00080060']).toEqual({ vr: 'CS', Value: ['CT'] });
    expect(json['00280010']).toEqual({ vr: 'US', Value: [128] });
    expect(json['00100010']?.vr).toBe('PN');
    expect(jsonText(json, '0020000D')).toMatch(/^[0-9.]+$/);
    expect(json['7FE00010']).toEqual({ vr: 'OW' });
  });
});

describe('QIDO-RS matching (PS3.4 C.2.2.2)', () => {
  it('matches single values, wildcards, UID lists and date ranges', () => {
    expect(matches('MR', 'MR', '00080060', 'CS')).toBe(true);
    expect(matches('MR', 'CT', '00080060', 'CS')).toBe(false);
    expect(matches('SMITH^JOHN', 'smi*', '00100010', 'PN')).toBe(true);
    expect(matches('ABC', 'A?C', '00080050', 'SH')).toBe(true);
    expect(matches('1.2.3', '1.2.4,1.2.3', '0020000D', 'UI')).toBe(true);
    expect(matches('20240105', '20240101-20240131', '00080020', 'DA')).toBe(true);
    expect(matches('20240205', '20240101-20240131', '00080020', 'DA')).toBe(false);
    expect(matches('20240205', '20240101-', '00080020', 'DA')).toBe(true);
  });
});

describe('the DICOM listener', () => {
  it('allows a node only from its addresses and CIDR blocks, IPv4-mapped included', () => {
    expect(addressAllowed('10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(addressAllowed('::ffff:127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(addressAllowed('11.1.2.3', ['10.0.0.0/8', '127.0.0.1'])).toBe(false);
    expect(addressAllowed('::1', ['127.0.0.1'])).toBe(false);
    expect(addressAllowed('192.168.1.7', ['0.0.0.0/0'])).toBe(true);
  });

  it('writes a received data set as a PS3.10 file the engine reads, with its transfer syntax', () => {
    // Arrange: the data set of a file (after its meta group), as C-STORE carries it.
    const file = new Uint8Array(readFileSync(CT));
    const check = checkDicom(file);
    if (!check.valid) throw new Error('fixture');
    const start = readMetaGroup(file, 132).next;
    // Act
    const rebuilt = part10File(
      {
        sopClassUID: check.parsed.dataSet.string('x00080016')!,
        sopInstanceUID: check.parsed.dataSet.string('x00080018')!,
        transferSyntaxUID: check.parsed.transferSyntaxUID,
        sourceAeTitle: 'STORESCU',
      },
      file.subarray(start),
    );
    // Assert
    const again = checkDicom(rebuilt);
    expect(again.valid && again.parsed.dataSet.string('x00080060')).toBe('CT');
    expect(again.valid && again.parsed.dataSet.string('x00020016')).toBe('STORESCU');
  });

  it('takes AE titles and source addresses as PS3.5 and IPv4 define them', () => {
    expect(isAeTitle('STORESCU')).toBe(true);
    expect(isAeTitle('   ')).toBe(false);
    expect(isAeTitle('A\\B')).toBe(false);
    expect(isAeTitle('X'.repeat(17))).toBe(false);
    expect(isSourceAddress('10.0.0.0/8')).toBe(true);
    expect(isSourceAddress('10.0.0.300')).toBe(false);
    expect(isSourceAddress('10.0.0.0/33')).toBe(false);
  });
});
