import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { requireSharedData } from '#tests/helpers/shared-data.ts';
import { readCsaHeader } from '#shared/dicom/classify/csa.ts';
import {
  acquisitionFromDicom,
  acquisitionFromSidecar,
  acquisitionsFromDicomJson,
  classifySeries,
} from '#shared/dicom/classify/index.ts';
import { parseDicom } from '#shared/dicom/parse.ts';

const DATA = requireSharedData();
const read = (path: string) => new Uint8Array(readFileSync(path));
const folder = (path: string) =>
  readdirSync(path)
    .sort()
    .map((name) => read(join(path, name)));

describe('acquisitionFromDicom on the shared DICOM series', () => {
  it('reads the GE 3D IR-SPGR as T1 from its physics (TI 400 ms, TE 2.8 ms)', () => {
    // Prepare
    const files = folder(join(DATA, 'ge-t1-ir-spgr/dicom'));
    // Act
    const acq = acquisitionFromDicom(files);
    const result = classifySeries(acq, { ignoreDescriptions: true });
    // Assess
    expect(acq.inversionTimeMs).toBe(400);
    expect(acq.numberOfFiles).toBe(196);
    expect(acq.numberOfVolumes).toBe(1);
    expect(result.classifiedType).toBe('T1');
    expect(result.bids).toEqual({ datatype: 'anat', suffix: 'T1w' });
    expect(classifySeries(acq).classifiedType).toBe('T1');
  });

  it('reads the Philips DTI b=0/2000 as DTI, with the directions dcm2niix finds', () => {
    // Prepare
    const files = folder(join(DATA, 'philips-dti-b2000/dicom/601_WIP_dti_ax'));
    const ref = join(DATA, 'philips-dti-b2000/ref/WIP_dti_ax_601');
    const fromReference = acquisitionFromSidecar(
      JSON.parse(readFileSync(`${ref}.json`, 'utf8')),
      readFileSync(`${ref}.bval`, 'utf8'),
      readFileSync(`${ref}.bvec`, 'utf8'),
    );
    // Act
    const acq = acquisitionFromDicom(files);
    const result = classifySeries(acq, { ignoreDescriptions: true });
    // Assess
    expect(Math.max(...(acq.bValues ?? []))).toBe(2000);
    expect(acq.diffusionDirections).toBe(fromReference.diffusionDirections);
    expect(result.classifiedType).toBe('DTI');
    expect(classifySeries(fromReference).classifiedType).toBe('DTI');
  });

  it('reads b-value and gradient from the Siemens CSA header of gzip mosaics: one direction is DWI, not DTI', () => {
    // Prepare
    const files = ['siemens_dwi_0.dcm.gz', 'siemens_dwi_1000.dcm.gz'].map((name) =>
      read(join(DATA, 'siemens-dwi-mosaic', name)),
    );
    const parsed = parseDicom(files[1] as Uint8Array);
    const element = parsed.dataSet.elements.x00291010;
    const csa = readCsaHeader(
      parsed.bytes.subarray(element?.dataOffset ?? 0, (element?.dataOffset ?? 0) + (element?.length ?? 0)),
    );
    // Act
    const acq = acquisitionFromDicom(files);
    const physicsOnly = classifySeries(acq, { ignoreDescriptions: true });
    const withDescription = classifySeries(acq);
    // Assess
    expect(Number(csa.get('B_value')?.[0])).toBe(1000);
    expect(csa.get('DiffusionGradientDirection')).toHaveLength(3);
    expect(acq.bValues?.slice().sort((a, b) => a - b)).toEqual([0, 1000]);
    expect(acq.diffusionDirections).toBe(1);
    expect(physicsOnly.classifiedType).toBe('DWI');
    // Its description says "DTI_64D", but only one direction is present: physics wins, the conflict is in the reasons.
    expect(withDescription.classifiedType).toBe('DWI');
    expect(withDescription.reasons.some((reason) => reason.includes('DTI'))).toBe(true);
  });

  it('reads the CSA header the same from gunzipped bytes', () => {
    // Prepare
    const plain = new Uint8Array(gunzipSync(readFileSync(join(DATA, 'siemens-dwi-mosaic/siemens_dwi_1000.dcm.gz'))));
    // Act
    const acq = acquisitionFromDicom([plain]);
    // Assess
    expect(acq.bValues).toEqual([1000]);
  });

  it.each(readdirSync(join(DATA, 'transfer-syntaxes/dicom')).sort())(
    'reads the mosaic EPI in transfer syntax %s as OTHER (BOLD-type)',
    (name) => {
      // Act
      const result = classifySeries(acquisitionFromDicom([read(join(DATA, 'transfer-syntaxes/dicom', name))]), {
        ignoreDescriptions: true,
      });
      // Assess
      expect(result.classifiedType).toBe('OTHER');
      // Phase encoded anterior to posterior (CSA PhaseEncodingDirectionPositive 1): dir-AP, as dcm2niix names it.
      expect(result.bids).toEqual({ datatype: 'func', suffix: 'bold', entities: { dir: 'AP' } });
    },
  );

  it('reads an enhanced multi-frame MR (Philips T1TFE) as T1 from its sequence name', () => {
    // Act
    const acq = acquisitionFromDicom([read(join(DATA, 'enhanced-mr-small/emri_small.dcm'))]);
    const result = classifySeries(acq, { ignoreDescriptions: true });
    // Assess
    expect(acq.sequenceName).toBe('T1TFE');
    expect(acq.numberOfVolumes).toBeGreaterThanOrEqual(1);
    expect(result.classifiedType).toBe('T1');
  });

  it('reads a non-MR modality as OTHER', () => {
    // Act
    const result = classifySeries(acquisitionFromDicom([read(join(DATA, 'ct-small/CT_small.dcm'))]));
    // Assess
    expect(result.classifiedType).toBe('OTHER');
    expect(result.confidence).toBeGreaterThanOrEqual(0.95);
  });
});

