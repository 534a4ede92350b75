import { describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { CLIENT, shareWorld, storeAssetFiles } from './fixtures.ts';
import { createPatientShare } from '#shared/domain/shares/patient-shares.ts';
import {
  patientDownload,
  patientStudy,
  requestShareCode,
  verifyShareCode,
} from '#shared/domain/shares/patient-access.ts';
import { niftiDescription } from '#shared/domain/shares/watermark.ts';

/**
 * View only means what the page shows, marked (docs/domain.md#patient-shares): a patient whose share has no downloads
 * scope is never handed a URL of an original asset, and the volume the viewer loads carries the watermark line.
 */

/** The world's dataset with every kind of file a patient could be handed: volume, report, thumbnail, surface, tracts. */
async function fullDataset() {
  const w = shareWorld();
  await storeAssetFiles(w);
  const a1 = w.deps.datasets.assets.get('h1/ds1/a1')!;
  const extra = [
    { id: 'a3', type: 'SURFACE', objectKey: 'h1/ds1/s1/surface.mz3' },
    { id: 'a4', type: 'TRACT', objectKey: 'h1/ds1/s1/volume-1-tracts.trk' },
    { id: 'a5', type: 'THUMBNAIL', objectKey: 'h1/ds1/s1/thumbnail.png' },
  ] as const;
  for (const e of extra) {
    w.deps.datasets.assets.set(`h1/ds1/${e.id}`, { ...a1, ...e });
    await w.deps.objects.put('assets', e.objectKey, e.type === 'THUMBNAIL' ? grayPng() : new Uint8Array(64));
  }
  return w;
}

function grayPng(): Uint8Array {
  const png = new PNG({ width: 64, height: 64 });
  png.data.fill(128);
  return PNG.sync.write(png);
}

async function openShare(w: ReturnType<typeof shareWorld>, scopes: ('viewer_only' | 'screenshots')[]) {
  const created = await createPatientShare(
    'ds1',
    {
      recipientEmail: 'patient@example.org',
      expiresInHours: 168,
      maxOpens: 3,
      watermark: true,
      allowDownloads: false,
      scopes,
    },
    w.member,
    w.deps,
  );
  const token = created.link.split('/p/')[1]!;
  await requestShareCode(token, CLIENT, w.deps);
  const session = await verifyShareCode(token, w.lastCode(), CLIENT, w.deps);
  return { session, shareId: created.share.id };
}

/** Every string in a response that is a URL, wherever it sits. */
function urlsIn(value: unknown): string[] {
  if (typeof value === 'string') return /^https?:\/\//.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(urlsIn);
  return [];
}

/** The memory store's presigned URL is https://memory.invalid/<bucket>/<key>?...: the object key it points to. */
const objectKeyOf = (url: string) => decodeURIComponent(new URL(url).pathname).split('/').slice(2).join('/');

describe('a view-only patient share hands out only marked renderings (docs/domain.md#patient-shares)', () => {
  for (const scopes of [['viewer_only'], ['viewer_only', 'screenshots']] as const) {
    it(`gives no URL of an original asset, and a watermarked volume (${scopes.join(', ')})`, async () => {
      // Prepare
      const w = await fullDataset();
      const originals = new Set([...w.deps.datasets.assets.values()].map((a) => a.objectKey));
      const { session, shareId } = await openShare(w, [...scopes]);
      // Act
      const study = await patientStudy(session.session, CLIENT, w.deps);
      // Assess
      const urls = [...urlsIn(session), ...urlsIn(study)];
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) expect(originals.has(objectKeyOf(url))).toBe(false);
      const volume = study.assets.find((a) => a.id === 'a1')!;
      expect(objectKeyOf(volume.url!)).toBe(`h1/ds1/patient-shares/${shareId}/a1.nii.gz`);
      const served = w.deps.objects.objects.get(`assets/${objectKeyOf(volume.url!)}`)!;
      expect(niftiDescription(served)).toBe(`patient@example.org - 2026-02-01 - ${shareId}`);
      // The original stays as it was.
      expect(niftiDescription(w.deps.objects.objects.get('assets/h1/ds1/assets/t1w.nii.gz')!)).toBe(
        'original description',
      );
      // Nothing else is listed with a URL: the report and thumbnail are not downloadable, the surface and tracts
      // cannot carry the mark.
      expect(study.assets.filter((a) => a.url).map((a) => a.id)).toEqual(['a1']);
      // And the download route stays closed.
      for (const id of ['a1', 'a2', 'a5'])
        await expect(patientDownload(session.session, id, CLIENT, w.deps)).rejects.toMatchObject({
          code: 'ASSET_NOT_FOUND',
        });
    });
  }

  it('marks the volume once per share and serves the cached copy on each refresh', async () => {
    // Prepare
    const w = await fullDataset();
    const { session, shareId } = await openShare(w, ['viewer_only']);
    const first = await patientStudy(session.session, CLIENT, w.deps);
    const key = `assets/h1/ds1/patient-shares/${shareId}/a1.nii.gz`;
    const made = w.deps.objects.objects.get(key);
    // Act
    w.advance(15);
    const again = await patientStudy(session.session, CLIENT, w.deps);
    // Assess
    expect(w.deps.objects.objects.get(key)).toBe(made);
    expect(objectKeyOf(again.assets.find((a) => a.id === 'a1')!.url!)).toBe(
      objectKeyOf(first.assets.find((a) => a.id === 'a1')!.url!),
    );
  });

  it('gives no URL of a volume that cannot be marked', async () => {
    // Prepare
    const w = await fullDataset();
    await w.deps.objects.put('assets', 'h1/ds1/assets/t1w.nii.gz', new Uint8Array(400));
    const { session } = await openShare(w, ['viewer_only']);
    // Act
    const study = await patientStudy(session.session, CLIENT, w.deps);
    // Assess
    expect(urlsIn(study)).toEqual([]);
  });
});
