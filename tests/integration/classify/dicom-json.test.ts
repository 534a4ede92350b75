import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquisitionFromDicom, acquisitionsFromDicomJson, classifySeries } from '#shared/dicom/classify/index.ts';
import { requireSharedData } from '#tests/helpers/shared-data.ts';

/** DICOM JSON as dcmtk's dcm2json writes it, read like the binary files: apart from the classifier's unit tests as it runs dcmtk. */
const DATA = requireSharedData();
const read = (path: string) => new Uint8Array(readFileSync(path));

describe('acquisitionsFromDicomJson against dcmtk', () => {
  it('reads dcmtk dcm2json output of the Philips DTI like the binary files', () => {
    // Prepare: dcmtk is a reference tool here and in CI; a missing one fails with its name.
    const names = readdirSync(join(DATA, 'philips-dti-b2000/dicom/601_WIP_dti_ax')).sort().slice(0, 20);
    let instances: unknown[];
    try {
      instances = names.map((name) =>
        JSON.parse(
          execFileSync('dcm2json', [join(DATA, 'philips-dti-b2000/dicom/601_WIP_dti_ax', name)], { encoding: 'utf8' }),
        ),
      );
    } catch (error) {
      throw new Error(
        `dcm2json (dcmtk) is required for this test: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    // Act
    const [acq] = [...acquisitionsFromDicomJson(instances).values()];
    const binary = acquisitionFromDicom(
      names.map((name) => read(join(DATA, 'philips-dti-b2000/dicom/601_WIP_dti_ax', name))),
    );
    // Assess
    expect(acq?.diffusionDirections).toBe(binary.diffusionDirections);
    expect(acq?.bValues).toEqual(binary.bValues);
    expect(classifySeries(acq ?? {}).classifiedType).toBe(classifySeries(binary).classifiedType);
  });
});
