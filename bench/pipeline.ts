/**
 * Pipeline benchmark: `iws process` stage times (the state machine's stages, run in process) on the shared T1 and DTI studies,
 * then our tensor fit next to dipy's TensorModel (WLS, Debian python3-dipy) on the same NIfTI, gradients and mask.
 * Run: npx tsx bench/pipeline.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readInputFiles } from '#cli/commands/convert.ts';
import { processFiles } from '#cli/commands/process.ts';
import { PIPELINE_TASKS } from '#shared/definitions/state-machine.ts';
import { readVolume, writeVolume } from '#shared/processing/nifti-io.ts';
import { fitTensor, parseGradientTable } from '#shared/processing/tensor.ts';
import { gradientsInVoxelFrame, meanB0 } from '#shared/processing/tracts.ts';
import { computeMask } from '#shared/processing/volume-ops.ts';
import { benchProcessOptions, SHARED_DATA } from './lib/data.ts';

const DATA = join(SHARED_DATA, 'dicom');
const STUDIES = [
  { name: 'GE T1 IR-SPGR (196 x 256 x 256)', dir: join(DATA, 'ge-t1-ir-spgr/dicom') },
  { name: 'Philips DTI b=0/2000 (80 x 80 x 40 x 16)', dir: join(DATA, 'philips-dti-b2000/dicom') },
];
const PYTHON = '/usr/bin/python3';

const DIPY_FIT = String.raw`
import json, sys, time
import numpy as np, nibabel as nb
from dipy.core.gradients import gradient_table
from dipy.io.gradients import read_bvals_bvecs
from dipy.reconst.dti import TensorModel
nii, bval, bvec, mask_path, fa_path = sys.argv[1:6]
data = nb.load(nii).get_fdata(dtype=np.float32)
bvals, bvecs = read_bvals_bvecs(bval, bvec)
mask = nb.load(mask_path).get_fdata() > 0.5
model = TensorModel(gradient_table(bvals, bvecs))
runs = []
for _ in range(3):
    started = time.perf_counter(); fit = model.fit(data, mask=mask); fa = np.nan_to_num(fit.fa); runs.append(time.perf_counter() - started)
ours = nb.load(fa_path).get_fdata()
print(json.dumps({'seconds': min(runs), 'faCorrelation': float(np.corrcoef(fa[mask], ours[mask])[0, 1])}))
`;

function seconds(ms: number): string {
  return (ms / 1000).toFixed(2).padStart(7);
}

type DiffusionOutput = { nifti: Uint8Array; bval: string; bvec: string };

async function benchStudy(study: (typeof STUDIES)[number]): Promise<DiffusionOutput | undefined> {
  const files = readInputFiles(study.dir);
  const out = mkdtempSync(join(tmpdir(), 'iws-bench-process-'));
  const timings = new Map<string, number>();
  try {
    const started = performance.now();
    const result = await processFiles(files, out, benchProcessOptions(), (state, ms) => timings.set(state, ms));
    const total = performance.now() - started;
    console.log(
      `\n${study.name}: ${files.length} files, ${result.series.length} series (${result.series.map((s) => `${s.seriesNumber} ${s.classification?.classifiedType ?? '-'}`).join(', ')})`,
    );
    for (const task of PIPELINE_TASKS)
      console.log(`  ${task.state.padEnd(16)} ${seconds(timings.get(task.state) ?? 0)} s`);
    console.log(`  ${'total'.padEnd(16)} ${seconds(total)} s`);
    for (const asset of result.assets.filter((a) => a.type !== 'VOLUME'))
      console.log(`  ${asset.type.padEnd(9)} ${asset.objectKey} ${(asset.byteSize / 1024).toFixed(0)} KiB`);
    if (!result.outcome.ok) console.log(`  failed in ${result.outcome.state}: ${result.outcome.reason}`);
    const diffusion = result.assets.find((a) => a.type === 'VOLUME' && a.metadata.bvalKey && a.metadata.bvecKey);
    if (!diffusion) return undefined;
    const read = (key: unknown) => readFileSync(result.pathOf('assets', String(key)));
    return {
      nifti: new Uint8Array(read(diffusion.objectKey)),
      bval: read(diffusion.metadata.bvalKey).toString('utf8'),
      bvec: read(diffusion.metadata.bvecKey).toString('utf8'),
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function benchTensor(output: DiffusionOutput | undefined): void {
  if (!output) throw new Error('The DTI study gave no diffusion output');
  const dir = mkdtempSync(join(tmpdir(), 'iws-bench-'));
  try {
    const volume = readVolume(output.nifti);
    const [nx, ny, nz] = volume.dims;
    const voxels = nx * ny * nz;
    const table = parseGradientTable(output.bval, output.bvec);
    const { mask, voxels: maskVoxels } = computeMask(meanB0(volume.data, voxels, table.bValues), [nx, ny, nz]);
    const frame = gradientsInVoxelFrame(table, volume.affine);
    let best = Infinity;
    let fa: Float32Array = new Float32Array(0);
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      fa = fitTensor(volume.data, voxels, frame, mask).fa;
      best = Math.min(best, performance.now() - started);
    }
    const geometry = {
      dims: [nx, ny, nz] as [number, number, number],
      voxelSize: volume.voxelSize,
      affine: volume.affine,
    };
    const paths = {
      nii: join(dir, 'dwi.nii.gz'),
      bval: join(dir, 'dwi.bval'),
      bvec: join(dir, 'dwi.bvec'),
      mask: join(dir, 'mask.nii.gz'),
      fa: join(dir, 'fa.nii.gz'),
    };
    writeFileSync(paths.nii, output.nifti);
    writeFileSync(paths.bval, output.bval);
    writeFileSync(paths.bvec, output.bvec);
    writeFileSync(paths.mask, writeVolume({ ...geometry, datatype: 'float32', data: Float32Array.from(mask) }));
    writeFileSync(paths.fa, writeVolume({ ...geometry, datatype: 'float32', data: fa }));
    const dipy = JSON.parse(
      execFileSync(PYTHON, ['-c', DIPY_FIT, paths.nii, paths.bval, paths.bvec, paths.mask, paths.fa], {
        encoding: 'utf8',
      }),
    ) as { seconds: number; faCorrelation: number };
    console.log(`\nTensor fit (WLS), ${maskVoxels} brain voxels x ${table.bValues.length} volumes, best of 3:`);
    console.log(
      `  ours (TypeScript)      ${seconds(best)} s  (${Math.round(maskVoxels / (best / 1000)).toLocaleString('en')} voxels/s)`,
    );
    console.log(
      `  dipy TensorModel WLS   ${seconds(dipy.seconds * 1000)} s  (${Math.round(maskVoxels / dipy.seconds).toLocaleString('en')} voxels/s)`,
    );
    console.log(`  FA correlation with dipy inside the mask: ${dipy.faCorrelation.toFixed(6)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`Pipeline bench (node ${process.version}, ${new Date().toISOString()})`);
await benchStudy(STUDIES[0]!);
benchTensor(await benchStudy(STUDIES[1]!));
