import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDicom } from '#shared/dicom/parse.ts';
import { deflatedCopy } from '#tests/helpers/reference-tools.ts';
import { requireSharedData } from '#tests/helpers/shared-data.ts';

/** The deflated transfer syntax, which only dcmtk writes here: apart from the parser's unit tests as it runs dcmconv. */
const DICOM = requireSharedData();

describe('parseDicom on a file dcmtk deflated', () => {
  it('reads the deflated transfer syntax', () => {
    // Prepare: the deflated syntax written by dcmtk from an explicit little endian file
    const bytes = deflatedCopy(join(DICOM, 'ct-small/CT_small.dcm'));
    // Act
    const parsed = parseDicom(bytes);
    // Assess
    expect(parsed.transferSyntaxUID).toBe('1.2.840.10008.1.2.1.99');
    expect(parsed.dataSet.string('x00080060')).toBe('CT');
    expect(parsed.dataSet.elements.x7fe00010?.length).toBe(128 * 128 * 2);
  });
});
