import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deidentifyDicom, type DeidentifyContext } from '#shared/dicom/deidentify/index.ts';
import { nodeText, readDataSet, readMetaGroup } from '#shared/dicom/deidentify/tokenize.ts';
import { gunzipIfNeeded, hasDicmPrefix } from '#shared/dicom/parse.ts';
import { TAG } from '#shared/dicom/tags.ts';
import { AnonymizationOptionsSchema } from '#shared/schemas/api/datasets.ts';
import { type AnonymizationOptions } from '#shared/vocabulary/deidentification.ts';
import { SYNTAX_ENCODING, buildDicom, buildPlantedDicom, buildStudy } from '#tests/helpers/dicom-builder.ts';
import { requireTool } from '#tests/helpers/reference-tools.ts';
import { REPO_ROOT, SHARED_DICOM, listFiles, requireSharedData } from '#tests/helpers/shared-data.ts';

/**
 * De-identification keeps DICOM valid: dciodvfy (dicom3tools), which checks an object against its IOD in PS3.3, finds
 * no error in the de-identified file that it did not find in the original. Composite actions of PS3.15 Table E.1-1
 * are resolved by the attribute's type in the IOD (docs/domain.md, "Composite actions"); emptying a Type 1
 * attribute, or leaving a sequence with no item, is what this catches.
 */
const DCIODVFY = requireTool('dciodvfy');
requireSharedData();
const WORK = mkdtempSync(join(tmpdir(), 'iws-dciodvfy-'));
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

const context = (options: Partial<AnonymizationOptions> = {}): DeidentifyContext => ({
  secret: 'dciodvfy-secret',
  hospitalId: 'northside',
  options: AnonymizationOptionsSchema.parse(options),
});

/** dciodvfy's error lines, normalised: whitespace collapsed, values dropped (a replaced value is no new error). */
function errorLines(report: string): Set<string> {
  return new Set(
    report
      .split('\n')
      .filter((line) => line.startsWith('Error - '))
      .map((line) =>
        line
          .replace(/ = <[^>]*>/g, '')
          .replace(/ - values are .*$/, '')
          .replace(/\s+/g, ' ')
          .trim(),
      ),
  );
}

/** dciodvfy exits non-zero when it finds errors; its report (on stderr) is what counts. */
function verify(path: string): Promise<Set<string>> {
  return new Promise((resolve, reject) => {
    execFile(DCIODVFY, [path], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const report = `${stdout}\n${stderr}`;
      if (error && !/^(Error|Warning) - /m.test(report)) reject(error);
      else resolve(errorLines(report));
    });
  });
}

/** Runs `work` on every input with at most `size` at a time (dciodvfy is a process per file). */
async function pooled<T, R>(inputs: T[], size: number, work: (input: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(inputs.length);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const index = next++;
      results[index] = await work(inputs[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, inputs.length) }, worker));
  return results;
}

type Case = { name: string; bytes: Uint8Array; options?: Partial<AnonymizationOptions> };

/** Its series and transfer syntax: one file of each pair stands for the rest (same IOD, same attributes). */
function seriesKey(bytes: Uint8Array): string | undefined {
  if (!hasDicmPrefix(bytes)) return undefined;
  const meta = readMetaGroup(bytes, 132);
  const syntaxNode = meta.elements.find((node) => node.tag === TAG.TransferSyntaxUID);
  const syntax = syntaxNode ? nodeText(bytes, syntaxNode) : '';
  const encoding = SYNTAX_ENCODING[syntax] ?? { explicit: true, littleEndian: true };
  try {
    const series = readDataSet(bytes, meta.next, encoding).elements.find((node) => node.tag === TAG.SeriesInstanceUID);
    return `${series ? nodeText(bytes, series) : ''}|${syntax}`;
  } catch {
    // A file the reader refuses (the truncated JPEG 2000 sample) is refused by de-identification too: not a case.
    return undefined;
  }
}

