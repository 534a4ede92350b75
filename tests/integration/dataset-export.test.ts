import { readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipFiles } from '#shared/dicom/bids/zip.ts';
import { EXPORT_MANIFEST, HELD_REASON } from '#shared/domain/datasets/export-dataset.ts';
import { ERROR_CATALOGUE } from '#shared/vocabulary/errors.ts';
import { buildStudy } from '#tests/helpers/dicom-builder.ts';
import { datasetRecord } from '#tests/helpers/datasets.ts';
import { listFiles, requireSharedData } from '#tests/helpers/shared-data.ts';
import { createResearchDataset, runPipeline, startHarness, uploadDirect, type Harness } from './datasets-harness.ts';
import { describeIssues, runBidsValidator, writeDatasetFolder } from './bids/validator.ts';

/**
 * The server-side export of a stored dataset (docs/exports.md), through the in-process harness: EXPORT_DATA and a
 * share's `export` permission decide who may start one, the DATASET_EXPORT job builds the ZIP, the link hands it out,
 * and nothing of a series held for burned-in text is in it.
 */
const MEMBER = 'member@northside.demo.local';
const LEAD = 'lead@northside.demo.local';
const OTHER_LEAD = 'lead@lakeview.demo.local';
const HOSPITAL = 'hosp-northside';
const TEAM = 'team-northside-neuroradiology';
const OTHER_TEAM = 'team-northside-stroke';
const SECONDARY_CAPTURE = '1.2.840.10008.5.1.4.1.1.7';
const MEMBER_DEFAULTS = ['VIEW_DATASETS', 'UPLOAD_DICOM', 'SHARE_DATA'];

let h: Harness;
let datasetId: string;
let t1Files: number;
/** The T1's series number as the scanner gave it. */
let t1Number: number;
const folders: string[] = [];

/** What a link of the in-memory store points at: the bucket and key of the object it presigns. */
async function download(url: string): Promise<Map<string, Uint8Array>> {
  const { pathname } = new URL(url);
  const [, bucket, ...key] = pathname.split('/');
  expect(bucket).toBe('studies');
  return unzipFiles(await h.objects.get('studies', decodeURIComponent(key.join('/'))));
}

async function setMemberPermissions(permissions: string[]) {
  const changed = await h.call('PATCH', `/api/teams/${TEAM}/members/${h.userId(MEMBER)}/permissions`, {
    as: LEAD,
    body: { permissions },
  });
  expect(changed.status).toBe(200);
}

/** Starts an export as `as`, lets the job finish and reads the export back. */
async function exportAs(as: string, id: string, format: string) {
  const started = await h.call('POST', `/api/datasets/${id}/exports`, { as, body: { format } });
  expect(started.status).toBe(202);
  await h.settleJobs();
  const read = await h.call('GET', `/api/datasets/${id}/exports/${started.body.jobId}`, { as });
  expect(read.status).toBe(200);
  return { started: started.body, read: read.body };
}

beforeAll(async () => {
  h = await startHarness();
  // A real T1 series and a screen capture declaring burned-in annotation (held), processed by the real pipeline.
  const t1 = listFiles(join(requireSharedData(), 'ge-t1-ir-spgr/dicom'));
  const files = [
    ...t1.map((path) => ({ path: `study/${basename(path)}`, bytes: new Uint8Array(readFileSync(path)) })),
    ...buildStudy([{ seriesNumber: 2, slices: 2, sopClassUID: SECONDARY_CAPTURE, burnedInAnnotation: 'YES' }]).map(
      (f) => ({ path: `capture/${f.name}`, bytes: f.bytes }),
    ),
  ];
  t1Files = t1.length;
  datasetId = await createResearchDataset(h, MEMBER, 'Export study');
  expect(await runPipeline(await uploadDirect(h, MEMBER, datasetId, files))).toEqual({ ok: true });
  const detail = await h.call('GET', `/api/datasets/${datasetId}`, { as: MEMBER });
  expect(detail.body.status).toBe('COMPLETE');
  t1Number = (detail.body.series as { seriesNumber: number; burnedInText?: unknown }[]).find(
    (s) => !s.burnedInText,
  )!.seriesNumber;
}, 120_000);

