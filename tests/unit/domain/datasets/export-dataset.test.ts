import { describe, expect, it } from 'vitest';
import { unzipFiles } from '#shared/dicom/bids/zip.ts';
import {
  datasetExportJob,
  EXPORT_MANIFEST,
  getDatasetExport,
  HELD_REASON,
  startDatasetExport,
} from '#shared/domain/datasets/export-dataset.ts';
import type { MailMessage } from '#shared/domain/invitations/ports.ts';
import type { JobKinds } from '#shared/domain/jobs/runner.ts';
import { runJob } from '#shared/domain/jobs/runner.ts';
import { assetKeys, EXPORT_RETENTION_DAYS, studyKeys } from '#shared/domain/object-keys.ts';
import { datasetRecord } from '#tests/helpers/datasets.ts';
import { caller, ports } from '#tests/unit/domain/fakes.ts';

/**
 * The DATASET_EXPORT job (docs/exports.md) over the in-memory ports: it resumes from its cursor after a cut-off,
 * rebuilds the same ZIP under the same key, leaves a held series and a missing object out, and stops issuing links once
 * the ZIP is no longer kept.
 */
const HOSPITAL = 'h1';
const DATASET = 'ds1';
const SERIES = 30;
const uid = (n: number) => `2.25.${n}`;

