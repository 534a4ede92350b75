import { isHeldForBurnedInText, type Series } from '#shared/schemas/api/datasets.ts';
import { countSeriesRelease } from '#shared/domain/dashboards/counters.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import { isLeadOrAdmin, type Caller } from '#shared/domain/auth/caller.ts';
import { AccessDeniedError, InvalidStateError, NotFoundError } from '#shared/domain/errors.ts';
import { changeStatus } from './change-status.ts';
import { loadVisibleDataset } from './load-dataset.ts';
import type { DatasetRecord, DatasetRepository, PipelineStarter } from './ports.ts';
import type { AuditLog, Clock, IdGenerator } from '#shared/domain/ports.ts';
import { toSeries } from './view.ts';

/**
 * A team lead or hospital admin releases a series held for possible burned-in text, having looked at it. Only a
 * dataset the pipeline is not writing can be changed: a COMPLETE dataset is processed again at once (COMPLETE →
 * UPLOADING and a new execution; de-identification and classification are already done and are skipped, conversion
 * now takes the released series, and surface, tracts and report are rebuilt); a FAILED dataset converts it on its
 * next retry. Releasing twice changes nothing.
 */
export async function releaseSeries(
  datasetId: string,
  seriesId: string,
  caller: Caller,
  deps: {
    datasets: DatasetRepository;
    audit: AuditLog;
    clock: Clock;
    ids: IdGenerator;
    pipeline: PipelineStarter;
    organisation: OrganisationCounters;
  },
): Promise<Series> {
  const dataset = await loadVisibleDataset(caller, datasetId, deps);
  if (!isLeadOrAdmin(caller)) throw new AccessDeniedError();
  const all = await deps.datasets.listSeries(caller.hospitalId, datasetId);
  const series = all.find((s) => s.id === seriesId);
  if (!series) throw new NotFoundError('SERIES_NOT_FOUND');
  if (!series.burnedInText) throw new InvalidStateError();
  if (series.burnedInText.releasedAt) return toSeries(series);
  if (dataset.status !== 'COMPLETE' && dataset.status !== 'FAILED') throw new InvalidStateError();

  const actor = { actorUserId: caller.userId, actorName: `${caller.firstName} ${caller.lastName}` };
  const updated = await deps.datasets.updateSeries(caller.hospitalId, datasetId, seriesId, {
    burnedInText: { ...series.burnedInText, releasedAt: deps.clock.now(), releasedByUserId: caller.userId },
  });
  await countSeriesRelease(
    deps.organisation,
    caller.hospitalId,
    all.some((s) => s.id !== seriesId && isHeldForBurnedInText(s)),
  );
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    datasetId,
    action: 'SERIES_RELEASED',
    ...actor,
    details: { seriesId, reasons: series.burnedInText.reasons },
  });
  await reprocessAfterRelease(dataset, seriesId, actor, deps);
  return toSeries(updated);
}

/**
 * After a release (as is or redacted): a COMPLETE dataset is processed again at once (COMPLETE → UPLOADING and a new
 * execution); a FAILED one converts the series on its next retry.
 */
export async function reprocessAfterRelease(
  dataset: DatasetRecord,
  seriesId: string,
  actor: { actorUserId: string; actorName: string },
  deps: {
    datasets: DatasetRepository;
    audit: AuditLog;
    clock: Clock;
    ids: IdGenerator;
    pipeline: PipelineStarter;
    /** The dashboards' and the reports' counters move with the status (docs/domain.md#counters). */
    organisation?: OrganisationCounters;
  },
): Promise<void> {
  if (dataset.status !== 'COMPLETE') return;
  const runId = deps.ids.newId();
  await changeStatus(deps, {
    hospitalId: dataset.hospitalId,
    datasetId: dataset.id,
    from: ['COMPLETE'],
    to: 'UPLOADING',
    ...actor,
    fields: { lastRunId: runId, updatedAt: deps.clock.now() },
    details: { releasedSeriesId: seriesId, runId },
  });
  await deps.pipeline.start({ hospitalId: dataset.hospitalId, datasetId: dataset.id, runId });
}
