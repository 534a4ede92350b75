import { toDicomJson, type DicomJsonDataset } from '#shared/dicom/dicom-json.ts';
import { bulkValueOf, PixelDataError, pixelSourceOf } from '#shared/dicom/frames.ts';
import { renderFrame, type RenderedMediaType, type RenderOptions } from '#shared/dicom/render.ts';
import { TAG } from '#shared/dicom/tags.ts';
import { wildcardMatches } from '#shared/dicom/wildcard.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import type { DatasetRecord, DatasetRepository, SeriesRecord } from '#shared/domain/datasets/ports.ts';
import type { AuditLog } from '#shared/domain/ports.ts';
import type { IntegrationRecord } from '#shared/domain/integrations/ports.ts';
import { walkDatasets } from '#shared/domain/datasets/walk-datasets.ts';
import { withoutHeldSeries } from '#shared/domain/datasets/held-series.ts';
import { NotFoundError, RuleError, ValidationError } from '#shared/domain/errors.ts';
import { studyKeys } from '#shared/domain/object-keys.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import { isDicomUid } from '#shared/schemas/api/common.ts';

/**
 * QIDO-RS and WADO-RS (PS3.18 10.4 and 10.6) over a hospital's de-identified instances: the copies the pipeline wrote
 * to the studies bucket, never a raw upload (docs/dicom-intake.md#wado-rs). Studies are found from the datasets'
 * series items; attributes are read from the de-identified files themselves. Every search and retrieval starts from
 * studiesOf, which keeps only what the client may read (its team, docs/dicom-intake.md#team-bound-clients) and leaves
 * out series held for burned-in text until they are released (docs/dicom-intake.md#held-series).
 */
export type ReadDeps = {
  datasets: DatasetRepository;
  objects: Pick<ObjectStore, 'list' | 'get'>;
  directory: Pick<Directory, 'getTeam'>;
};

/** The client reading: its hospital, and its id and team when it is bound to one. */
export type ReadingClient = Pick<IntegrationRecord, 'id' | 'hospitalId' | 'teamId'>;

export type QidoLevel = 'study' | 'series' | 'instance';
export type QidoRequest = {
  level: QidoLevel;
  study?: string;
  series?: string;
  /** Query parameters as received (each may repeat). */
  params: Record<string, string[]>;
  /** Base of RetrieveURL values (…/dicomweb). */
  baseUrl: string;
};

/** Matching keys of PS3.18 Table 10.6.1-5 by keyword, and the attributes each level returns (10.6.3.3). */
const KEYWORDS: Record<string, string> = {
  StudyDate: TAG.StudyDate,
  StudyTime: '00080030',
  AccessionNumber: '00080050',
  ModalitiesInStudy: '00080061',
  ReferringPhysicianName: '00080090',
  PatientName: TAG.PatientName,
  PatientID: TAG.PatientID,
  PatientBirthDate: '00100030',
  PatientSex: '00100040',
  StudyInstanceUID: TAG.StudyInstanceUID,
  StudyID: '00200010',
  StudyDescription: TAG.StudyDescription,
  Modality: TAG.Modality,
  SeriesInstanceUID: TAG.SeriesInstanceUID,
  SeriesNumber: TAG.SeriesNumber,
  SeriesDescription: TAG.SeriesDescription,
  PerformedProcedureStepStartDate: '00400244',
  PerformedProcedureStepStartTime: '00400245',
  SOPClassUID: TAG.SOPClassUID,
  SOPInstanceUID: TAG.SOPInstanceUID,
  InstanceNumber: TAG.InstanceNumber,
  Rows: '00280010',
  Columns: '00280011',
  BitsAllocated: '00280100',
  NumberOfFrames: '00280008',
};
const COMPUTED = {
  InstanceAvailability: '00080056',
  RetrieveURL: '00081190',
  NumberOfStudyRelatedSeries: '00201206',
  NumberOfStudyRelatedInstances: '00201208',
  NumberOfSeriesRelatedInstances: '00201209',
} as const;
const STUDY_TAGS = [
  'StudyDate',
  'StudyTime',
  'AccessionNumber',
  'ReferringPhysicianName',
  'PatientName',
  'PatientID',
  'PatientBirthDate',
  'PatientSex',
  'StudyInstanceUID',
  'StudyID',
].map((k) => KEYWORDS[k]!);
const SERIES_TAGS = [
  'Modality',
  'SeriesDescription',
  'SeriesInstanceUID',
  'SeriesNumber',
  'PerformedProcedureStepStartDate',
  'PerformedProcedureStepStartTime',
].map((k) => KEYWORDS[k]!);
const INSTANCE_TAGS = [
  'SOPClassUID',
  'SOPInstanceUID',
  'InstanceNumber',
  'Rows',
  'Columns',
  'BitsAllocated',
  'NumberOfFrames',
].map((k) => KEYWORDS[k]!);
const UID_TAGS = new Set([TAG.StudyInstanceUID, TAG.SeriesInstanceUID, TAG.SOPInstanceUID, TAG.SOPClassUID]);
const CONTROL_PARAMS = new Set(['limit', 'offset', 'includefield', 'fuzzymatching']);
export const QIDO_LIMIT = { default: 100, max: 1000 } as const;

