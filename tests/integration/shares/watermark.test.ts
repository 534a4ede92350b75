import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { requireTool } from '#tests/integration/processing/fixtures.ts';
import { CLIENT, shareWorld, storeAssetFiles } from '#tests/unit/domain/shares/fixtures.ts';
import { createPatientShare } from '#shared/domain/shares/patient-shares.ts';
import {
  patientDownload,
  patientStudy,
  requestShareCode,
  verifyShareCode,
} from '#shared/domain/shares/patient-access.ts';
import { niftiDescription } from '#shared/domain/shares/watermark.ts';
import { DEFAULT_HOSPITAL_POLICY } from '#shared/schemas/api/policies.ts';

const PDFTOTEXT = '/usr/bin/pdftotext';

function pdfText(pdf: Uint8Array): string {
  requireTool(PDFTOTEXT, 'the Debian package poppler-utils');
  const dir = mkdtempSync(join(tmpdir(), 'iws-watermark-'));
  try {
    writeFileSync(join(dir, 'download.pdf'), pdf);
    return execFileSync(PDFTOTEXT, [join(dir, 'download.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A patient who opened a share with downloads; the memory store's URL names the object it points to. */
async function openedWithDownloads() {
  const w = shareWorld();
  await storeAssetFiles(w);
  await w.deps.settings.putHospitalPolicy('h1', {
    value: {
      // The world's policy (external sharing on, no approval: docs/domain.md#share-policy), with downloads allowed.
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
  const session = await verifyShareCode(token, w.lastCode(), CLIENT, w.deps);
  const fetchUrl = (url: string) => w.deps.objects.objects.get(new URL(url).pathname.slice(1))!;
  return { w, session, shareId: created.share.id, fetchUrl };
}

describe('patient downloads carry the watermark (docs/domain.md#patient-downloads)', () => {
  it('stamps recipient, date and share id on every page of the downloaded report', async () => {
    // Prepare
    const { w, session, shareId, fetchUrl } = await openedWithDownloads();
    // Act
    const { url } = await patientDownload(session.session, 'a2', CLIENT, w.deps);
    // Assess
    expect(url).toContain(`patient-shares/${shareId}/a2.pdf`);
    const text = pdfText(fetchUrl(url));
    const line = `patient@example.org · 2026-02-01 · ${shareId}`;
    expect(text.split(line).length - 1).toBeGreaterThanOrEqual(4);
    expect(text).toContain('Imaging report');
    // The original stays as it was.
    expect(pdfText(w.deps.objects.objects.get('assets/h1/ds1/assets/report.pdf')!)).not.toContain(shareId);
  });

  it("writes the recipient and share id into a NIfTI volume's header description", async () => {
    const { w, session, shareId, fetchUrl } = await openedWithDownloads();
    const { url } = await patientDownload(session.session, 'a1', CLIENT, w.deps);
    expect(niftiDescription(fetchUrl(url))).toBe(`patient@example.org - 2026-02-01 - ${shareId}`);
  });

  it('gives no URL of the unmarked report in the study, and no download of what cannot be marked', async () => {
    const { w, session, shareId } = await openedWithDownloads();
    w.deps.datasets.assets.set('h1/ds1/a3', {
      ...w.deps.datasets.assets.get('h1/ds1/a1')!,
      id: 'a3',
      type: 'SURFACE',
      objectKey: 'h1/ds1/assets/surface.gii',
    });
    const study = await patientStudy(session.session, CLIENT, w.deps);
    const byId = Object.fromEntries(study.assets.map((a) => [a.id, a]));
    expect(byId.a2).toMatchObject({ downloadable: true });
    expect(byId.a2!.url).toBeUndefined();
    expect(byId.a1).toMatchObject({ downloadable: true });
    // The viewer's volume is the copy marked for the share, never the original (docs/domain.md#patient-shares).
    expect(byId.a1!.url).toContain(`patient-shares/${shareId}/a1.nii.gz`);
    // A surface cannot carry the mark: not listed, no URL.
    expect(byId.a3).toBeUndefined();
    await expect(patientDownload(session.session, 'a3', CLIENT, w.deps)).rejects.toMatchObject({
      code: 'ASSET_NOT_FOUND',
    });
  });

  it('draws the line into a downloaded thumbnail, and gives the patient no URL of the unmarked one', async () => {
    const { w, session, fetchUrl } = await openedWithDownloads();
    const gray = new PNG({ width: 256, height: 256 });
    gray.data.fill(128);
    await w.deps.objects.put('assets', 'h1/ds1/s1/thumbnail.png', PNG.sync.write(gray));
    w.deps.datasets.assets.set('h1/ds1/a4', {
      ...w.deps.datasets.assets.get('h1/ds1/a1')!,
      id: 'a4',
      type: 'THUMBNAIL',
      mimeType: 'image/png',
      objectKey: 'h1/ds1/s1/thumbnail.png',
    });
    const study = await patientStudy(session.session, CLIENT, w.deps);
    const thumbnail = study.assets.find((a) => a.id === 'a4');
    expect(thumbnail?.downloadable).toBe(true);
    expect(thumbnail?.url).toBeUndefined();
    const { url } = await patientDownload(session.session, 'a4', CLIENT, w.deps);
    const marked = PNG.sync.read(Buffer.from(fetchUrl(url)));
    expect([marked.width, marked.height]).toEqual([256, 256]);
    const at = (x: number, y: number) => marked.data[(y * 256 + x) * 4]!;
    expect(at(10, 10)).toBe(128);
    const band = Array.from({ length: 256 * 30 }, (_, i) => at(i % 256, 226 + Math.floor(i / 256)));
    expect(band).toContain(0);
    expect(band).toContain(255);
  });
});