afterAll(async () => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  await h?.stop();
});

describe('exporting a stored dataset', () => {
  it('refuses a member without EXPORT_DATA (403) and another hospital (404)', async () => {
    // Arrange
    await setMemberPermissions(MEMBER_DEFAULTS);

    // Act
    const refused = await h.call('POST', `/api/datasets/${datasetId}/exports`, {
      as: MEMBER,
      body: { format: 'bids' },
    });
    const elsewhere = await h.call('POST', `/api/datasets/${datasetId}/exports`, {
      as: OTHER_LEAD,
      body: { format: 'bids' },
    });
    const invalid = await h.call('POST', `/api/datasets/${datasetId}/exports`, { as: LEAD, body: { format: 'tar' } });

    // Assert
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'ACCESS_DENIED', message: ERROR_CATALOGUE.ACCESS_DENIED.message });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error.code).toBe('DATASET_NOT_FOUND');
    expect(invalid.status).toBe(400);
  });

  it('lets a member granted EXPORT_DATA export BIDS: the ZIP from the link passes bids-validator with 0 errors', async () => {
    // Arrange
    await setMemberPermissions([...MEMBER_DEFAULTS, 'EXPORT_DATA']);
    h.mailbox.length = 0;

    // Act
    const { started, read } = await exportAs(MEMBER, datasetId, 'bids');
    const files = await download(read.download.url);

    // Assert: the job, the link and the BIDS dataset
    expect(started.job).toMatchObject({ kind: 'DATASET_EXPORT', status: 'QUEUED' });
    expect(read.job.status).toBe('SUCCEEDED');
    expect(read.download.fileName).toBe(`${datasetId}-bids.zip`);
    expect(Date.parse(read.download.expiresAt)).toBeGreaterThan(Date.now());
    const niftis = [...files.keys()].filter((path) => path.endsWith('.nii.gz'));
    expect(niftis).toEqual(['sub-01/anat/sub-01_T1w.nii.gz']);
    const folder = writeDatasetFolder(files);
    folders.push(folder);
    const report = runBidsValidator(folder);
    expect(describeIssues(report.issues.errors)).toEqual([]);
    // The held series is named in the manifest, with why, and nothing of it is exported.
    const manifest = JSON.parse(new TextDecoder().decode(files.get(EXPORT_MANIFEST)!));
    expect(manifest.excludedSeries).toEqual([
      { seriesNumber: 2, seriesInstanceUID: expect.any(String), reason: HELD_REASON },
    ]);
    expect(manifest.includedSeries.map((s: { seriesNumber: number }) => s.seriesNumber)).toEqual([t1Number]);
    // Mailed to the requester with the link, and audited with the format.
    const mail = h.mailbox.find((m) => m.tag === 'dataset-export')!;
    expect(mail.to).toBe(MEMBER);
    expect(mail.text).toContain('https://memory.invalid/studies/exports/');
    const history = await h.call('GET', `/api/datasets/${datasetId}/history`, { as: LEAD });
    const events = (history.body.items as { action: string; details?: Record<string, unknown> }[]).filter(
      (e) => e.action === 'DATASET_EXPORTED',
    );
    expect(events.find((e) => e.details?.exportId === started.jobId)?.details).toMatchObject({
      format: 'bids',
      excludedSeries: 1,
    });
    // The member's refused attempt (the first test) is on the trail too.
    expect(events.some((e) => e.details?.role === 'TEAM_MEMBER' && e.details?.exportId === undefined)).toBe(true);
  }, 120_000);

  it('exports the stored DICOM instances without the held series', async () => {
    // Act
    const { read } = await exportAs(LEAD, datasetId, 'dicom');
    const files = await download(read.download.url);

    // Assert
    const paths = [...files.keys()].filter((p) => p !== EXPORT_MANIFEST).sort();
    expect(paths).toHaveLength(t1Files);
    expect(paths.every((p) => p.startsWith(`DICOM/series-${t1Number}/`) && p.endsWith('.dcm'))).toBe(true);
    expect(paths.some((p) => p.includes('series-2/'))).toBe(false);
    const manifest = JSON.parse(new TextDecoder().decode(files.get(EXPORT_MANIFEST)!));
    expect(manifest.excludedSeries.map((s: { seriesNumber: number }) => s.seriesNumber)).toEqual([2]);
  }, 60_000);

  it('exports the converted volumes as NIfTI and the derived assets, neither with anything of the held series', async () => {
    // Act
    const nifti = await download((await exportAs(LEAD, datasetId, 'nifti')).read.download.url);
    const assets = await download((await exportAs(LEAD, datasetId, 'assets')).read.download.url);

    // Assert
    const folder = `series-${t1Number}`;
    expect([...nifti.keys()].sort()).toEqual(
      [EXPORT_MANIFEST, `NIfTI/${folder}/volume-0.json`, `NIfTI/${folder}/volume-0.nii.gz`].sort(),
    );
    expect([...assets.keys()].sort()).toEqual(
      [EXPORT_MANIFEST, 'assets/report.pdf', `assets/${folder}/surface.mz3`, `assets/${folder}/thumbnail.png`].sort(),
    );
  }, 60_000);

  it('answers the export to its requester only, and 409 for a dataset that is not COMPLETE', async () => {
    // Arrange
    const started = await h.call('POST', `/api/datasets/${datasetId}/exports`, { as: LEAD, body: { format: 'nifti' } });
    await h.settleJobs();
    const uploading = `ds-export-uploading-${Date.now().toString(36)}`;
    await h.deps.datasets.create(
      datasetRecord({
        id: uploading,
        hospitalId: HOSPITAL,
        teamId: TEAM,
        ownerUserId: h.userId(MEMBER),
        status: 'UPLOADING',
      }),
    );

    // Act
    const byOther = await h.call('GET', `/api/datasets/${datasetId}/exports/${started.body.jobId}`, { as: MEMBER });
    const notComplete = await h.call('POST', `/api/datasets/${uploading}/exports`, {
      as: LEAD,
      body: { format: 'bids' },
    });

    // Assert
    expect(started.status).toBe(202);
    expect(byOther.status).toBe(404);
    expect(byOther.body.error.code).toBe('JOB_NOT_FOUND');
    expect(notComplete.status).toBe(409);
    expect(notComplete.body.error.code).toBe('INVALID_STATE');
  });
});