type InstanceRef = { datasetId: string; seriesUID: string; sopInstanceUID: string; key: string; size: number };
/** One copy of a series: the series item of one dataset. `rank` orders the copies, the newest dataset last. */
type SeriesCopy = { datasetId: string; record: SeriesRecord; rank: string };
/** A series as DICOMweb shows it: every copy of its SeriesInstanceUID among the datasets, newest last. */
type SeriesEntry = { record: SeriesRecord; copies: SeriesCopy[] };
type StudyEntry = { studyUID: string; series: SeriesEntry[] };

/**
 * Which of the hospital's datasets a client may read (docs/dicom-intake.md#team-bound-clients). A client without a
 * team reads the whole hospital. One bound to a team reads only that team's datasets, under the team's data policy
 * read now (a change takes effect at once, as for users, docs/domain.md#teams): under shared, all of them; under
 * individual, only those it stored itself (it owns them, as a member owns their uploads; a machine is no lead). A team
 * no longer found shows nothing.
 */
async function readableBy(client: ReadingClient, deps: ReadDeps): Promise<(dataset: DatasetRecord) => boolean> {
  const teamId = client.teamId;
  if (teamId === undefined) return () => true;
  const team = await deps.directory.getTeam(client.hospitalId, teamId);
  if (!team) return () => false;
  if (team.dataPolicy === 'individual')
    return (dataset) => dataset.teamId === teamId && dataset.ownerUserId === client.id;
  return (dataset) => dataset.teamId === teamId;
}

/**
 * The de-identified studies a client may read: the datasets of its reach (readableBy) past de-identification, grouped
 * by their (new) StudyInstanceUID, without the series held for burned-in text. The one place QIDO-RS and WADO-RS learn
 * what exists, so another team's study and a held series are absent from every level of a search and its counts
 * (ModalitiesInStudy, NumberOfStudyRelated*), and a retrieval of either answers 404 as for one that does not exist
 * (PS3.18 8.7.3); a study whose every series is held is not there.
 *
 * A study sent again after its commit lands in a dataset of its own, with the same de-identified UIDs. DICOMweb shows
 * one instance per SOP Instance UID (docs/dicom-intake.md#sent-again): the copies of a series are one series, and
 * of an instance's copies the newest dataset's replaces the others (instancesOf).
 */