/** Every real series of the shared data, in every vendor and transfer syntax it comes in: one file each. */
function sharedCases(): Case[] {
  const seen = new Set<string>();
  const cases: Case[] = [];
  for (const path of listFiles(SHARED_DICOM)) {
    const bytes = gunzipIfNeeded(new Uint8Array(readFileSync(path)));
    const key = seriesKey(bytes);
    if (key === undefined || seen.has(key)) continue;
    seen.add(key);
    cases.push({ name: relative(SHARED_DICOM, path), bytes });
  }
  return cases;
}

/** The generator's variants: the base MR in three transfer syntaxes, a study of another SOP Class, the planted file. */
function generatedCases(): Case[] {
  return [
    { name: 'generated MR, explicit little endian', bytes: buildDicom() },
    { name: 'generated MR, implicit little endian', bytes: buildDicom({ transferSyntaxUID: '1.2.840.10008.1.2' }) },
    { name: 'generated MR, explicit big endian', bytes: buildDicom({ transferSyntaxUID: '1.2.840.10008.1.2.2' }) },
    {
      name: 'generated secondary capture',
      bytes: buildStudy([{ seriesNumber: 7, slices: 1, sopClassUID: '1.2.840.10008.5.1.4.1.1.7' }])[0]!.bytes,
    },
    { name: 'generated MR with every Table E.1-1 attribute planted', bytes: buildPlantedDicom().bytes },
    {
      name: 'generated MR with every Table E.1-1 attribute planted, every retain option on',
      bytes: buildPlantedDicom('1.2.840.10008.1.2.1', 'R').bytes,
      options: {
        retainLongitudinalDates: true,
        retainPatientCharacteristics: true,
        retainUids: true,
        retainInstitutionIdentity: true,
        retainPhysicianIdentity: true,
      },
    },
  ];
}

type Outcome = { name: string; before: number; added: string[] };

async function check(cases: Case[]): Promise<Outcome[]> {
  return pooled(cases, 4, async (entry) => {
    const slug = entry.name.replace(/[^A-Za-z0-9]+/g, '-');
    const input = join(WORK, `${slug}.in.dcm`);
    const output = join(WORK, `${slug}.out.dcm`);
    writeFileSync(input, entry.bytes);
    writeFileSync(output, deidentifyDicom(entry.bytes, context(entry.options)).bytes);
    const [before, after] = await Promise.all([verify(input), verify(output)]);
    return { name: entry.name, before: before.size, added: [...after].filter((line) => !before.has(line)) };
  });
}

describe('de-identified files stay valid DICOM (dciodvfy)', () => {
  it('adds no dciodvfy error to any series of the shared data (every vendor and transfer syntax)', async () => {
    // Prepare
    const cases = sharedCases();
    const folders = new Set(cases.map((entry) => entry.name.split('/')[0]));
    const sharedFolders = readdirSync(SHARED_DICOM, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect([...folders].sort()).toEqual(sharedFolders.map((entry) => entry.name).sort());
    expect(cases.length).toBeGreaterThanOrEqual(15);
    // Act
    const outcomes = await check(cases);
    // Assess
    expect(outcomes.filter((outcome) => outcome.added.length > 0)).toEqual([]);
    expect(outcomes.map((outcome) => outcome.name)).toContain('enhanced-mr-small/emri_small_jpeg_2k_lossless.dcm');
  });

  it('adds no dciodvfy error to the generated files', async () => {
    const outcomes = await check(generatedCases());
    expect(outcomes.filter((outcome) => outcome.added.length > 0)).toEqual([]);
  });
});

describe('the IOD type table (shared/dicom/deidentify/iod-types.json)', () => {
  it('is what scripts/generate-iod-types.ts writes from the PS3.3 rendering installed with libgdcm-tools', () => {
    // Act
    const out = join(WORK, 'iod-types.json');
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/generate-iod-types.ts', '--out', out], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    // Assess
    expect(run.status, run.stderr).toBe(0);
    const committed = readFileSync(join(REPO_ROOT, 'shared/dicom/deidentify/iod-types.json'), 'utf8');
    expect(readFileSync(out, 'utf8')).toBe(committed);
  });
});
