import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireSharedData } from '#tests/helpers/shared-data.ts';

const ROOT = process.cwd();
const DATA = requireSharedData();
const work = mkdtempSync(join(tmpdir(), 'iws-classify-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Row = {
  SeriesInstanceUID?: string;
  path?: string;
  classifiedType: string;
  confidence: number;
  review: boolean;
  reviewReason: string;
  bids: { datatype: string; suffix: string };
  reasons: string[];
};

function iws(...args: string[]): { status: number | null; rows: Row[]; stderr: string } {
  const result = spawnSync(process.execPath, [join(ROOT, 'cli/iws.mjs'), 'classify', ...args], {
    encoding: 'utf8',
    env: { ...process.env, NODE_NO_WARNINGS: '1' },
  });
  const rows = result.status === 0 ? (JSON.parse(result.stdout) as Row[]) : [];
  return { status: result.status, rows, stderr: result.stderr };
}

describe('iws classify', () => {
  it('classifies a DICOM folder, one object per series', () => {
    // Act
    const { status, rows } = iws(join(DATA, 'ge-t1-ir-spgr/dicom'));
    // Assess
    expect(status).toBe(0);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ classifiedType: 'T1', bids: { datatype: 'anat', suffix: 'T1w' } });
    expect(rows[0]?.SeriesInstanceUID).toMatch(/^[0-9.]+$/);
    expect(rows[0]?.confidence).toBeGreaterThan(0.9);
  });

  it('classifies a single gzip DICOM file with --ignore-descriptions', () => {
    // Act
    const { status, rows } = iws(join(DATA, 'siemens-dwi-mosaic/siemens_dwi_1000.dcm.gz'), '--ignore-descriptions');
    // Assess
    expect(status).toBe(0);
    expect(rows[0]?.classifiedType).toBe('DWI');
    expect(rows[0]?.reasons).toContain('descriptions ignored (acquisition parameters only)');
  });

  it('classifies a DICOM JSON file (array of instances), one object per series', () => {
    // Prepare
    const instance = (uid: string, tr: number, te: number, ti?: number) => ({
      '0020000E': { vr: 'UI', Value: [uid] },
      '00080060': { vr: 'CS', Value: ['MR'] },
      '00180080': { vr: 'DS', Value: [tr] },
      '00180081': { vr: 'DS', Value: [te] },
      '00181314': { vr: 'DS', Value: [150] },
      '00180020': { vr: 'CS', Value: ti ? ['SE', 'IR'] : ['SE'] },
      ...(ti ? { '00180082': { vr: 'DS', Value: [ti] } } : {}),
      '0008103E': { vr: 'LO', Value: ['axial'] },
    });
    const file = join(work, 'study.json');
    writeFileSync(
      file,
      JSON.stringify([
        instance('1.2.1', 9000, 120, 2500),
        instance('1.2.1', 9000, 120, 2500),
        instance('1.2.2', 4000, 100),
      ]),
    );
    // Act
    const { status, rows } = iws(file);
    // Assess
    expect(status).toBe(0);
    expect(rows.map((row) => [row.SeriesInstanceUID, row.classifiedType])).toEqual([
      ['1.2.1', 'FLAIR'],
      ['1.2.2', 'T2'],
    ]);
  });

  it('classifies a dcm2niix sidecar with its .bval/.bvec beside it', () => {
    // Act
    const { status, rows } = iws(join(DATA, 'philips-dti-b2000/ref/WIP_dti_ax_601.json'));
    // Assess
    expect(status).toBe(0);
    expect(rows[0]).toMatchObject({ classifiedType: 'DTI', bids: { datatype: 'dwi', suffix: 'dwi' } });
    expect(rows[0]?.path).toContain('WIP_dti_ax_601.json');
    expect(rows[0]?.reasons[0]).toContain('15 distinct directions');
  });

  it('classifies a folder of sidecars, one object per sidecar', () => {
    // Prepare
    const folder = join(work, 'sidecars');
    mkdirSync(folder, { recursive: true });
    copyFileSync(join(DATA, 'ge-t1-ir-spgr/ref/Accelerated_SAG_IR-SPGR_10.json'), join(folder, 'anat.json'));
    for (const ext of ['.json', '.bval', '.bvec'])
      copyFileSync(join(DATA, `philips-dti-b2000/ref/WIP_dti_ax_601${ext}`), join(folder, `dwi${ext}`));
    // Act
    const { status, rows } = iws(folder);
    // Assess
    expect(status).toBe(0);
    expect(rows.map((row) => [row.path?.split('/').pop(), row.classifiedType])).toEqual([
      ['anat.json', 'T1'],
      ['dwi.json', 'DTI'],
    ]);
  });

  it('prints the review flag and its reason for each series, reading the series of a study together', () => {
    // Prepare: one study (sub-01) holding the same T1 sidecar twice, as a pre / post pair that states no contrast; a
    // diffusion series alone in another study (sub-02).
    const folder = join(work, 'review');
    mkdirSync(join(folder, 'sub-01/anat'), { recursive: true });
    mkdirSync(join(folder, 'sub-02/dwi'), { recursive: true });
    const t1 = join(DATA, 'ge-t1-ir-spgr/ref/Accelerated_SAG_IR-SPGR_10.json');
    copyFileSync(t1, join(folder, 'sub-01/anat/sub-01_run-1_T1w.json'));
    copyFileSync(t1, join(folder, 'sub-01/anat/sub-01_run-2_T1w.json'));
    for (const ext of ['.json', '.bval', '.bvec'])
      copyFileSync(
        join(DATA, `philips-dti-b2000/ref/WIP_dti_ax_601${ext}`),
        join(folder, `sub-02/dwi/sub-02_dwi${ext}`),
      );
    // Act
    const { status, rows } = iws(folder);
    // Assess
    expect(status).toBe(0);
    const byName = new Map(rows.map((row) => [row.path?.split('/').pop(), row]));
    for (const name of ['sub-01_run-1_T1w.json', 'sub-01_run-2_T1w.json']) {
      expect(byName.get(name)).toMatchObject({ classifiedType: 'T1', review: true });
      expect(byName.get(name)?.reviewReason).toMatch(/^Study review: .*post-contrast/);
    }
    const dwi = byName.get('sub-02_dwi.json');
    expect(dwi).toMatchObject({ classifiedType: 'DTI', review: false });
    expect(dwi?.reviewReason).toMatch(/^confidence [0-9.]+ is at or above the review threshold 0\.\d+$/);
  });

  it("asks about a study's only T1 when its description alone states contrast, and not when the agent is recorded", () => {
    // Prepare: the shared IR-SPGR sidecar alone in its study, described as post-contrast ("…_Gd"), without and with
    // ContrastBolusIngredient.
    const folder = join(work, 'lone-contrast');
    mkdirSync(join(folder, 'sub-01/anat'), { recursive: true });
    mkdirSync(join(folder, 'sub-02/anat'), { recursive: true });
    const sidecar = JSON.parse(
      readFileSync(join(DATA, 'ge-t1-ir-spgr/ref/Accelerated_SAG_IR-SPGR_10.json'), 'utf8'),
    ) as Record<string, unknown>;
    const described = { ...sidecar, SeriesDescription: 'Accelerated_SAG_IR-SPGR_Gd' };
    writeFileSync(join(folder, 'sub-01/anat/sub-01_T1w.json'), JSON.stringify(described));
    writeFileSync(
      join(folder, 'sub-02/anat/sub-02_T1w.json'),
      JSON.stringify({ ...described, ContrastBolusIngredient: 'GADOLINIUM' }),
    );
    // Act
    const { status, rows } = iws(folder);
    // Assess
    expect(status).toBe(0);
    const [statedOnly, recorded] = rows;
    expect(statedOnly).toMatchObject({ classifiedType: 'T1_CONTRAST', review: true });
    expect(statedOnly?.reviewReason).toMatch(/^Study review: this is the only T1-weighted series of the study/);
    expect(recorded).toMatchObject({ classifiedType: 'T1_CONTRAST' });
    expect(recorded?.reviewReason).not.toMatch(/^Study review/);
  });

  it('prints the header review: a series whose flip angle of 1° excites almost no signal is flagged with its question', () => {
    // Prepare: the shared IR-SPGR sidecar, alone in its study, as acquired and with a flip of 1° instead of 11°
    const folder = join(work, 'header-review');
    mkdirSync(join(folder, 'sub-01/anat'), { recursive: true });
    mkdirSync(join(folder, 'sub-02/anat'), { recursive: true });
    const sidecar = JSON.parse(
      readFileSync(join(DATA, 'ge-t1-ir-spgr/ref/Accelerated_SAG_IR-SPGR_10.json'), 'utf8'),
    ) as Record<string, unknown>;
    writeFileSync(join(folder, 'sub-01/anat/sub-01_T1w.json'), JSON.stringify(sidecar));
    writeFileSync(join(folder, 'sub-02/anat/sub-02_T1w.json'), JSON.stringify({ ...sidecar, FlipAngle: 1 }));
    // Act
    const { status, rows } = iws(folder);
    // Assess
    expect(status).toBe(0);
    const [acquired, noise] = rows;
    expect(acquired).toMatchObject({ classifiedType: 'T1', review: false });
    expect(noise).toMatchObject({ classifiedType: 'T1', review: true });
    expect(noise?.reviewReason).toMatch(/^Header review: a flip angle of 1° excites almost no signal/);
    expect(noise?.reasons.at(-1)).toMatch(/^Header review: /);
  });

  it('reads the series of a DICOM JSON file as one study for the review flag', () => {
    // Prepare: two spin-echo T1 series (TR 500 / 550 ms, TE 15 / 12 ms), neither stating a contrast agent.
    const instance = (uid: string, tr: number, te: number) => ({
      '0020000E': { vr: 'UI', Value: [uid] },
      '00080060': { vr: 'CS', Value: ['MR'] },
      '00180080': { vr: 'DS', Value: [tr] },
      '00180081': { vr: 'DS', Value: [te] },
      '00181314': { vr: 'DS', Value: [90] },
      '00180020': { vr: 'CS', Value: ['SE'] },
      '00180023': { vr: 'CS', Value: ['2D'] },
    });
    const file = join(work, 'pair.json');
    writeFileSync(file, JSON.stringify([instance('1.3.1', 500, 15), instance('1.3.2', 550, 12)]));
    // Act
    const { status, rows } = iws(file);
    // Assess
    expect(status).toBe(0);
    expect(rows.map((row) => [row.classifiedType, row.review])).toEqual([
      ['T1', true],
      ['T1', true],
    ]);
    for (const row of rows) {
      expect(row.reviewReason).toMatch(/^Study review: .*post-contrast/);
      expect(row.reasons.at(-1)).toMatch(/^Study review:/);
    }
  });

  it('exits 2 with the usage for a missing input', () => {
    // Act
    const { status, stderr } = iws(join(work, 'missing'));
    // Assess
    expect(status).toBe(2);
    expect(stderr).toContain('no such file or folder');
  });
});