async function studiesOf(client: ReadingClient, deps: ReadDeps): Promise<Map<string, StudyEntry>> {
  const { hospitalId } = client;
  const readable = await readableBy(client, deps);
  const studies = new Map<string, StudyEntry>();
  const processed: { id: string; rank: string }[] = [];
  await walkDatasets(deps.datasets, hospitalId, (dataset) => {
    if (dataset.deidentifiedAt && readable(dataset))
      processed.push({ id: dataset.id, rank: `${dataset.createdAt}#${dataset.id}` });
  });
  processed.sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
  for (const { id: datasetId, rank } of processed) {
    for (const record of withoutHeldSeries(await deps.datasets.listSeries(hospitalId, datasetId))) {
      const studyUID = record.studyInstanceUID;
      if (!studyUID) continue;
      const entry = studies.get(studyUID) ?? { studyUID, series: [] };
      const copy = { datasetId, record, rank };
      const series = entry.series.find((s) => s.record.seriesInstanceUID === record.seriesInstanceUID);
      if (series) {
        series.copies.push(copy);
        series.record = record;
      } else entry.series.push({ record, copies: [copy] });
      studies.set(studyUID, entry);
    }
  }
  return studies;
}

/** A series' instances, one per SOP Instance UID: where copies overlap, the newest dataset's (copies run oldest first). */
async function instancesOf(hospitalId: string, series: SeriesEntry, deps: ReadDeps): Promise<InstanceRef[]> {
  const instances = new Map<string, InstanceRef>();
  for (const copy of series.copies) {
    const objects = await deps.objects.list('studies', studyKeys.series(hospitalId, copy.datasetId, copy.record.id));
    for (const o of objects) {
      if (!o.key.endsWith('.dcm')) continue;
      const sopInstanceUID = o.key.slice(o.key.lastIndexOf('/') + 1, -'.dcm'.length);
      instances.set(sopInstanceUID, {
        datasetId: copy.datasetId,
        seriesUID: series.record.seriesInstanceUID,
        sopInstanceUID,
        key: o.key,
        size: o.size,
      });
    }
  }
  return [...instances.values()];
}

function tagOf(name: string): string | undefined {
  if (/^[0-9A-Fa-f]{8}$/.test(name)) return name.toUpperCase();
  return KEYWORDS[name] ?? (COMPUTED as Record<string, string>)[name];
}

/** PS3.4 C.2.2.2: single value, wildcard (* ?), UID list, and range (dates and times) matching. */
export function matches(value: string, key: string, tag: string, vr: string): boolean {
  if (key === '' || key === '*') return true;
  if (UID_TAGS.has(tag as never)) return key.split(/[,\\]/).some((uid) => uid.trim() === value);
  if ((vr === 'DA' || vr === 'TM' || vr === 'DT') && key.includes('-')) {
    const [from = '', to = ''] = key.split('-');
    return (from === '' || value >= from) && (to === '' || value.slice(0, to.length) <= to);
  }
  if (/[*?]/.test(key)) return wildcardMatches(value, key, vr === 'PN');
  return vr === 'PN' ? value.toLowerCase() === key.toLowerCase() : value === key;
}

function valuesOf(dataset: DicomJsonDataset, tag: string): string[] {
  const values = dataset[tag]?.Value ?? [];
  return values.map((v) =>
    v && typeof v === 'object' ? String((v as { Alphabetic?: string }).Alphabetic ?? '') : String(v ?? ''),
  );
}

type Candidate = { base: () => Promise<DicomJsonDataset> };

function parseQuery(request: QidoRequest) {
  const filters: { tag: string; key: string }[] = [];
  const include = new Set<string>();
  let all = false;
  let limit: number = QIDO_LIMIT.default;
  let offset = 0;
  for (const [name, values] of Object.entries(request.params)) {
    for (const value of values) {
      if (name === 'limit' || name === 'offset') {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 0) throw new ValidationError();
        if (name === 'limit') limit = Math.min(n, QIDO_LIMIT.max) || QIDO_LIMIT.default;
        else offset = n;
      } else if (name === 'includefield') {
        for (const field of value.split(',')) {
          if (field.trim() === 'all') all = true;
          else {
            const tag = tagOf(field.trim());
            if (!tag) throw new ValidationError();
            include.add(tag);
          }
        }
      } else if (!CONTROL_PARAMS.has(name)) {
        const tag = tagOf(name);
        if (!tag) throw new ValidationError();
        filters.push({ tag, key: value });
      }
    }
  }
  return { filters, include, all, limit, offset };
}

