import type { NiftiOutput } from '#shared/dicom/convert.ts';
import { hasSpatialTransform, readNiftiHeader } from '#shared/dicom/nifti.ts';
import { zipFiles } from './zip.ts';

/** The BIDS specification version the dataset is written to (bids-validator 1.x checks against this schema). */
export const BIDS_VERSION = '1.8.0';

export type BidsSeriesInput = {
  output: NiftiOutput;
  /** The series' BIDS datatype, suffix and the entities its headers give (the classifier's suggestion). */
  bids: { datatype: string; suffix: string; entities?: Record<string, string> };
};

/**
 * Entities written into file names, in the order BIDS gives them (Appendix "Entity table": task, acq, ce, rec, dir,
 * run, echo, part), and the ones BIDS allows per datatype for the suffixes written here. task and run are the
 * exporter's own; the rest come from the series' headers.
 */
const ENTITY_ORDER = ['acq', 'ce', 'rec', 'dir', 'echo', 'part'] as const;
const ALLOWED_ENTITIES: Record<string, ReadonlySet<string>> = {
  anat: new Set(['acq', 'ce', 'rec', 'part']),
  func: new Set(['acq', 'ce', 'rec', 'dir', 'echo', 'part']),
  dwi: new Set(['acq', 'rec', 'dir', 'part']),
};

/** The header entities a series carries into its file name: allowed for its datatype, labels reduced to letters and digits. */
function headerEntities(input: BidsSeriesInput): { before: string[]; after: string[] } {
  const allowed = ALLOWED_ENTITIES[input.bids.datatype] ?? new Set<string>();
  const pairs = ENTITY_ORDER.flatMap((key) => {
    const value = toBidsLabel(input.bids.entities?.[key] ?? '');
    return allowed.has(key) && value ? [`${key}-${value}`] : [];
  });
  // run sits between dir and echo.
  return {
    before: pairs.filter((pair) => !/^(echo|part)-/.test(pair)),
    after: pairs.filter((pair) => /^(echo|part)-/.test(pair)),
  };
}

export type BidsDatasetOptions = {
  /** Subject label (letters and digits; anything else is removed, as BIDS labels allow no other characters). */
  subject: string;
  session?: string;
  /** dataset_description.json Name. */
  name?: string;
  /** Date written in CHANGES (default: today). */
  date?: Date;
};

export type BidsDatasetEntry = {
  path: string;
  seriesInstanceUID?: string;
  seriesNumber?: number;
  datatype: string;
  suffix: string;
};

export type BidsDataset = {
  files: Map<string, Uint8Array | string>;
  /** One entry per series written: its NIfTI path inside the dataset. */
  entries: BidsDatasetEntry[];
  /**
   * Series left out, with why: a BIDS type whose required metadata dcm2niix cannot supply, diffusion without gradients,
   * or an image without orientation (BIDS tools would read it as LAS without telling anyone).
   */
  skipped: { baseName: string; seriesNumber?: number; reason: string }[];
};

/**
 * Suffixes this exporter writes, per datatype: those whose REQUIRED sidecar fields come from dcm2niix alone.
 * Others (ASL needs aslcontext.tsv and labelling parameters, PET needs tracer and blood data, field maps need their
 * partner images and IntendedFor, MP2RAGE needs inversion entities) are reported as skipped rather than written invalid.
 */
const SUPPORTED: Record<string, ReadonlySet<string>> = {
  anat: new Set(['T1w', 'T2w', 'FLAIR', 'PDw', 'T2starw', 'PDT2', 'inplaneT1', 'inplaneT2', 'angio']),
  dwi: new Set(['dwi']),
  func: new Set(['bold', 'sbref']),
};

/**
 * A BIDS raw dataset from converted series: `sub-<s>[/ses-<x>]/<datatype>/sub-<s>[_ses-<x>][_task-<t>][_acq-…][_ce-…][_rec-…][_dir-…][_run-<n>][_echo-…][_part-…]_<suffix>.nii.gz`
 * with its JSON sidecar (and .bval/.bvec for dwi), plus dataset_description.json, participants.tsv/json, README and
 * CHANGES. The entities between task and suffix are those the series' headers give (the classifier's, where BIDS allows
them for the datatype). Names never collide: series that share datatype, task, entities and suffix get run-1, run-2,
... in series order.
 * Functional series get a task label from the series description (TaskName in the sidecar, as BIDS requires).
 * Browser-safe.
 */
