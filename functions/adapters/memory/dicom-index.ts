import { withoutKeys } from '#shared/definitions/table/keys.ts';
import type { DatasetRecord, SeriesRecord } from '#shared/domain/datasets/ports.ts';
import type { DicomIndex, GuardItems } from '#shared/domain/intake/dicom-index.ts';
import { instanceItem, keyRangeOf, seriesItem, studyItem } from '#functions/adapters/dynamo/dicom-index-items.ts';

export type MemoryDicomIndex = DicomIndex & {
  /** Items read by queries since the last reset, as DynamoDB's ScannedCount would count them. */
  read: { items: number; queries: number };
  /** The dataset and series items the guards read (a dataset with deletedAt is in the recycle bin). */
  datasets: Map<string, DatasetRecord>;
  series: Map<string, SeriesRecord>;
};

/**
 * The DICOMweb index in memory, with the DynamoDB adapter's contract: the same items and key ranges (keyRangeOf), in
 * sort-key order, a page of `limit` items and a key to go on.
 */
export function createMemoryDicomIndex(): MemoryDicomIndex {
  const items = new Map<string, Record<string, unknown>>();
  const index: MemoryDicomIndex = {
    read: { items: 0, queries: 0 },
    datasets: new Map(),
    series: new Map(),
    async put({ studies, series, instances }) {
      for (const item of [...instances.map(instanceItem), ...series.map(seriesItem), ...studies.map(studyItem)])
        items.set(`${String(item.pk)}|${String(item.sk)}`, item);
    },
    async guardItems(hospitalId, refs) {
      const found: GuardItems = { datasets: new Map(), series: new Map() };
      for (const ref of refs) {
        const dataset = index.datasets.get(ref.datasetId);
        if (dataset && dataset.hospitalId === hospitalId && !dataset.deletedAt)
          found.datasets.set(ref.datasetId, dataset);
        const key = `${ref.datasetId}#${ref.seriesUID}`;
        const series = index.series.get(key);
        if (series && series.hospitalId === hospitalId) found.series.set(key, series);
      }
      return found;
    },
    async query(hospitalId, query, page) {
      const range = keyRangeOf(hospitalId, query);
      const sortKey = (item: Record<string, unknown>) => String(item[range.skName]);
      const inRange = (sk: string) =>
        'prefix' in range.range ? sk.startsWith(range.range.prefix) : sk >= range.range.from && sk <= range.range.to;
      const after = page.startKey ? String(page.startKey[range.skName]) : undefined;
      const matching = [...items.values()]
        .filter((item) => item[range.pkName] === range.pk && inRange(sortKey(item)))
        .sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0))
        .filter((item) => after === undefined || sortKey(item) > after);
      const taken = matching.slice(0, page.limit);
      index.read.queries++;
      index.read.items += taken.length;
      const last = taken.at(-1);
      return {
        items: taken.map((item) => withoutKeys(item)) as never[],
        ...(matching.length > page.limit && last ? { next: { [range.skName]: sortKey(last) } } : {}),
      };
    },
  };
  return index;
}
