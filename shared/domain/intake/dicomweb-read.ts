import { toDicomJson, type DicomJsonDataset } from '#shared/dicom/dicom-json.ts';
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
type SeriesEntry = { datasetId: string; record: SeriesRecord };
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
 */
async function studiesOf(client: ReadingClient, deps: ReadDeps): Promise<Map<string, StudyEntry>> {
  const { hospitalId } = client;
  const readable = await readableBy(client, deps);
  const studies = new Map<string, StudyEntry>();
  const processed: string[] = [];
  await walkDatasets(deps.datasets, hospitalId, (dataset) => {
    if (dataset.deidentifiedAt && readable(dataset)) processed.push(dataset.id);
  });
  for (const datasetId of processed) {
    for (const record of withoutHeldSeries(await deps.datasets.listSeries(hospitalId, datasetId))) {
      const studyUID = record.studyInstanceUID;
      if (!studyUID) continue;
      const entry = studies.get(studyUID) ?? { studyUID, series: [] };
      entry.series.push({ datasetId, record });
      studies.set(studyUID, entry);
    }
  }
  return studies;
}

async function instancesOf(hospitalId: string, series: SeriesEntry, deps: ReadDeps): Promise<InstanceRef[]> {
  const objects = await deps.objects.list('studies', studyKeys.series(hospitalId, series.datasetId, series.record.id));
  return objects
    .filter((o) => o.key.endsWith('.dcm'))
    .map((o) => ({
      datasetId: series.datasetId,
      seriesUID: series.record.seriesInstanceUID,
      sopInstanceUID: o.key.slice(o.key.lastIndexOf('/') + 1, -'.dcm'.length),
      key: o.key,
      size: o.size,
    }));
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
    const instancesByStudy = study.series.reduce((n, s) => n + (s.record.fileCount ?? s.record.sliceCount), 0);
    const studyComputed = (into: DicomJsonDataset) => {
      into[KEYWORDS.ModalitiesInStudy!] = { vr: 'CS', Value: modalities };
      into[COMPUTED.NumberOfStudyRelatedSeries] = str('IS', study.series.length);
      into[COMPUTED.NumberOfStudyRelatedInstances] = str('IS', instancesByStudy);
    };
    if (request.level === 'study') {
      candidates.push({
        base: async () => {
          const refs = await instancesOf(client.hospitalId, study.series[0]!, deps);
          const out: DicomJsonDataset = refs[0] ? { ...(await header(refs[0].key)) } : {};
          studyComputed(out);
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
            studyComputed(out);
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
            studyComputed(out);
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

/** The object keys of the de-identified instances a WADO-RS request names (study, series or one instance). */
export async function instancesFor(
  client: ReadingClient,
  target: { study: string; series?: string; instance?: string },
  deps: ReadDeps,
): Promise<{ key: string; size: number }[]> {
  if (![target.study, target.series, target.instance].every((uid) => uid === undefined || isDicomUid(uid)))
    throw new NotFoundError();
  const studies = await studiesOf(client, deps);
  const study = studies.get(target.study);
  if (!study) throw new NotFoundError();
  const keys: { key: string; size: number }[] = [];
  for (const series of study.series) {
    if (target.series && series.record.seriesInstanceUID !== target.series) continue;
    for (const ref of await instancesOf(client.hospitalId, series, deps)) {
      if (target.instance && ref.sopInstanceUID !== target.instance) continue;
      keys.push({ key: ref.key, size: ref.size });
    }
  }
  if (keys.length === 0) throw new NotFoundError();
  return keys;
}

/**
 * One proxy answer carries at most 6 MB, base64 included (Lambda's limit on a synchronous response): a retrieval over
 * this many bytes of instances is refused, and the client retrieves series or instances one at a time.
 */
export const WADO_MAX_BYTES = 4 * 1024 * 1024;

/** The de-identified files of a WADO-RS request, each one PS3.10 instance (bounded by WADO_MAX_BYTES). */
export async function retrieveInstances(
  client: ReadingClient,
  target: { study: string; series?: string; instance?: string },
  deps: ReadDeps,
): Promise<Uint8Array[]> {
  const refs = await instancesFor(client, target, deps);
  const total = refs.reduce((n, r) => n + r.size, 0);
  if (total > WADO_MAX_BYTES) throw new RuleError('RESPONSE_TOO_LARGE', { n: WADO_MAX_BYTES });
  const files: Uint8Array[] = [];
  for (const ref of refs) files.push(await deps.objects.get('studies', ref.key));
  return files;
}

/** WADO-RS metadata: the DICOM JSON of each de-identified instance, bulk data left out. */
export async function retrieveMetadata(
  client: ReadingClient,
  target: { study: string; series?: string; instance?: string },
  deps: ReadDeps,
): Promise<DicomJsonDataset[]> {
  const refs = await instancesFor(client, target, deps);
  const out: DicomJsonDataset[] = [];
  for (const ref of refs) out.push(toDicomJson(await deps.objects.get('studies', ref.key)));
  return out;
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
export function retrieveAs(
  reader: Reader,
  target: { study: string; series?: string; instance?: string },
  deps: ReadDeps,
): Promise<Uint8Array[]> {
  return audited(reader, 'DICOMWEB_RETRIEVE', target, () => retrieveInstances(reader.integration, target, deps));
}

/** WADO-RS metadata for an integration, audited. */
export function metadataAs(
  reader: Reader,
  target: { study: string; series?: string; instance?: string },
  deps: ReadDeps,
): Promise<DicomJsonDataset[]> {
  return audited(reader, 'DICOMWEB_METADATA', target, () => retrieveMetadata(reader.integration, target, deps));
}
