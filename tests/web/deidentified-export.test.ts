import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { AnonymizationOptionsSchema } from '#shared/schemas/api/datasets.ts';
import { buildDicom, buildPlantedDicom } from '#tests/helpers/dicom-builder.ts';
import { buildDeidentifiedLayoutZip } from '#web/features/uploads/utils/deidentified-export.ts';
import { discoverFiles, type PickedFile } from '#web/features/uploads/utils/discover-files.ts';

const PATIENT_FOLDER = 'DOE_JANE_19700101';
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** Picks files as the wizard does and exports every discovered series with the default options. */
async function exportPicked(files: Uint8Array[], key = 'one-download-key') {
  const picked: PickedFile[] = files.map((bytes, i) => ({
    path: `${PATIENT_FOLDER}/IM${i}`,
    file: new File([bytes as BlobPart], `IM${i}`),
  }));
  const discovery = await discoverFiles(picked, { pauseMs: 0 });
  const selection = discovery.series.map((series) => ({
    series,
    category: 'anat',
    subcategory: 'T1w',
    files: series.files.map((f) => ({ bytes: files[picked.findIndex((p) => p.path === f.fileName)]! })),
  }));
  const zip = await buildDeidentifiedLayoutZip(selection, AnonymizationOptionsSchema.parse({}), key);
  const archive = await JSZip.loadAsync(zip.bytes);
  const entries = await Promise.all(
    Object.values(archive.files)
      .filter((f) => !f.dir)
      .map(async (f) => ({ name: f.name, bytes: await f.async('uint8array') })),
  );
  return { zip, entries };
}

describe('the wizard\'s "Download BIDS ZIP"', () => {
  it('exports de-identified files: no planted identifier, original UID or picked path anywhere in the ZIP', async () => {
    // Prepare
    const planted = buildPlantedDicom('1.2.840.10008.1.2.1', 'Z');
    // Act
    const { entries } = await exportPicked([planted.bytes]);
    // Assess
    const everything = (
      entries.map((e) => e.name).join('\n') + entries.map((e) => latin1(e.bytes)).join('\n')
    ).toUpperCase();
    const survivors = [...planted.identifiers].filter(([, value]) => everything.includes(value.toUpperCase()));
    expect(survivors).toEqual([]);
    expect(planted.identifiers.size).toBeGreaterThan(400);
    expect(everything.includes(PATIENT_FOLDER)).toBe(false);
    expect(entries.filter((e) => e.name.endsWith('.dcm')).map((e) => e.name)).toEqual([
      expect.stringMatching(/^sub-01\/ses-001\/anat\/[^/]+_Series\d{3}\/sub-01_ses-001_T1w_\d{4}\.dcm$/),
    ]);
  });

  it('uses a key per download, so two downloads of one study share no UID', async () => {
    const file = buildDicom();
    const first = await exportPicked([file], 'key-a');
    const second = await exportPicked([file], 'key-b');
    const metadata = async (e: { entries: { name: string; bytes: Uint8Array }[] }) =>
      JSON.parse(latin1(e.entries.find((x) => x.name === 'metadata.json')!.bytes)) as {
        series: { seriesInstanceUID: string }[];
      };
    const [a, b] = [
      (await metadata(first)).series[0]!.seriesInstanceUID,
      (await metadata(second)).series[0]!.seriesInstanceUID,
    ];
    expect(a).not.toBe(b);
    expect(a).not.toBe('1.2.826.0.1.3680043.9.9999.3');
  });

  it('leaves out files that declare text burned into the pixels, and counts them', async () => {
    const burned = buildDicom({ extra: [{ tag: '00280301', vr: 'CS', value: 'YES' }] });
    const clean = buildDicom({
      extra: [
        { tag: '00200013', vr: 'IS', value: '2' },
        { tag: '00080018', vr: 'UI', value: '1.2.3.4.2' },
      ],
    });
    const { zip, entries } = await exportPicked([burned, clean]);
    expect(zip.withheld).toBe(1);
    expect(entries.filter((e) => e.name.endsWith('.dcm'))).toHaveLength(1);
  });
});