async function world() {
  const deps = { ...ports(), mailbox: [] as MailMessage[], siteOrigin: 'https://site.test' };
  const mailer = { send: async (m: MailMessage) => void deps.mailbox.push(m) };
  const lead = caller('TEAM_LEAD');
  await deps.datasets.create(
    datasetRecord({ id: DATASET, hospitalId: HOSPITAL, teamId: 't1', ownerUserId: lead.userId }),
  );
  // Thirty series with a thumbnail each (two chunks of entries), and a held one whose thumbnail must never leave.
  for (let n = 1; n <= SERIES + 1; n++) {
    const held = n === SERIES + 1;
    await deps.datasets.putSeries({
      id: uid(n),
      datasetId: DATASET,
      hospitalId: HOSPITAL,
      seriesInstanceUID: uid(n),
      description: `Series ${n}`,
      seriesNumber: n,
      modality: 'MR',
      sliceCount: 1,
      sizeBytes: 1,
      selected: true,
      classification: null,
      ...(held ? { burnedInText: { reasons: ['BURNED_IN_ANNOTATION' as const] } } : {}),
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const objectKey = assetKeys.thumbnail(HOSPITAL, DATASET, uid(n));
    await deps.datasets.putAssets([
      {
        id: `${uid(n).replace(/\./g, '-')}-thumbnail`,
        datasetId: DATASET,
        hospitalId: HOSPITAL,
        seriesId: uid(n),
        type: 'THUMBNAIL',
        label: `Series ${n} thumbnail`,
        byteSize: 1,
        mimeType: 'image/png',
        metadata: {},
        createdAt: '2026-01-01T00:00:00.000Z',
        bucket: 'assets',
        objectKey,
      },
    ]);
    // Series 7's object is missing: its entry is skipped, the rest go on.
    if (n !== 7) await deps.objects.put('assets', objectKey, new Uint8Array([n]), 'image/png');
  }
  return { deps: { ...deps, mailer }, lead };
}

const KINDS = { DATASET_EXPORT: datasetExportJob } as unknown as JobKinds<Awaited<ReturnType<typeof world>>['deps']>;

describe('starting an export', () => {
  it('records a refused export on the trail (DENIED), with the format, and starts no job', async () => {
    // Arrange
    const { deps } = await world();
    const member = caller('TEAM_MEMBER');
    const elsewhere = caller('TEAM_LEAD', { hospitalId: 'h2' });

    // Act
    const refused = await startDatasetExport(DATASET, { format: 'bids' }, member, deps).catch((e: unknown) => e);
    const unseen = await startDatasetExport(DATASET, { format: 'dicom' }, elsewhere, deps).catch((e: unknown) => e);

    // Assert
    expect(refused).toMatchObject({ code: 'ACCESS_DENIED' });
    expect(unseen).toMatchObject({ code: 'DATASET_NOT_FOUND' });
    const denied = deps.audit.events.filter((e) => e.action === 'DATASET_EXPORTED');
    expect(denied.map((e) => [e.hospitalId, e.actorUserId, e.outcome, e.details])).toEqual([
      [HOSPITAL, member.userId, 'DENIED', { format: 'bids', role: 'TEAM_MEMBER' }],
      ['h2', elsewhere.userId, 'DENIED', { format: 'dicom', role: 'TEAM_LEAD' }],
    ]);
    expect(deps.jobStarter.started).toEqual([]);
  });
});

describe('the DATASET_EXPORT job', () => {
  it('resumes from its cursor after a cut-off and builds one ZIP without the held series or the missing file', async () => {
    // Arrange
    const { deps, lead } = await world();
    const { jobId } = await startDatasetExport(DATASET, { format: 'assets' }, lead, deps);
    const ref = { ownerHospitalId: HOSPITAL, jobId };
    let chunks = 0;

    // Act: the first run stops after one chunk (the worker's time is up), the next goes on from the cursor
    const first = await runJob(ref, KINDS, deps, () => chunks++ < 1);
    const afterFirst = await deps.jobs.get(ref);
    const second = await runJob(ref, KINDS, deps);
    const key = studyKeys.export(HOSPITAL, jobId);
    const files = await unzipFiles(await deps.objects.get('studies', key));

    // Assert
    expect(first.done).toBe(false);
    expect(afterFirst).toMatchObject({ status: 'RUNNING', cursor: '25', processed: 25, total: SERIES });
    expect(second.job).toMatchObject({ status: 'SUCCEEDED', processed: SERIES, succeeded: SERIES - 1, failed: 0 });
    const thumbnails = [...files.keys()].filter((p) => p !== EXPORT_MANIFEST);
    expect(thumbnails).toHaveLength(SERIES - 1);
    expect(thumbnails).not.toContain('assets/series-7/thumbnail.png');
    expect(thumbnails).not.toContain(`assets/series-${SERIES + 1}/thumbnail.png`);
    const manifest = JSON.parse(new TextDecoder().decode(files.get(EXPORT_MANIFEST)!));
    expect(manifest.excludedSeries).toEqual([
      { seriesNumber: SERIES + 1, seriesInstanceUID: uid(SERIES + 1), reason: HELD_REASON },
    ]);
    expect(deps.mailbox.map((m) => [m.to, m.tag])).toEqual([[lead.email, 'dataset-export']]);
    const exported = deps.audit.events.filter((e) => e.action === 'DATASET_EXPORTED');
    expect(exported).toHaveLength(1);
    expect(exported[0]).toMatchObject({ actorUserId: lead.userId, details: { format: 'assets', exportId: jobId } });
  });

  it('rebuilds the same ZIP under the same key when its finish runs again', async () => {
    // Arrange
    const { deps, lead } = await world();
    const { jobId } = await startDatasetExport(DATASET, { format: 'assets' }, lead, deps);
    const ref = { ownerHospitalId: HOSPITAL, jobId };
    await runJob(ref, KINDS, deps);
    const key = studyKeys.export(HOSPITAL, jobId);
    const built = await deps.objects.get('studies', key);

    // Act
    await datasetExportJob.finish!((await deps.jobs.get(ref))!, deps);

    // Assert
    expect(await deps.objects.get('studies', key)).toEqual(built);
    expect((await deps.objects.list('studies', 'exports/')).map((o) => o.key)).toEqual([key]);
  });

  it('issues a link to its requester while the ZIP is kept, and none after', async () => {
    // Arrange
    const { deps, lead } = await world();
    const { jobId } = await startDatasetExport(DATASET, { format: 'assets' }, lead, deps);
    await runJob({ ownerHospitalId: HOSPITAL, jobId }, KINDS, deps);
    const later = {
      ...deps,
      clock: {
        now: () => new Date(Date.parse(deps.clock.now()) + (EXPORT_RETENTION_DAYS + 1) * 86_400_000).toISOString(),
      },
    };

    // Act
    const now = await getDatasetExport(DATASET, jobId, lead, deps);
    const expired = await getDatasetExport(DATASET, jobId, lead, later);
    const byAdmin = getDatasetExport(DATASET, jobId, caller('HOSPITAL_ADMIN'), deps);

    // Assert
    expect(now.download).toMatchObject({ fileName: `${DATASET}-assets.zip`, expiresAt: '2026-02-01T11:00:00.000Z' });
    expect(now.download!.url).toContain(`exports/${HOSPITAL}/${jobId}.zip`);
    expect(expired.download).toBeNull();
    await expect(byAdmin).rejects.toMatchObject({ code: 'JOB_NOT_FOUND' });
  });
});