function pick(source: DicomJsonDataset, tags: Iterable<string>, into: DicomJsonDataset): void {
  for (const tag of tags) if (source[tag]) into[tag] = source[tag];
}

function str(vr: string, value: unknown): { vr: string; Value: unknown[] } {
  return { vr, Value: [value] };
}

/** QIDO-RS: the matching studies, series or instances as DICOM JSON (application/dicom+json). */
export async function searchDicom(
  client: ReadingClient,
  request: QidoRequest,
  deps: ReadDeps,
): Promise<DicomJsonDataset[]> {
  const query = parseQuery(request);
  for (const uid of [request.study, request.series]) if (uid !== undefined && !isDicomUid(uid)) return [];
  const studies = await studiesOf(client, deps);
  const headers = new Map<string, Promise<DicomJsonDataset>>();
  const header = (key: string) => {
    let cached = headers.get(key);
    if (!cached) {
      cached = deps.objects.get('studies', key).then(toDicomJson);
      headers.set(key, cached);
    }
    return cached;
  };
  const candidates: Candidate[] = [];
  for (const study of studies.values()) {
    if (request.study && study.studyUID !== request.study) continue;
    const seriesList = study.series.filter((s) => !request.series || s.record.seriesInstanceUID === request.series);
    const modalities = [...new Set(study.series.map((s) => s.record.modality).filter(Boolean))].sort();
    // Counted from the instances served (one per SOP Instance UID), not the series items' file counts, so an instance
    // sent twice counts once.
    let instancesByStudy: Promise<number> | undefined;
    const studyComputed = async (into: DicomJsonDataset) => {
      instancesByStudy ??= Promise.all(study.series.map((s) => instancesOf(client.hospitalId, s, deps))).then((all) =>
        all.reduce((n, refs) => n + refs.length, 0),
      );
      into[KEYWORDS.ModalitiesInStudy!] = { vr: 'CS', Value: modalities };
      into[COMPUTED.NumberOfStudyRelatedSeries] = str('IS', study.series.length);
      into[COMPUTED.NumberOfStudyRelatedInstances] = str('IS', await instancesByStudy);
    };
    if (request.level === 'study') {
      candidates.push({
        base: async () => {
          const refs = await instancesOf(client.hospitalId, study.series[0]!, deps);
          const out: DicomJsonDataset = refs[0] ? { ...(await header(refs[0].key)) } : {};
          await studyComputed(out);
          out[COMPUTED.RetrieveURL] = str('UR', `${request.baseUrl}/studies/${study.studyUID}`);
          out[TAG.StudyInstanceUID] = str('UI', study.studyUID);
          return out;
        },
      });
      continue;
    }
    for (const series of seriesList) {
      if (request.level === 'series') {
        candidates.push({
          base: async () => {
            const refs = await instancesOf(client.hospitalId, series, deps);
            const out: DicomJsonDataset = refs[0] ? { ...(await header(refs[0].key)) } : {};
            await studyComputed(out);
            out[COMPUTED.NumberOfSeriesRelatedInstances] = str('IS', refs.length);
            out[COMPUTED.RetrieveURL] = str(
              'UR',
              `${request.baseUrl}/studies/${study.studyUID}/series/${series.record.seriesInstanceUID}`,
            );
            return out;
          },
        });
        continue;
      }
      for (const ref of await instancesOf(client.hospitalId, series, deps)) {
        candidates.push({
          base: async () => {
            const out: DicomJsonDataset = { ...(await header(ref.key)) };
            await studyComputed(out);
            out[COMPUTED.RetrieveURL] = str(
              'UR',
              `${request.baseUrl}/studies/${study.studyUID}/series/${ref.seriesUID}/instances/${ref.sopInstanceUID}`,
            );
            return out;
          },
        });
      }
    }
  }
  const levelTags =
    request.level === 'study'
      ? [
          ...STUDY_TAGS,
          KEYWORDS.ModalitiesInStudy!,
          COMPUTED.NumberOfStudyRelatedSeries,
          COMPUTED.NumberOfStudyRelatedInstances,
        ]
      : request.level === 'series'
        ? [...SERIES_TAGS, TAG.StudyInstanceUID, COMPUTED.NumberOfSeriesRelatedInstances]
        : [...INSTANCE_TAGS, TAG.StudyInstanceUID, TAG.SeriesInstanceUID];
  const results: DicomJsonDataset[] = [];
  let skipped = 0;
  for (const candidate of candidates) {
    if (results.length >= query.limit) break;
    const full = await candidate.base();
    const ok = query.filters.every(({ tag, key }) => {
      const vr = full[tag]?.vr ?? '';
      const values = valuesOf(full, tag);
      return key === '' || key === '*' ? true : values.some((value) => matches(value, key, tag, vr));
    });
    if (!ok) continue;
    if (skipped < query.offset) {
      skipped++;
      continue;
    }
    const out: DicomJsonDataset = {};
    if (query.all) Object.assign(out, full);
    pick(full, levelTags, out);
    pick(full, query.include, out);
    pick(
      full,
      query.filters.map((f) => f.tag),
      out,
    );
    out[COMPUTED.InstanceAvailability] = str('CS', 'ONLINE');
    out[COMPUTED.RetrieveURL] = full[COMPUTED.RetrieveURL]!;
    results.push(Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b))));
  }
  return results;
}

