import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssetRecord } from '#shared/domain/datasets/ports.ts';
import { buildStudy } from '#tests/helpers/dicom-builder.ts';
import { middleSlab, T1_DICOM } from '#tests/integration/processing/fixtures.ts';
import {
  createResearchDataset,
  HARNESS_PSEUDONYM_SECRET,
  runPipeline,
  uploadDirect,
  useHarnessOverSharedData,
} from './datasets-harness.ts';

const run = promisify(execFile);
const IWS = resolve(process.cwd(), 'cli/iws.mjs');
const PDFTOTEXT = '/usr/bin/pdftotext';
const MEMBER = 'member@northside.demo.local';
const LEAD = 'lead@northside.demo.local';
const HOSPITAL = 'hosp-northside';

/** Names planted in descriptions, protocol names and file and folder names: none may reach a key or an asset record. */
const PLANTED = ['DOEJANE', 'ROEPROTOCOL', 'SMITHFOLDER', 'JONESFILE'];

/**
 * One study, two runners: the upload through the API with the state machine driving the Lambda handlers, and `iws
 * process` on the same files. A 20-slice slab of the shared GE T1 (volume, thumbnail, surface), a generated T1 series
 * with planted names, and three generated series that may carry burned-in text.
 */
function study(): { path: string; bytes: Uint8Array }[] {
  const generated = buildStudy(
    [
      { seriesNumber: 11, seriesDescription: 'T1 MPRAGE DOEJANE', protocolName: 'ROEPROTOCOL' },
      { seriesNumber: 12, seriesDescription: 'T1 annotated', burnedInAnnotation: 'YES' },
      { seriesNumber: 13, seriesDescription: 'Screenshot', sopClassUID: '1.2.840.10008.5.1.4.1.1.7' },
      { seriesNumber: 14, seriesDescription: 'Saved view', imageType: 'DERIVED\\SECONDARY\\SCREEN SAVE' },
    ],
    'JONESFILE-',
  );
  return [
    ...middleSlab(T1_DICOM, 20).map((path) => ({
      path: `SMITHFOLDER/t1/${basename(path)}`,
      bytes: new Uint8Array(readFileSync(path)),
    })),
    ...generated.map((file) => ({ path: `SMITHFOLDER/generated/${file.name}`, bytes: file.bytes })),
  ];
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

async function pdfText(pdf: Uint8Array): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'iws-parity-pdf-'));
  try {
    writeFileSync(join(dir, 'report.pdf'), pdf);
    return (await run(PDFTOTEXT, ['-layout', join(dir, 'report.pdf'), '-'])).stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const shape = (a: { type: string; objectKey: string; label: string; mimeType: string; seriesId?: string | null }) =>
  `${a.type} ${a.objectKey} ${a.mimeType} ${a.seriesId ?? '-'} ${a.label}`;

const h = useHarnessOverSharedData();

describe('one pipeline, two runners: the state machine over the API and iws process give the same assets', () => {
  let work: string;
  let datasetId: string;
  let twinAssets: AssetRecord[];
  let cli: {
    dataset: { status: string };
    series: { seriesId: string; seriesNumber: number; heldForBurnedInText: boolean; burnedInText?: string[] }[];
    assets: { type: string; key: string; label: string; mimeType: string; seriesId: string | null; path: string }[];
  };

  beforeAll(async () => {
    const files = study();
    // The state machine, driving the Lambda handlers over the harness's table and object store.
    datasetId = await createResearchDataset(h, MEMBER, 'Parity study');
    const pipelineRun = await uploadDirect(h, MEMBER, datasetId, files);
    expect(await runPipeline(pipelineRun)).toEqual({ ok: true });
    twinAssets = await h.deps.datasets.listAssets(HOSPITAL, datasetId);

    // iws process on the same files, as the same hospital with the same secret, for the same dataset id.
    work = mkdtempSync(join(tmpdir(), 'iws-parity-'));
    for (const file of files) {
      mkdirSync(dirname(join(work, 'in', file.path)), { recursive: true });
      writeFileSync(join(work, 'in', file.path), file.bytes);
    }
    const dataset = (await h.deps.datasets.get(HOSPITAL, datasetId))!;
    const { stdout } = await run(
      process.execPath,
      [
        ...[IWS, 'process', join(work, 'in'), join(work, 'out')],
        ...['--hospital', HOSPITAL, '--id', datasetId, '--alias', dataset.patientAlias],
        ...['--description', dataset.studyDescription, '--study-type', dataset.studyType],
      ],
      { maxBuffer: 64 << 20, env: { ...process.env, IWS_SECRET: HARNESS_PSEUDONYM_SECRET } },
    );
    cli = JSON.parse(stdout) as typeof cli;
  }, 300_000);
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('builds the same assets, with the same types, keys, labels and series, from both runners', () => {
    expect(cli.dataset.status).toBe('COMPLETE');
    const fromCli = cli.assets.map((a) => shape({ ...a, objectKey: a.key })).sort();
    const fromStateMachine = twinAssets.map(shape).sort();
    expect(fromCli).toEqual(fromStateMachine);
    expect(new Set(twinAssets.map((a) => a.type))).toEqual(new Set(['VOLUME', 'THUMBNAIL', 'SURFACE', 'REPORT']));
    for (const asset of twinAssets.filter((a) => a.type !== 'REPORT')) {
      const twin = h.objects.objects.get(`assets/${asset.objectKey}`)!;
      const local = readFileSync(cli.assets.find((a) => a.key === asset.objectKey)!.path);
      expect(local.byteLength).toBe(twin.byteLength);
    }
  });

  it('writes the same report from both runners', async () => {
    const key = `${HOSPITAL}/${datasetId}/report.pdf`;
    const twin = await pdfText(h.objects.objects.get(`assets/${key}`)!);
    const local = await pdfText(readFileSync(cli.assets.find((a) => a.key === key)!.path));
    expect(local).toEqual(twin);
    expect(twin).toContain('Parity study');
  });

  it('builds every key from ids: no description, protocol, file or folder name in a key or an asset record', () => {
    const twinKeys = [...h.objects.objects.keys()].filter((k) => k.includes(datasetId));
    const cliKeys = walk(join(work, 'out')).map((path) => relative(join(work, 'out'), path));
    expect(twinKeys.length).toBeGreaterThan(40);
    for (const key of [...twinKeys, ...cliKeys]) {
      for (const name of PLANTED) expect(key).not.toContain(name);
      if (key === 'manifest.json') continue;
      const path = key.split('/').slice(1).join('/');
      expect(path).toMatch(
        new RegExp(
          `^(${HOSPITAL}/${datasetId}/)(raw/\\d+|report\\.pdf|headers/[0-9.]{1,64}\\.bin|[0-9.]{1,64}/([0-9.]{1,64}\\.dcm|thumbnail\\.png|surface\\.mz3|volume-\\d+(-fa|-colorfa)?\\.(nii\\.gz|json|bval|bvec)|volume-\\d+-tracts\\.trk))$`,
        ),
      );
    }
    const records = JSON.stringify(twinAssets);
    for (const name of PLANTED) expect(records).not.toContain(name);
  });

  it('holds the series that may carry burned-in text: no volume, thumbnail or report image for them', async () => {
    const series = await h.deps.datasets.listSeries(HOSPITAL, datasetId);
    const byNumber = new Map(series.map((s) => [s.seriesNumber, s]));
    expect(byNumber.get(12)!.burnedInText).toEqual({ reasons: ['BURNED_IN_ANNOTATION'] });
    expect(byNumber.get(13)!.burnedInText!.reasons).toContain('SECONDARY_CAPTURE');
    expect(byNumber.get(14)!.burnedInText!.reasons).toEqual(expect.arrayContaining(['SCREEN_SAVE', 'SECONDARY_IMAGE']));
    expect(byNumber.get(11)!.burnedInText).toBeUndefined();
    const held = [12, 13, 14].map((n) => byNumber.get(n)!.id);
    expect(twinAssets.filter((a) => held.includes(a.seriesId ?? ''))).toEqual([]);
    expect(twinAssets.filter((a) => a.seriesId === byNumber.get(11)!.id).map((a) => a.type)).toEqual(
      expect.arrayContaining(['VOLUME', 'THUMBNAIL']),
    );
    expect(cli.series.filter((s) => s.heldForBurnedInText).map((s) => s.seriesNumber)).toEqual([12, 13, 14]);
    const text = await pdfText(h.objects.objects.get(`assets/${HOSPITAL}/${datasetId}/report.pdf`)!);
    expect(text).toMatch(/Series held for burned in text\s+3/);
    for (const n of [12, 13, 14]) expect(text).not.toMatch(new RegExp(`Series ${n}\\b`));
    expect(text).toMatch(/Series 11\b/);
  });

  it('lets a team lead release a held series, not a member; the release is audited and converts the series', async () => {
    const held = (await h.deps.datasets.listSeries(HOSPITAL, datasetId)).find((s) => s.seriesNumber === 12)!;
    const path = `/api/datasets/${datasetId}/series/${held.id}/release`;

    const byMember = await h.call('POST', path, { as: MEMBER });
    expect(byMember.status).toBe(403);
    const byLead = await h.call('POST', path, { as: LEAD });
    expect(byLead.status).toBe(200);
    expect(byLead.body.burnedInText).toMatchObject({
      reasons: ['BURNED_IN_ANNOTATION'],
      releasedByUserId: h.userId(LEAD),
    });
    const again = h.started.filter((s) => s.datasetId === datasetId).at(-1)!;
    expect(await runPipeline(again)).toEqual({ ok: true });

    const detail = await h.call('GET', `/api/datasets/${datasetId}`, { as: MEMBER });
    expect(detail.body.status).toBe('COMPLETE');
    const released = detail.body.processedAssets.filter((a: { seriesId?: string }) => a.seriesId === held.id);
    expect(released.map((a: { type: string }) => a.type).sort()).toEqual(['THUMBNAIL', 'VOLUME']);
    const history = await h.call('GET', `/api/datasets/${datasetId}/history`, { as: LEAD });
    const event = history.body.items.find((e: { action: string }) => e.action === 'SERIES_RELEASED');
    expect(event).toMatchObject({ actorUserId: h.userId(LEAD), details: { seriesId: held.id } });
  }, 120_000);
});
