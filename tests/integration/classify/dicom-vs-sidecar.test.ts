import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { requireSharedData } from '#tests/helpers/shared-data.ts';
import { acquisitionFromDicom, acquisitionFromSidecar, classifySeries } from '#shared/dicom/classify/index.ts';
import { runDcm2niix } from '#shared/dicom/convert-dcm2niix.ts';

/**
 * The same series classified from its DICOM files and from the sidecar dcm2niix writes for it must get
 * the same type and BIDS suffix: the two input paths read the same acquisition.
 */
const DATA = requireSharedData();

const SERIES: { name: string; files: () => string[]; gzip?: boolean }[] = [
  { name: 'ge-t1-ir-spgr', files: () => listed('ge-t1-ir-spgr/dicom') },
  { name: 'philips-dti-b2000', files: () => listed('philips-dti-b2000/dicom/601_WIP_dti_ax') },
  { name: 'siemens-dwi-mosaic', files: () => listed('siemens-dwi-mosaic'), gzip: true },
  { name: 'transfer-syntaxes', files: () => [join(DATA, 'transfer-syntaxes/dicom/1.dcm')] },
  { name: 'enhanced-mr-small', files: () => [join(DATA, 'enhanced-mr-small/emri_small.dcm')] },
];

function listed(folder: string): string[] {
  return readdirSync(join(DATA, folder))
    .sort()
    .map((file) => join(DATA, folder, file));
}

/**
 * The sidecar (with .bval/.bvec) that dcm2niix writes for the series: its WebAssembly build, v1.0.20241231, the
 * converter the pipeline itself runs (the Debian binary, v1.0.20220720, writes no .bval for the two-volume Siemens
 * mosaic).
 */
async function sidecarOf(bytes: Uint8Array[]): Promise<{ json: string; bval?: string; bvec?: string }> {
  const run = await runDcm2niix(
    bytes.map((data, index) => ({ name: `${index}.dcm`, bytes: data })),
    ['-b', 'y', '-ba', 'n', '-z', 'n', '-f', 'series'],
  );
  const text = (suffix: string) => {
    const name = [...run.outputs.keys()].find((entry) => entry.endsWith(suffix));
    const data = name ? run.outputs.get(name) : undefined;
    return data ? new TextDecoder().decode(data) : undefined;
  };
  const json = text('.json');
  if (!json) throw new Error('dcm2niix wrote no sidecar');
  return { json, bval: text('.bval'), bvec: text('.bvec') };
}

describe('DICOM path and sidecar path agree on the shared DICOM series', () => {
  it.each(SERIES)('$name', async ({ files, gzip }) => {
    // Prepare
    const paths = files();
    const bytes = paths.map((file) => {
      const raw = new Uint8Array(readFileSync(file));
      return gzip ? new Uint8Array(gunzipSync(raw)) : raw;
    });
    const sidecar = await sidecarOf(bytes);
    // Act
    const fromDicom = classifySeries(acquisitionFromDicom(bytes));
    const fromSidecar = classifySeries(
      acquisitionFromSidecar(JSON.parse(sidecar.json) as Record<string, unknown>, sidecar.bval, sidecar.bvec),
    );
    // Assess
    expect(fromSidecar.classifiedType).toBe(fromDicom.classifiedType);
    expect(fromSidecar.bids).toEqual(fromDicom.bids);
  });

  it.each(SERIES.filter(({ name }) => name === 'siemens-dwi-mosaic' || name === 'transfer-syntaxes'))(
    '$name: the phase-encoding direction names dir-AP on both paths, as dcm2niix BidsGuess does',
    async ({ files, gzip }) => {
      // Prepare
      const bytes = files().map((file) => {
        const raw = new Uint8Array(readFileSync(file));
        return gzip ? new Uint8Array(gunzipSync(raw)) : raw;
      });
      const sidecar = await sidecarOf(bytes);
      const parsed = JSON.parse(sidecar.json) as Record<string, unknown>;
      // Act
      const fromDicom = acquisitionFromDicom(bytes);
      const fromSidecar = acquisitionFromSidecar(parsed, sidecar.bval, sidecar.bvec);
      // Assess
      expect(fromDicom.phaseEncodingDirection).toBe(parsed.PhaseEncodingDirection);
      expect(fromSidecar.phaseEncodingDirection).toBe('j-');
      expect(classifySeries(fromDicom).bids.entities?.dir).toBe('AP');
      expect(String(parsed.BidsGuess)).toContain('dir-AP');
    },
  );
});