type Target = { study: string; series?: string; instance?: string };
type InstanceTarget = { study: string; series: string; instance: string };

/** The de-identified instances a WADO-RS request names (study, series or one instance); 404 when there are none. */
export async function instancesFor(client: ReadingClient, target: Target, deps: ReadDeps): Promise<InstanceRef[]> {
  if (![target.study, target.series, target.instance].every((uid) => uid === undefined || isDicomUid(uid)))
    throw new NotFoundError();
  const studies = await studiesOf(client, deps);
  const study = studies.get(target.study);
  if (!study) throw new NotFoundError();
  const refs: InstanceRef[] = [];
  for (const series of study.series) {
    if (target.series && series.record.seriesInstanceUID !== target.series) continue;
    for (const ref of await instancesOf(client.hospitalId, series, deps)) {
      if (target.instance && ref.sopInstanceUID !== target.instance) continue;
      refs.push(ref);
    }
  }
  if (refs.length === 0) throw new NotFoundError();
  return refs;
}

/**
 * One proxy answer carries at most 6 MB, base64 included (Lambda's limit on a synchronous response): over this many
 * bytes a retrieval is staged in the studies bucket and its client sent there (docs/dicom-intake.md#large-retrievals).
 */
export const WADO_INLINE_MAX_BYTES = 4 * 1024 * 1024;
/**
 * The most one retrieval gathers: the function holds the instances and their multipart body in memory (1 GiB); a
 * larger study is retrieved series by series.
 */
export const WADO_MAX_BYTES = 256 * 1024 * 1024;

function withinAnswer(sizes: number[]): void {
  if (sizes.reduce((n, size) => n + size, 0) > WADO_MAX_BYTES)
    throw new RuleError('RESPONSE_TOO_LARGE', { n: WADO_MAX_BYTES });
}

/** The de-identified files of a WADO-RS request, each one PS3.10 instance (bounded by WADO_MAX_BYTES). */
export async function retrieveInstances(client: ReadingClient, target: Target, deps: ReadDeps): Promise<Uint8Array[]> {
  const refs = await instancesFor(client, target, deps);
  withinAnswer(refs.map((r) => r.size));
  const files: Uint8Array[] = [];
  for (const ref of refs) files.push(await deps.objects.get('studies', ref.key));
  return files;
}