describe('exporting a dataset shared with the caller', () => {
  it("needs the share's export permission: 403 with view only, 202 with export", async () => {
    // Arrange: a COMPLETE dataset of another team, shared with the member (who holds EXPORT_DATA)
    await setMemberPermissions([...MEMBER_DEFAULTS, 'EXPORT_DATA']);
    const shared = async (permissions: ('view' | 'download' | 'export')[]) => {
      const id = `ds-export-shared-${permissions.join('-')}-${Date.now().toString(36)}`;
      await h.deps.datasets.create(
        datasetRecord({ id, hospitalId: HOSPITAL, teamId: OTHER_TEAM, ownerUserId: h.userId(LEAD) }),
      );
      await h.deps.shares.putTeamShare({
        id: `tshare-${id}`,
        hospitalId: HOSPITAL,
        datasetId: id,
        sourceTeamId: OTHER_TEAM,
        recipientType: 'USER',
        recipientId: h.userId(MEMBER),
        recipientName: 'Taylor Brooks',
        permissions,
        createdByUserId: h.userId(LEAD),
        createdByName: 'Jordan Patel',
        createdAt: new Date().toISOString(),
      });
      return id;
    };
    const viewOnly = await shared(['view']);
    const withExport = await shared(['view', 'export']);

    // Act
    const refused = await h.call('POST', `/api/datasets/${viewOnly}/exports`, {
      as: MEMBER,
      body: { format: 'dicom' },
    });
    const accepted = await h.call('POST', `/api/datasets/${withExport}/exports`, {
      as: MEMBER,
      body: { format: 'dicom' },
    });
    await h.settleJobs();

    // Assert
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('ACCESS_DENIED');
    expect(accepted.status).toBe(202);
    const read = await h.call('GET', `/api/datasets/${withExport}/exports/${accepted.body.jobId}`, { as: MEMBER });
    expect(read.body.job.status).toBe('SUCCEEDED');
    expect(read.body.download.url).toContain(`/exports/${HOSPITAL}/${accepted.body.jobId}.zip`);
  });
});
