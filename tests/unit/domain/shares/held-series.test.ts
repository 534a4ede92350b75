import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { caller } from '#tests/unit/domain/fakes.ts';
import { CLIENT, shareWorld } from './fixtures.ts';
import { getDataset } from '#shared/domain/datasets/get-dataset.ts';
import { listAssets } from '#shared/domain/datasets/list-assets.ts';
import { createPatientShare } from '#shared/domain/shares/patient-shares.ts';
import {
  patientDownload,
  patientStudy,
  requestShareCode,
  verifyShareCode,
} from '#shared/domain/shares/patient-access.ts';
import { createTeamShares } from '#shared/domain/shares/team-shares.ts';
import { DEFAULT_HOSPITAL_POLICY } from '#shared/schemas/api/policies.ts';
import type { SeriesRecord } from '#shared/domain/datasets/ports.ts';

/**
 * Held means held everywhere (docs/pipeline.md#burned-in-text): the assets of a series held for burned-in text are not
 * handed out, to the dataset's own team, a team share or a patient share, until the series is released. The pipeline
 * makes none for a held series; here one is planted (as if written before the hold) to show the way out is closed too.
 */
function heldWorld() {
  const w = shareWorld();
  const series: SeriesRecord = {
    id: 's2',
    datasetId: 'ds1',
    hospitalId: 'h1',
    seriesInstanceUID: '2.25.2',
    description: 'Screen capture',
    seriesNumber: 2,
    modality: 'OT',
    sliceCount: 1,
    sizeBytes: 1,
    selected: true,
    classification: null,
    burnedInText: { reasons: ['SECONDARY_CAPTURE'] },
    createdAt: w.dataset.createdAt,
  };
  void w.deps.datasets.putSeries(series);
  w.deps.datasets.assets.set('h1/ds1/a3', {
    id: 'a3',
    datasetId: 'ds1',
    hospitalId: 'h1',
    seriesId: 's2',
    type: 'VOLUME',
    label: 'Screen capture',
    byteSize: 10,
    mimeType: 'application/gzip',
    metadata: {},
    createdAt: w.dataset.createdAt,
    bucket: 'assets',
    objectKey: 'h1/ds1/assets/capture.nii.gz',
  });
  const release = () =>
    w.deps.datasets.updateSeries('h1', 'ds1', 's2', {
      burnedInText: { reasons: ['SECONDARY_CAPTURE'], releasedAt: w.state.now, releasedByUserId: 'lead' },
    });
  return { ...w, release };
}

async function patientSession(w: ReturnType<typeof heldWorld>) {
  await w.deps.settings.putHospitalPolicy('h1', {
    value: {
      // The world's policy (external sharing on, no approval), with downloads allowed.
      ...(await w.deps.settings.getHospitalPolicy('h1'))!.value,
      patientShare: {
        ...DEFAULT_HOSPITAL_POLICY.patientShare,
        downloadsEnabled: true,
        allowedScopes: ['viewer_only', 'screenshots', 'downloads'],
      },
    },
    updatedAt: w.state.now,
    updatedByUserId: 'admin',
  });
  const created = await createPatientShare(
    'ds1',
    {
      recipientEmail: 'patient@example.org',
      expiresInHours: 168,
      maxOpens: 3,
      watermark: true,
      allowDownloads: true,
      scopes: ['viewer_only', 'downloads'],
    },
    w.member,
    w.deps,
  );
  const token = created.link.split('/p/')[1]!;
  await requestShareCode(token, CLIENT, w.deps);
  return (await verifyShareCode(token, w.lastCode(), CLIENT, w.deps)).session;
}

describe('assets of a series held for burned-in text', () => {
  it('get no URL and are not listed for the team, nor in the dataset view, until released', async () => {
    // Prepare
    const w = heldWorld();
    // Act
    const listed = await listAssets('ds1', w.member, w.deps);
    const viewed = await getDataset('ds1', w.member, {
      ...w.deps,
      // The view names the hospital; this world's directory holds none.
      directory: { ...w.deps.directory, getHospital: async () => undefined } as never,
    });
    // Assess
    expect(listed.items.map((a) => a.id).sort()).toEqual(['a1', 'a2']);
    expect(viewed.processedAssets.map((a) => a.id).sort()).toEqual(['a1', 'a2']);
    await w.release();
    expect((await listAssets('ds1', w.member, w.deps)).items.map((a) => a.id).sort()).toEqual(['a1', 'a2', 'a3']);
  });

  it('are not opened through a team share', async () => {
    const w = heldWorld();
    await createTeamShares('ds1', { teamId: 't2', permissions: ['view', 'download'] }, w.member, w.deps);
    const reader = caller('TEAM_LEAD', { userId: 'lead-t2', teamId: 't2' });
    const { items } = await listAssets('ds1', reader, w.deps);
    expect(items.map((a) => a.id).sort()).toEqual(['a1', 'a2']);
  });

  it('are neither shown nor downloadable through a patient share, until released', async () => {
    // Prepare
    const w = heldWorld();
    await w.deps.objects.put('assets', 'h1/ds1/assets/capture.nii.gz', gzipSync(Buffer.alloc(360)));
    const session = await patientSession(w);
    // Act
    const study = await patientStudy(session, CLIENT, w.deps);
    // Assess
    expect(study.assets.map((a) => a.id).sort()).toEqual(['a1', 'a2']);
    await expect(patientDownload(session, 'a3', CLIENT, w.deps)).rejects.toMatchObject({ code: 'ASSET_NOT_FOUND' });
    await w.release();
    expect((await patientStudy(session, CLIENT, w.deps)).assets.map((a) => a.id).sort()).toEqual(['a1', 'a2', 'a3']);
  });
});