/**
 * WADO-RS metadata: the DICOM JSON of each de-identified instance. With `baseUrl`, bulk data is named by a BulkDataURI
 * under the instance's own URL (…/bulkdata/{tag}, PS3.18 F.2.6), small binary values inline; without, left out.
 */
export async function retrieveMetadata(
  client: ReadingClient,
  target: Target,
  deps: ReadDeps,
  baseUrl?: string,
): Promise<DicomJsonDataset[]> {
  const refs = await instancesFor(client, target, deps);
  const out: DicomJsonDataset[] = [];
  for (const ref of refs) {
    const instanceUrl = `${baseUrl}/studies/${target.study}/series/${ref.seriesUID}/instances/${ref.sopInstanceUID}`;
    const uris = baseUrl === undefined ? undefined : (tag: string) => `${instanceUrl}/bulkdata/${tag}`;
    out.push(toDicomJson(await deps.objects.get('studies', ref.key), uris));
  }
  return out;
}

/** What a frames retrieval answers: the frames as served, and the syntax they are in (PS3.18 8.7.3.5). */
export type RetrievedFrames = { transferSyntaxUID: string; encapsulated: boolean; frames: Uint8Array[] };

async function oneInstance(client: ReadingClient, target: InstanceTarget, deps: ReadDeps): Promise<Uint8Array> {
  const [ref] = await instancesFor(client, target, deps);
  return deps.objects.get('studies', ref!.key);
}

/**
 * WADO-RS frames (PS3.18 8.3.4.1 and 8.7.3.5): the numbered frames of one instance, uncompressed ones little endian,
 * compressed ones as stored. A number past the instance's frames, or an instance without pixel data, answers 404.
 */
export async function retrieveFrames(
  client: ReadingClient,
  target: InstanceTarget,
  numbers: number[],
  deps: ReadDeps,
): Promise<RetrievedFrames> {
  const file = await oneInstance(client, target, deps);
  try {
    const source = pixelSourceOf(file);
    const frames = numbers.map((n) => {
      const frame = source.frame(n);
      if (!frame) throw new NotFoundError();
      return frame;
    });
    withinAnswer(frames.map((f) => f.byteLength));
    return { transferSyntaxUID: source.transferSyntaxUID, encapsulated: source.encapsulated, frames };
  } catch (error) {
    if (error instanceof PixelDataError) throw new NotFoundError();
    throw error;
  }
}

/** WADO-RS bulk data (PS3.18 8.3.5.4, F.2.6): the value a metadata BulkDataURI names; 404 when there is none. */
export async function retrieveBulkData(
  client: ReadingClient,
  target: InstanceTarget,
  tag: string,
  deps: ReadDeps,
): Promise<Uint8Array> {
  const value = bulkValueOf(await oneInstance(client, target, deps), tag);
  if (!value) throw new NotFoundError();
  withinAnswer([value.byteLength]);
  return value;
}

/** A rendering the server cannot make (a compressed syntax it does not decode) is not acceptable in that media type. */
function rendered(file: Uint8Array, mediaType: RenderedMediaType, options: RenderOptions): Uint8Array {
  try {
    return renderFrame(pixelSourceOf(file), 1, mediaType, options);
  } catch (error) {
    if (error instanceof PixelDataError) throw new RuleError('MEDIA_TYPE_NOT_AVAILABLE');
    throw error;
  }
}

/**
 * WADO-RS rendered (PS3.18 8.3.5 and 9.5): each instance of the target (one instance, or a series' instances) as an
 * image of `mediaType`, its first frame (docs/dicom-intake.md#frames-bulk-data-and-renderings).
 */
