import { toDicomJson, type DicomJsonDataset } from '#shared/dicom/dicom-json.ts';
import { bulkValueOf, PixelDataError, pixelSourceOf } from '#shared/dicom/frames.ts';
import { renderFrame, type RenderedMediaType, type RenderOptions } from '#shared/dicom/render.ts';
import { TAG } from '#shared/dicom/tags.ts';
import { wildcardMatches } from '#shared/dicom/wildcard.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import type { DatasetRecord } from '#shared/domain/datasets/ports.ts';
import type { AuditLog } from '#shared/domain/ports.ts';
import type { IntegrationRecord } from '#shared/domain/integrations/ports.ts';
import { withoutHeldSeries } from '#shared/domain/datasets/held-series.ts';
import { NotFoundError, RuleError, ValidationError } from '#shared/domain/errors.ts';
import {
  INDEXED_TAGS,
  type CopyRef,
  type DicomIndex,
  type IndexedInstance,
  type IndexedSeries,
  type IndexedStudy,
  type IndexQuery,
  type IndexItemOf,
} from './dicom-index.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import { isDicomUid } from '#shared/schemas/api/common.ts';

/**
 * QIDO-RS and WADO-RS (PS3.18 10.4 and 10.6) over a hospital's de-identified instances: the copies the pipeline wrote
 * to the studies bucket, never a raw upload (docs/dicom-intake.md#wado-rs). Studies, series and instances are found in
 * the DICOMweb index (docs/dicom-intake.md#the-dicomweb-index), by the keys the request names; every copy found passes
 * guardFor, which keeps only what the client may read (its team, docs/dicom-intake.md#team-bound-clients), leaves out
 * datasets in the recycle bin and series held for burned-in text until they are released
 * (docs/dicom-intake.md#held-series).
 */
