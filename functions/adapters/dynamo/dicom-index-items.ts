import { keys } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import { TAG } from '#shared/dicom/tags.ts';
import type { IndexedInstance, IndexedSeries, IndexedStudy, IndexQuery } from '#shared/domain/intake/dicom-index.ts';

/**
 * The DICOMweb index's items and key ranges (docs/dicom-intake.md#the-dicomweb-index), without the SDK: the DynamoDB
 * adapter and the one in memory build the same items and read the same ranges.
 */
function first(attributes: IndexedStudy['attributes'], tag: string): string {
  const value = attributes[tag]?.Value?.[0];
  return value === undefined || value === null || typeof value === 'object' ? '' : String(value);
}

/** The item of a study copy, with the index attributes its StudyDate, PatientID and AccessionNumber give. */
export function studyItem(s: IndexedStudy): Record<string, unknown> {
  return {
    ...keys.dicomStudy(s.hospitalId, s.studyUID, s.rank),
    ...keys.dicomStudyIndexes(s.hospitalId, {
      studyUID: s.studyUID,
      rank: s.rank,
      studyDate: first(s.attributes, TAG.StudyDate),
      patientId: first(s.attributes, TAG.PatientID),
      accessionNumber: first(s.attributes, '00080050'),
    }),
    entity: 'dicomStudy',
    ...s,
  };
}

export function seriesItem(s: IndexedSeries): Record<string, unknown> {
  return {
    ...keys.dicomSeries(s.hospitalId, s.studyUID, s.seriesUID, s.rank),
    ...keys.dicomSeriesIndexes(s.hospitalId, s.seriesUID, s.rank),
    entity: 'dicomSeries',
    ...s,
  };
}

export function instanceItem(i: IndexedInstance): Record<string, unknown> {
  return {
    ...keys.dicomInstance(i.hospitalId, i.studyUID, i.seriesUID, i.sopUID, i.rank),
    ...keys.dicomInstanceIndexes(i.hospitalId, i.sopUID, i.rank),
    entity: 'dicomInstance',
    ...i,
  };
}

/** The key range a query reads: a partition of the table or of an index, and a sort-key prefix or range. */
export type KeyRange = {
  index?: string;
  pkName: string;
  skName: string;
  pk: string;
  range: { prefix: string } | { from: string; to: string };
};

/** The key range of a query (keys.ts names every partition and prefix). */
export function keyRangeOf(hospitalId: string, query: IndexQuery): KeyRange {
  const P = TABLE_KEYS.primary;
  const base = (prefix: string): KeyRange => ({
    pkName: P.pk,
    skName: P.sk,
    pk: keys.dicomIndexPartition(hospitalId),
    range: { prefix },
  });
  const on = (partition: { index: string; pkName: string; skName: string; pk: string }, prefix: string) => ({
    ...partition,
    range: { prefix },
  });
  if (query.level === 'study') {
    if ('studyDate' in query)
      // Dates are YYYYMMDD: from the first study of `from` to the last of `to` (`~` sorts after every digit and `#`).
      return {
        ...keys.dicomStudyByDate(hospitalId),
        range: { from: query.studyDate.from || '0', to: `${query.studyDate.to || '99999999'}~` },
      };
    if ('patientId' in query) return on(keys.dicomStudyByPatientId(hospitalId, query.patientId), '');
    if ('accessionNumber' in query) return on(keys.dicomStudyByAccession(hospitalId, query.accessionNumber), '');
    return base(keys.dicomStudyPrefix(query.studyUID));
  }
  if (query.level === 'series') {
    if (query.seriesUID && !query.studyUID) return on(keys.dicomSeriesByUid(hospitalId), `${query.seriesUID}#`);
    return base(keys.dicomSeriesPrefix(query.studyUID, query.studyUID ? query.seriesUID : undefined));
  }
  if (query.sopUID && !(query.studyUID && query.seriesUID))
    return on(keys.dicomInstanceByUid(hospitalId), `${query.sopUID}#`);
  return base(keys.dicomInstancePrefix(query.studyUID, query.studyUID ? query.seriesUID : undefined, query.sopUID));
}