export async function retrieveRendered(
  client: ReadingClient,
  target: { study: string; series: string; instance?: string },
  mediaType: RenderedMediaType,
  options: RenderOptions,
  deps: ReadDeps,
): Promise<Uint8Array[]> {
  const refs = await instancesFor(client, target, deps);
  const images: Uint8Array[] = [];
  let total = 0;
  for (const ref of refs) {
    const image = rendered(await deps.objects.get('studies', ref.key), mediaType, options);
    total += image.byteLength;
    withinAnswer([total]);
    images.push(image);
  }
  return images;
}

type Reader = { integration: IntegrationRecord; audit: AuditLog };

/** Every DICOMweb read is audited: the client, what it asked for (UIDs of de-identified data only) and how much. */
async function audited<T extends unknown[]>(
  reader: Reader,
  action: 'DICOMWEB_SEARCH' | 'DICOMWEB_RETRIEVE' | 'DICOMWEB_METADATA',
  details: Record<string, unknown>,
  read: () => Promise<T>,
): Promise<T> {
  const { integration, audit } = reader;
  const entry = {
    hospitalId: integration.hospitalId,
    action,
    actorUserId: integration.id,
    actorName: integration.name,
  };
  try {
    const result = await read();
    await audit.record({ ...entry, details: { integrationId: integration.id, ...details, results: result.length } });
    return result;
  } catch (error) {
    const outcome = error instanceof NotFoundError ? 'DENIED' : 'FAILURE';
    await audit.record({ ...entry, outcome, details: { integrationId: integration.id, ...details } });
    throw error;
  }
}

/** QIDO-RS for an integration, audited. */
export function searchAs(reader: Reader, request: QidoRequest, deps: ReadDeps): Promise<DicomJsonDataset[]> {
  return audited(
    reader,
    'DICOMWEB_SEARCH',
    { level: request.level, study: request.study, series: request.series },
    () => searchDicom(reader.integration, request, deps),
  );
}

/** WADO-RS instances for an integration, audited. */
export function retrieveAs(reader: Reader, target: Target, deps: ReadDeps): Promise<Uint8Array[]> {
  return audited(reader, 'DICOMWEB_RETRIEVE', target, () => retrieveInstances(reader.integration, target, deps));
}

/** WADO-RS metadata for an integration, audited; bulk data named under `baseUrl`. */
export function metadataAs(
  reader: Reader,
  target: Target,
  deps: ReadDeps,
  baseUrl?: string,
): Promise<DicomJsonDataset[]> {
  return audited(reader, 'DICOMWEB_METADATA', target, () =>
    retrieveMetadata(reader.integration, target, deps, baseUrl),
  );
}

/** WADO-RS frames for an integration, audited as a retrieval of the instance's frames. */
export async function framesAs(
  reader: Reader,
  target: InstanceTarget,
  numbers: number[],
  deps: ReadDeps,
): Promise<RetrievedFrames> {
  let result: RetrievedFrames | undefined;
  await audited(reader, 'DICOMWEB_RETRIEVE', { ...target, frames: numbers }, async () => {
    result = await retrieveFrames(reader.integration, target, numbers, deps);
    return result.frames;
  });
  return result!;
}

/** WADO-RS bulk data for an integration, audited as a retrieval of the attribute (its tag, never its value). */
export async function bulkDataAs(reader: Reader, target: InstanceTarget, tag: string, deps: ReadDeps) {
  const [value] = await audited(reader, 'DICOMWEB_RETRIEVE', { ...target, bulkData: tag }, async () => [
    await retrieveBulkData(reader.integration, target, tag, deps),
  ]);
  return value!;
}

/** WADO-RS rendered for an integration, audited as a retrieval with the media type. */
export function renderedAs(
  reader: Reader,
  target: { study: string; series: string; instance?: string },
  mediaType: RenderedMediaType,
  options: RenderOptions,
  deps: ReadDeps,
): Promise<Uint8Array[]> {
  return audited(reader, 'DICOMWEB_RETRIEVE', { ...target, rendered: mediaType }, () =>
    retrieveRendered(reader.integration, target, mediaType, options, deps),
  );
}