export type ReadDeps = {
  objects: Pick<ObjectStore, 'get'>;
  directory: Pick<Directory, 'getTeam'>;
  dicomIndex: DicomIndex;
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
/**
 * The most index items one search examines past its offset (docs/dicom-intake.md#the-dicomweb-index): a search whose
 * keys do not narrow it (a wildcard on a description, say) reads at most this many, and when they run out before its
 * limit is filled the answer says it may be partial (PS3.18 8.3.4.4 and 6.7.1.2.3, Warning 299).
 */
export const QIDO_SCAN_MAX = 1000;
/** Candidates completed at once. */
const QIDO_PARALLEL = 32;
/** Candidates guarded together: their dataset and series items in one batch of reads (BatchGetItem). */
const QIDO_GUARD_BATCH = 100;

/** `task` over `items`, at most `limit` at a time, the results in the items' order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  });
  await Promise.all(workers);
  return results;
}

type InstanceRef = { datasetId: string; seriesUID: string; sopInstanceUID: string; key: string; size: number };

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

/**
 * Whether a copy of a series may be read: its dataset's and the series' state now
 * (docs/dicom-intake.md#the-dicomweb-index). `prefetch` reads the state of many copies in few requests.
 */
type Guard = ((datasetId: string, seriesUID: string) => Promise<boolean>) & {
  prefetch(refs: readonly CopyRef[]): Promise<void>;
};

/**
 * The read guards over index items: a copy is read only when its dataset is live (not in the recycle bin), past
 * de-identification and within the client's reach (readableBy), and its series is not held (withoutHeldSeries). The
 * dataset and series items are read by key, many at once, and once per request.
 */
async function guardFor(client: ReadingClient, deps: ReadDeps): Promise<Guard> {
  const readable = await readableBy(client, deps);
  const known = new Map<string, Promise<boolean>>();
  const keyOf = (r: CopyRef) => `${r.datasetId}#${r.seriesUID}`;
  const fetch = (refs: readonly CopyRef[]) => {
    const missing = [...new Map(refs.filter((r) => !known.has(keyOf(r))).map((r) => [keyOf(r), r])).values()];
    if (missing.length === 0) return;
    const items = deps.dicomIndex.guardItems(client.hospitalId, missing);
    for (const ref of missing)
      known.set(
        keyOf(ref),
        items.then(({ datasets, series }) => {
          const dataset = datasets.get(ref.datasetId);
          if (!dataset?.deidentifiedAt || !readable(dataset)) return false;
          const record = series.get(keyOf(ref));
          return record !== undefined && withoutHeldSeries([record]).length === 1;
        }),
      );
  };
  const guard = (datasetId: string, seriesUID: string) => {
    fetch([{ datasetId, seriesUID }]);
    return known.get(keyOf({ datasetId, seriesUID }))!;
  };
  guard.prefetch = async (refs: readonly CopyRef[]) => {
    fetch(refs);
    await Promise.all(refs.map((r) => known.get(keyOf(r))));
  };
  return guard;
}

/** The copies a group of index items names, for Guard.prefetch. */
function refsOf(group: readonly (IndexedStudy | IndexedSeries | IndexedInstance)[]): CopyRef[] {
  return group.flatMap((copy) =>
    'seriesUID' in copy
      ? [{ datasetId: copy.datasetId, seriesUID: copy.seriesUID }]
      : Object.keys(copy.series).map((seriesUID) => ({ datasetId: copy.datasetId, seriesUID })),
  );
}

/** What a search has read; `cut` when it stopped at its budget with more to read. */
type Reads = { items: number; queries: number; cut?: boolean };

/**
 * The items of index queries, page after page, the copies of one UID together (they lie side by side in key order,
 * oldest first). `pageSize` items a read; the caller stops when it has what it needs.
 */
async function* copiesOf<Q extends IndexQuery>(
  hospitalId: string,
  queries: readonly Q[],
  uidOf: (item: IndexItemOf<Q>) => string,
  pageSize: number,
  deps: ReadDeps,
  reads: Reads,
  budget = Number.POSITIVE_INFINITY,
): AsyncGenerator<IndexItemOf<Q>[]> {
  for (const query of queries) {
    if (reads.items >= budget) {
      reads.cut = true;
      return;
    }
    let group: IndexItemOf<Q>[] = [];
    let startKey: Record<string, unknown> | undefined;
    // Each further page twice the last (up to QIDO_LIMIT.max items, and never past the budget).
    let limit = pageSize;
    do {
      const page = await deps.dicomIndex.query(hospitalId, query, {
        limit: Math.max(1, Math.min(limit, budget - reads.items)),
        startKey,
      });
      limit = Math.min(limit * 2, QIDO_LIMIT.max);
      reads.queries++;
      reads.items += page.items.length;
      for (const item of page.items) {
        if (group.length > 0 && uidOf(group[0]!) !== uidOf(item)) {
          yield group;
          group = [];
        }
        group.push(item);
      }
      startKey = page.next;
      if (startKey && reads.items >= budget) {
        reads.cut = true;
        break;
      }
    } while (startKey);
    if (group.length > 0) yield group;
  }
}

async function allCopies<Q extends IndexQuery>(
  hospitalId: string,
  query: Q,
  uidOf: (item: IndexItemOf<Q>) => string,
  deps: ReadDeps,
): Promise<IndexItemOf<Q>[][]> {
  const groups: IndexItemOf<Q>[][] = [];
  const reads = { items: 0, queries: 0 };
  for await (const group of copiesOf(hospitalId, [query], uidOf, QIDO_LIMIT.max, deps, reads)) groups.push(group);
  return groups;
}

/** The newest copy the guard lets through (copies run oldest first), if any. */
async function newestVisible<T extends { datasetId: string; seriesUID: string }>(
  copies: readonly T[],
  guard: Guard,
): Promise<T | undefined> {
  for (let i = copies.length - 1; i >= 0; i--)
    if (await guard(copies[i]!.datasetId, copies[i]!.seriesUID)) return copies[i];
  return undefined;
}

/** A study as served: the newest visible copy's attributes, and its series not held among every visible copy. */
type StudyView = { copy: IndexedStudy; series: Map<string, { modality: string; copies: string[]; instances: number }> };

async function studyView(copies: readonly IndexedStudy[], guard: Guard): Promise<StudyView | undefined> {
  let copy: IndexedStudy | undefined;
  const series: StudyView['series'] = new Map();
  for (const c of copies) {
    for (const [seriesUID, s] of Object.entries(c.series)) {
      if (!(await guard(c.datasetId, seriesUID))) continue;
      copy = c;
      const entry = series.get(seriesUID) ?? { modality: s.modality, copies: [], instances: 0 };
      entry.copies.push(c.datasetId);
      entry.instances = s.instances;
      entry.modality = s.modality || entry.modality;
      series.set(seriesUID, entry);
    }
  }
  return copy ? { copy, series } : undefined;
}

/**
 * The instances of a series served, one per SOP Instance UID: its copy's count when one dataset holds it, else the
 * distinct instances of its visible copies (docs/dicom-intake.md#sent-again).
 */
async function servedInstances(
  hospitalId: string,
  studyUID: string,
  seriesUID: string,
  entry: { copies: string[]; instances: number },
  guard: Guard,
  deps: ReadDeps,
): Promise<number> {
  if (entry.copies.length <= 1) return entry.instances;
  const groups = await allCopies(hospitalId, { level: 'instance', studyUID, seriesUID }, (i) => i.sopUID, deps);
  let count = 0;
  for (const copies of groups) if (await newestVisible(copies, guard)) count++;
  return count;
}

/** The computed study attributes (PS3.18 Table 10.6.1-5) from the series served. */
async function studyComputed(hospitalId: string, view: StudyView, guard: Guard, deps: ReadDeps) {
  const modalities = [...new Set([...view.series.values()].map((s) => s.modality).filter(Boolean))].sort();
  let instances = 0;
  for (const [seriesUID, entry] of view.series)
    instances += await servedInstances(hospitalId, view.copy.studyUID, seriesUID, entry, guard, deps);
  return {
    [KEYWORDS.ModalitiesInStudy!]: { vr: 'CS', Value: modalities },
    [COMPUTED.NumberOfStudyRelatedSeries]: str('IS', view.series.size),
    [COMPUTED.NumberOfStudyRelatedInstances]: str('IS', instances),
  } as DicomJsonDataset;
}

/** A single UID of a matching key, or the UIDs of a list (PS3.4 C.2.2.2.2); none for a universal key. */
function uidsOf(filters: { tag: string; key: string }[], tag: string): string[] | undefined {
  const filter = filters.find((f) => f.tag === tag && f.key !== '' && f.key !== '*');
  if (!filter) return undefined;
  return [...new Set(filter.key.split(/[,\\]/).map((uid) => uid.trim()))].filter(isDicomUid);
}

function exactKey(filters: { tag: string; key: string }[], tag: string): string | undefined {
  const filter = filters.find((f) => f.tag === tag && f.key !== '' && !/[*?,\\]/.test(f.key));
  return filter?.key;
}

/** The index queries that narrow a search: the most selective key the request names (docs/dicom-intake.md). */
function narrowing(request: QidoRequest, filters: { tag: string; key: string }[]): IndexQuery[] {
  const studies = request.study ? [request.study] : uidsOf(filters, TAG.StudyInstanceUID);
  if (request.level === 'study') {
    if (studies) return studies.map((studyUID) => ({ level: 'study', studyUID }));
    const patientId = exactKey(filters, TAG.PatientID);
    if (patientId) return [{ level: 'study', patientId }];
    const accessionNumber = exactKey(filters, KEYWORDS.AccessionNumber!);
    if (accessionNumber) return [{ level: 'study', accessionNumber }];
    const date = filters.find((f) => f.tag === TAG.StudyDate && /^\d{8}$|^\d{0,8}-\d{0,8}$/.test(f.key));
    if (date && date.key !== '-') {
      const [from = '', to = from] = date.key.split('-');
      return [{ level: 'study', studyDate: { from, to: date.key.includes('-') ? to : from } }];
    }
    return [{ level: 'study' }];
  }
  const series = request.series ? [request.series] : uidsOf(filters, TAG.SeriesInstanceUID);
  if (request.level === 'series') {
    if (series) return series.map((seriesUID) => ({ level: 'series', studyUID: studies?.[0], seriesUID }));
    return (studies ?? [undefined]).map((studyUID) => ({ level: 'series', studyUID }));
  }
  const sops = uidsOf(filters, TAG.SOPInstanceUID);
  if (sops)
    return sops.map((sopUID) => ({ level: 'instance', studyUID: studies?.[0], seriesUID: series?.[0], sopUID }));
  if (series) return series.map((seriesUID) => ({ level: 'instance', studyUID: studies?.[0], seriesUID }));
  return (studies ?? [undefined]).map((studyUID) => ({ level: 'instance', studyUID }));
}

const COMPUTED_TAGS = new Set<string>([...Object.values(COMPUTED), KEYWORDS.ModalitiesInStudy!]);
const LEVEL_OWN: Record<QidoLevel, Set<string>> = {
  study: new Set(INDEXED_TAGS.study),
  series: new Set(INDEXED_TAGS.series),
  instance: new Set(INDEXED_TAGS.instance),
};
const ALL_INDEXED = new Set<string>([...INDEXED_TAGS.study, ...INDEXED_TAGS.series, ...INDEXED_TAGS.instance]);

function passes(full: DicomJsonDataset, filters: { tag: string; key: string }[]): boolean {
  return filters.every(({ tag, key }) => {
    if (key === '' || key === '*') return true;
    const vr = full[tag]?.vr ?? '';
    return valuesOf(full, tag).some((value) => matches(value, key, tag, vr));
  });
}

/** A QIDO-RS answer; `partial` when the search stopped at QIDO_SCAN_MAX before its limit was filled. */
export type QidoAnswer = DicomJsonDataset[] & { partial?: boolean };

/**
 * QIDO-RS: the matching studies, series or instances as DICOM JSON (application/dicom+json), from the index. The
 * narrowing key picks the items read (narrowing); each group of copies is matched first on its own level's indexed
 * attributes, and only then guarded and completed with its study's and series' attributes and the computed ones, so
 * a search reads the items its keys name and at most QIDO_SCAN_MAX more, never the whole hospital.
 */
export async function searchDicom(client: ReadingClient, request: QidoRequest, deps: ReadDeps): Promise<QidoAnswer> {
  const query = parseQuery(request);
  const answer: QidoAnswer = [];
  for (const uid of [request.study, request.series]) if (uid !== undefined && !isDicomUid(uid)) return answer;
  const { hospitalId } = client;
  const guard = await guardFor(client, deps);
  const needsHeader =
    query.all ||
    [...query.include, ...query.filters.map((f) => f.tag)].some(
      (tag) => !ALL_INDEXED.has(tag) && !COMPUTED_TAGS.has(tag) && tag !== COMPUTED.RetrieveURL,
    );
  const headers = new Map<string, Promise<DicomJsonDataset>>();
  const header = (key: string) => {
    let cached = headers.get(key);
    if (!cached) {
      cached = deps.objects.get('studies', key).then(toDicomJson);
      headers.set(key, cached);
    }
    return cached;
  };
  const studyViews = new Map<string, Promise<StudyView | undefined>>();
  const studyOf = (studyUID: string) => {
    let cached = studyViews.get(studyUID);
    if (!cached) {
      cached = allCopies(hospitalId, { level: 'study', studyUID }, (s) => s.studyUID, deps).then((groups) =>
        studyView(groups.flat(), guard),
      );
      studyViews.set(studyUID, cached);
    }
    return cached;
  };
  const seriesCopies = new Map<string, Promise<IndexedSeries | undefined>>();
  const seriesOf = (studyUID: string, seriesUID: string) => {
    const id = `${studyUID}#${seriesUID}`;
    let cached = seriesCopies.get(id);
    if (!cached) {
      cached = allCopies(hospitalId, { level: 'series', studyUID, seriesUID }, (s) => s.seriesUID, deps).then(
        (groups) => newestVisible(groups.flat(), guard),
      );
      seriesCopies.set(id, cached);
    }
    return cached;
  };
  const own = LEVEL_OWN[request.level];
  const ownFilters = query.filters.filter((f) => own.has(f.tag));

  /** The full attributes of a group of copies, or undefined when no copy may be read. */
  async function fullOf(
    copies: (IndexedStudy | IndexedSeries | IndexedInstance)[],
  ): Promise<DicomJsonDataset | undefined> {
    const studyUID = copies[0]!.studyUID;
    // At the study level the group is the study's copies: no second read of them.
    if (request.level === 'study' && !studyViews.has(studyUID))
      studyViews.set(studyUID, studyView(copies as IndexedStudy[], guard));
    const view = await studyOf(studyUID);
    if (!view) return undefined;
    let out: DicomJsonDataset;
    let objectKey: string;
    if (request.level === 'study') {
      out = { ...view.copy.attributes, ...(await studyComputed(hospitalId, view, guard, deps)) };
      objectKey = view.copy.objectKey;
      out[COMPUTED.RetrieveURL] = str('UR', `${request.baseUrl}/studies/${studyUID}`);
    } else if (request.level === 'series') {
      const copy = await newestVisible(copies as IndexedSeries[], guard);
      const entry = copy && view.series.get(copy.seriesUID);
      if (!copy || !entry) return undefined;
      const instances = await servedInstances(hospitalId, studyUID, copy.seriesUID, entry, guard, deps);
      out = { ...view.copy.attributes, ...(await studyComputed(hospitalId, view, guard, deps)), ...copy.attributes };
      out[COMPUTED.NumberOfSeriesRelatedInstances] = str('IS', instances);
      out[COMPUTED.RetrieveURL] = str('UR', `${request.baseUrl}/studies/${studyUID}/series/${copy.seriesUID}`);
      objectKey = copy.objectKey;
    } else {
      const copy = await newestVisible(copies as IndexedInstance[], guard);
      if (!copy) return undefined;
      const series = await seriesOf(studyUID, copy.seriesUID);
      out = {
        ...view.copy.attributes,
        ...(await studyComputed(hospitalId, view, guard, deps)),
        ...series?.attributes,
        ...copy.attributes,
      };
      out[TAG.SeriesInstanceUID] ??= str('UI', copy.seriesUID);
      out[COMPUTED.RetrieveURL] = str(
        'UR',
        `${request.baseUrl}/studies/${studyUID}/series/${copy.seriesUID}/instances/${copy.sopUID}`,
      );
      objectKey = copy.objectKey;
    }
    out[TAG.StudyInstanceUID] = str('UI', studyUID);
    if (needsHeader) out = { ...(await header(objectKey)), ...out };
    return out;
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
  const uidOf = (item: IndexedStudy | IndexedSeries | IndexedInstance) =>
    'sopUID' in item ? `${item.seriesUID}#${item.sopUID}` : 'seriesUID' in item ? item.seriesUID : item.studyUID;
  const budget = query.offset + QIDO_SCAN_MAX;
  // The first page is the answer's size (one more, to close its last group); the pages after it grow.
  const pageSize = Math.min(QIDO_LIMIT.max, query.offset + query.limit + 1);
  const reads: Reads = { items: 0, queries: 0 };
  let skipped = 0;
  type Group = (IndexedStudy | IndexedSeries | IndexedInstance)[];
  const pending: Group[] = [];
  /** Completes the candidates gathered, QIDO_PARALLEL at a time, and takes the matches in key order. */
  const drain = async () => {
    const groups = pending.splice(0);
    await guard.prefetch(groups.flatMap(refsOf));
    const fulls = await mapLimited(groups, QIDO_PARALLEL, fullOf);
    for (const full of fulls) {
      if (answer.length >= query.limit) return;
      if (!full || !passes(full, query.filters)) continue;
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
      answer.push(Object.fromEntries(Object.entries(out).sort(([x], [y]) => x.localeCompare(y))));
    }
  };
  for await (const copies of copiesOf(
    hospitalId,
    narrowing(request, query.filters),
    uidOf as never,
    pageSize,
    deps,
    reads,
    budget,
  )) {
    const group = copies as Group;
    if (answer.length >= query.limit) break;
    // Within the request's study and series (a UID found by its own index may lie in another study).
    if (request.study && group[0]!.studyUID !== request.study) continue;
    if (request.series && 'seriesUID' in group[0]! && group[0].seriesUID !== request.series) continue;
    // First on the level's own attributes (the newest copy's), so what cannot match is never guarded nor completed.
    if (!passes(group.at(-1)!.attributes, ownFilters)) continue;
    pending.push(group);
    // Enough candidates to fill the answer if they all match: guard them together (one batch of reads).
    if (pending.length >= Math.min(QIDO_GUARD_BATCH, query.offset + query.limit - skipped - answer.length))
      await drain();
    // Filled: the next page is never read.
    if (answer.length >= query.limit) break;
  }
  await drain();
  if (reads.cut && answer.length < query.limit) answer.partial = true;
  return answer;
}

type Target = { study: string; series?: string; instance?: string };
type InstanceTarget = { study: string; series: string; instance: string };

/**
 * The de-identified instances a WADO-RS request names (study, series or one instance), from the index items of that
 * study, series or instance only: one per SOP Instance UID, its newest copy the guards let through; 404 when there are
 * none.
 */
export async function instancesFor(client: ReadingClient, target: Target, deps: ReadDeps): Promise<InstanceRef[]> {
  if (![target.study, target.series, target.instance].every((uid) => uid === undefined || isDicomUid(uid)))
    throw new NotFoundError();
  if (target.instance && !target.series) throw new NotFoundError();
  const guard = await guardFor(client, deps);
  const groups = await allCopies(
    client.hospitalId,
    { level: 'instance', studyUID: target.study, seriesUID: target.series, sopUID: target.instance },
    (i) => `${i.seriesUID}#${i.sopUID}`,
    deps,
  );
  await guard.prefetch(groups.flatMap(refsOf));
  const refs: InstanceRef[] = [];
  for (const copies of groups) {
    const copy = await newestVisible(copies, guard);
    if (!copy) continue;
    refs.push({
      datasetId: copy.datasetId,
      seriesUID: copy.seriesUID,
      sopInstanceUID: copy.sopUID,
      key: copy.objectKey,
      size: copy.size,
    });
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
export function searchAs(reader: Reader, request: QidoRequest, deps: ReadDeps): Promise<QidoAnswer> {
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