describe('acquisitionsFromDicomJson (PS3.18 Annex F)', () => {
  it('groups instances by series and reads DS, IS, CS values and private diffusion tags', () => {
    // Prepare
    const instance = (uid: string, extra: Record<string, unknown>) => ({
      '0020000E': { vr: 'UI', Value: [uid] },
      '00080060': { vr: 'CS', Value: ['MR'] },
      '00080070': { vr: 'LO', Value: ['GE MEDICAL SYSTEMS'] },
      ...extra,
    });
    const t1 = {
      '00180080': { vr: 'DS', Value: [2300] },
      '00180081': { vr: 'DS', Value: ['2.98'] },
      '00180082': { vr: 'DS', Value: [900] },
      '00181314': { vr: 'DS', Value: [9] },
      '00180020': { vr: 'CS', Value: ['GR', 'IR'] },
    };
    const dwi = (b: number, x: number, y: number, z: number) => ({
      '00180080': { vr: 'DS', Value: [8000] },
      '00180081': { vr: 'DS', Value: [90] },
      '00180020': { vr: 'CS', Value: ['EP'] },
      '00431039': { vr: 'IS', Value: [b + 1_000_000_000, 8, 0, 0] },
      '001910BB': { vr: 'DS', Value: [x] },
      '001910BC': { vr: 'DS', Value: [y] },
      '001910BD': { vr: 'DS', Value: [z] },
    });
    const instances = [
      instance('1.2.3.1', t1),
      instance('1.2.3.1', t1),
      instance('1.2.3.2', dwi(0, 0, 0, 0)),
      instance('1.2.3.2', dwi(1000, 1, 0, 0)),
      instance('1.2.3.2', dwi(1000, 0, 1, 0)),
      instance('1.2.3.2', dwi(1000, 0, 0, 1)),
    ];
    // Act
    const bySeries = acquisitionsFromDicomJson(instances);
    // Assess
    expect([...bySeries.keys()]).toEqual(['1.2.3.1', '1.2.3.2']);
    expect(classifySeries(bySeries.get('1.2.3.1') ?? {}).classifiedType).toBe('T1');
    const diffusion = bySeries.get('1.2.3.2') ?? {};
    expect(diffusion.bValues).toEqual([0, 1000, 1000, 1000]);
    expect(diffusion.diffusionDirections).toBe(3);
    expect(classifySeries(diffusion).classifiedType).toBe('DWI');
  });
});
