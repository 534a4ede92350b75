import { mutate } from 'swr';
import { z } from 'zod';
import { DatasetSchema, SeriesSchema } from '#shared/schemas/api/datasets.ts';
import { type ClassifiedType } from '#shared/vocabulary/datasets.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { datasetKey } from './get-dataset.ts';

const revalidateDataset = (id: string) =>
  Promise.all([
    mutate(datasetKey(id)),
    mutate(
      (key) =>
        Array.isArray(key) &&
        (key[0] === '/api/datasets' || (key[1] === id && String(key[0]).startsWith('/api/datasets/{id}'))),
    ),
  ]);

/** A person's classification (stored as MANUAL, the model's label kept beside it). */
export async function classifySeries(datasetId: string, seriesId: string, classifiedType: ClassifiedType) {
  const series = await apiRequest(
    `/api/datasets/${encodeURIComponent(datasetId)}/series/${encodeURIComponent(seriesId)}/classify`,
    SeriesSchema,
    { method: 'POST', body: { classifiedType } },
  );
  await revalidateDataset(datasetId);
  return series;
}

/** A lead or admin releases a series held for possible burned-in text; a COMPLETE dataset is processed again. */
export async function releaseSeries(datasetId: string, seriesId: string) {
  const series = await apiRequest(
    `/api/datasets/${encodeURIComponent(datasetId)}/series/${encodeURIComponent(seriesId)}/release`,
    SeriesSchema,
    { method: 'POST', body: {} },
  );
  await revalidateDataset(datasetId);
  return series;
}

export async function selectSeries(datasetId: string, seriesSelections: { seriesId: string; selected: boolean }[]) {
  const result = await apiRequest(
    `/api/datasets/${encodeURIComponent(datasetId)}/series/selection`,
    z.object({ items: z.array(SeriesSchema) }),
    { method: 'PATCH', body: { seriesSelections } },
  );
  await revalidateDataset(datasetId);
  return result.items;
}

export async function retryDataset(datasetId: string) {
  const dataset = await apiRequest(`/api/datasets/${encodeURIComponent(datasetId)}/retry`, DatasetSchema, {
    method: 'POST',
    body: {},
  });
  await revalidateDataset(datasetId);
  return dataset;
}

export async function deleteDataset(datasetId: string) {
  await apiRequest(`/api/datasets/${encodeURIComponent(datasetId)}`, z.unknown(), { method: 'DELETE' });
  await mutate((key) => Array.isArray(key) && key[0] === '/api/datasets');
}
