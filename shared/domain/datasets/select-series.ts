import type { Series } from '#shared/schemas/api/datasets.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import { NotFoundError, ValidationError } from '#shared/domain/errors.ts';
import { loadVisibleDataset } from './load-dataset.ts';
import type { DatasetRepository } from './ports.ts';
import type { AuditLog } from '#shared/domain/ports.ts';
import { assertMayChangeSeries } from './series-changes.ts';
import { toSeries } from './view.ts';

/**
 * Chooses which series go on to processing (by the dataset's owner, their lead or an admin, before processing
 * starts); at least one series must stay selected (record: "At least one series must be selected").
 */
export async function selectSeries(
  datasetId: string,
  selections: { seriesId: string; selected: boolean }[],
  caller: Caller,
  deps: { datasets: DatasetRepository; audit: AuditLog },
): Promise<{ items: Series[] }> {
  const dataset = await loadVisibleDataset(caller, datasetId, deps);
  assertMayChangeSeries(caller, dataset);
  const series = await deps.datasets.listSeries(caller.hospitalId, datasetId);
  const byId = new Map(series.map((s) => [s.id, s]));
  for (const { seriesId } of selections) if (!byId.has(seriesId)) throw new NotFoundError('SERIES_NOT_FOUND');
  const wanted = new Map(selections.map((s) => [s.seriesId, s.selected]));
  if (series.length > 0 && !series.some((s) => wanted.get(s.id) ?? s.selected))
    throw new ValidationError('VALIDATION_FAILED', {}, [
      { path: 'seriesSelections', message: 'At least one series must be selected' },
    ]);
  const updated = await Promise.all(
    series.map((s) =>
      wanted.has(s.id) && wanted.get(s.id) !== s.selected
        ? deps.datasets.updateSeries(caller.hospitalId, datasetId, s.id, { selected: wanted.get(s.id)! })
        : Promise.resolve(s),
    ),
  );
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    datasetId,
    action: 'SERIES_SELECTION_CHANGED',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`,
    details: { selected: updated.filter((s) => s.selected).map((s) => s.id) },
  });
  return { items: updated.sort((a, b) => a.seriesNumber - b.seriesNumber).map(toSeries) };
}