export function buildBidsDataset(series: BidsSeriesInput[], options: BidsDatasetOptions): BidsDataset {
  const subject = toBidsLabel(options.subject);
  if (!subject) throw new Error('A BIDS subject label needs at least one letter or digit');
  const session = options.session !== undefined ? toBidsLabel(options.session) : undefined;
  if (options.session !== undefined && !session)
    throw new Error('A BIDS session label needs at least one letter or digit');
  const prefix = session ? `sub-${subject}_ses-${session}` : `sub-${subject}`;
  const folder = session ? `sub-${subject}/ses-${session}` : `sub-${subject}`;

  const skipped: BidsDataset['skipped'] = [];
  const planned: {
    input: BidsSeriesInput;
    task?: string;
    named: { before: string[]; after: string[] };
    key: string;
  }[] = [];
  const ordered = [...series].sort(
    (a, b) =>
      (a.output.seriesNumber ?? 0) - (b.output.seriesNumber ?? 0) || a.output.baseName.localeCompare(b.output.baseName),
  );
  for (const input of ordered) {
    const { datatype, suffix } = input.bids;
    const reason = unsupportedReason(input);
    if (reason) {
      skipped.push({
        baseName: input.output.baseName,
        ...(input.output.seriesNumber !== undefined ? { seriesNumber: input.output.seriesNumber } : {}),
        reason,
      });
      continue;
    }
    const task = datatype === 'func' ? taskLabel(input.output.sidecar) : undefined;
    const named = headerEntities(input);
    planned.push({
      input,
      task,
      named,
      key: `${datatype}|${task ?? ''}|${[...named.before, ...named.after].join('_')}|${suffix}`,
    });
  }

  const counts = new Map<string, number>();
  for (const item of planned) counts.set(item.key, (counts.get(item.key) ?? 0) + 1);
  const runs = new Map<string, number>();
  const files = new Map<string, Uint8Array | string>();
  const entries: BidsDatasetEntry[] = [];
  for (const { input, task, named, key } of planned) {
    const { datatype, suffix } = input.bids;
    const run = (runs.get(key) ?? 0) + 1;
    runs.set(key, run);
    const entities = [
      prefix,
      task ? `task-${task}` : undefined,
      ...named.before,
      counts.get(key)! > 1 ? `run-${run}` : undefined,
      ...named.after,
    ]
      .filter(Boolean)
      .join('_');
    const stem = `${folder}/${datatype}/${entities}_${suffix}`;
    const sidecar: Record<string, unknown> = { ...input.output.sidecar };
    if (task) sidecar.TaskName = taskName(input.output.sidecar, task);
    files.set(`${stem}.nii.gz`, input.output.nifti);
    files.set(`${stem}.json`, `${JSON.stringify(sidecar, null, 2)}\n`);
    if (datatype === 'dwi') {
      files.set(`${stem}.bval`, ensureNewline(input.output.bval!));
      files.set(`${stem}.bvec`, ensureNewline(input.output.bvec!));
    }
    entries.push({
      path: `${stem}.nii.gz`,
      datatype,
      suffix,
      ...(input.output.seriesInstanceUID ? { seriesInstanceUID: input.output.seriesInstanceUID } : {}),
      ...(input.output.seriesNumber !== undefined ? { seriesNumber: input.output.seriesNumber } : {}),
    });
  }

  const converter = converterVersion(ordered);
  files.set(
    'dataset_description.json',
    `${JSON.stringify(
      {
        Name: options.name ?? 'Imaging Workspace export',
        BIDSVersion: BIDS_VERSION,
        DatasetType: 'raw',
        GeneratedBy: [
          { Name: 'dcm2niix', ...(converter ? { Version: converter } : {}) },
          { Name: 'Imaging Workspace', Description: 'DICOM to BIDS export' },
        ],
      },
      null,
      2,
    )}\n`,
  );
  files.set('participants.tsv', `participant_id\nsub-${subject}\n`);
  files.set(
    'participants.json',
    `${JSON.stringify({ participant_id: { Description: 'Subject label (de-identified)' } }, null, 2)}\n`,
  );
  files.set('README', readme(entries.length, skipped.length));
  files.set(
    'CHANGES',
    `1.0.0 ${(options.date ?? new Date()).toISOString().slice(0, 10)}\n  - Exported from Imaging Workspace (DICOM converted with dcm2niix).\n`,
  );
  return { files, entries, skipped };
}

/** The dataset as a ZIP (deflate level 6). */
export function zipBidsDataset(
  dataset: Pick<BidsDataset, 'files'>,
  options: { date?: Date } = {},
): Promise<Uint8Array> {
  return zipFiles(dataset.files, options);
}

/** BIDS labels are alphanumeric only (BIDS "label" definition). */
export function toBidsLabel(value: string): string {
  return value.replace(/[^a-zA-Z0-9]/g, '');
}

function unsupportedReason(input: BidsSeriesInput): string | undefined {
  const { datatype, suffix } = input.bids;
  if (!SUPPORTED[datatype]?.has(suffix))
    return `BIDS ${datatype}/${suffix} needs metadata the DICOM conversion does not provide`;
  if (datatype === 'dwi' && (!input.output.bval || !input.output.bvec))
    return 'diffusion series without b-values and gradient directions';
  if (datatype === 'func' && typeof input.output.sidecar.RepetitionTime !== 'number')
    return 'functional series without RepetitionTime';
  if (!hasSpatialTransform(readNiftiHeader(input.output.nifti)))
    return 'no spatial orientation in the DICOM (Image Orientation/Position missing)';
  return undefined;
}

function taskLabel(sidecar: Record<string, unknown>): string {
  const description = String(sidecar.TaskName ?? sidecar.SeriesDescription ?? sidecar.ProtocolName ?? '');
  const match = description.toLowerCase().match(/task[-_ ]?([a-z0-9]+)/);
  if (match?.[1]) return match[1];
  if (/rest/i.test(description)) return 'rest';
  return 'unknown';
}

function taskName(sidecar: Record<string, unknown>, label: string): string {
  return typeof sidecar.TaskName === 'string' && sidecar.TaskName.trim() ? sidecar.TaskName : label;
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

function converterVersion(series: BidsSeriesInput[]): string | undefined {
  const version = series
    .map((item) => item.output.sidecar.ConversionSoftwareVersion)
    .find((value) => typeof value === 'string');
  return version as string | undefined;
}

function readme(written: number, skipped: number): string {
  return [
    'Imaging Workspace BIDS export',
    '',
    'Raw MRI data converted from de-identified DICOM with dcm2niix (NIfTI-1 and JSON sidecars; .bval/.bvec for diffusion).',
    `Series written: ${written}. Series left out (a BIDS type needing metadata DICOM does not carry, or no orientation): ${skipped}.`,
    'Subject and session labels are pseudonyms chosen at export; no names, record numbers or birth dates are included.',
    '',
  ].join('\n');
}
