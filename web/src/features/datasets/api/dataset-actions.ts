import { mutate } from 'swr';
import { z } from 'zod';
import { DatasetSchema, SeriesSchema } from '#shared/schemas/api/datasets.ts';
import {
  RedactSeriesRequestSchema,
  SeriesPreviewSchema,
  type RedactionRectangle,
} from '#shared/schemas/api/redaction.ts';
import { type ClassifiedType } from '#shared/vocabulary/datasets.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { datasetKey } from './get-dataset.ts';
import { RECYCLE_BIN_KEY } from './recycle-bin.ts';

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

/** One frame of a held series, for its review (a lead or admin); every frame shown is audited. */
export function getSeriesPreview(datasetId: string, seriesId: string, frame: number) {
  return apiRequest(
    `/api/datasets/${encodeURIComponent(datasetId)}/series/${encodeURIComponent(seriesId)}/preview`,
    SeriesPreviewSchema,
    { query: { frame } },
  );
}

/** "Redact and release": the rectangles are blanked in every frame, then the series is released and processed. */
export async function redactSeries(datasetId: string, seriesId: string, rectangles: RedactionRectangle[]) {
  const body = RedactSeriesRequestSchema.parse({ rectangles });
  const series = await apiRequest(
    `/api/datasets/${encodeURIComponent(datasetId)}/series/${encodeURIComponent(seriesId)}/redact`,
    SeriesSchema,
    { method: 'POST', body },
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

/** Moves the dataset to the recycle bin (docs/domain.md#recycle-bin), with the reason kept in the audit trail. */
export async function deleteDataset(datasetId: string, reason?: string) {
  await apiRequest(`/api/datasets/${encodeURIComponent(datasetId)}`, z.unknown(), {
    method: 'DELETE',
    body: reason?.trim() ? { reason: reason.trim() } : {},
  });
  await mutate((key) => Array.isArray(key) && (key[0] === '/api/datasets' || key[0] === RECYCLE_BIN_KEY));
}

/** Puts or lifts a legal hold (docs/domain.md#legal-hold): a held dataset cannot be deleted. */
export async function setLegalHold(datasetId: string, on: boolean, reason: string) {
  const dataset = await apiRequest(`/api/datasets/${encodeURIComponent(datasetId)}/legal-hold`, DatasetSchema, {
    method: 'PUT',
    body: { on, reason },
  });
  await revalidateDataset(datasetId);
  return dataset;
}

/** A hospital admin brings a dataset back from the recycle bin into its lists. */
export async function restoreDataset(datasetId: string) {
  const dataset = await apiRequest(`/api/datasets/${encodeURIComponent(datasetId)}/restore`, DatasetSchema, {
    method: 'POST',
    body: {},
  });
  await mutate((key) => Array.isArray(key) && (key[0] === '/api/datasets' || key[0] === RECYCLE_BIN_KEY));
  return dataset;
}
