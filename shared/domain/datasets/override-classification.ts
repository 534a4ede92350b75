import type { Series } from '#shared/schemas/api/datasets.ts';
import type { ClassifiedType } from '#shared/vocabulary/datasets.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import { NotFoundError } from '#shared/domain/errors.ts';
import { loadVisibleDataset } from './load-dataset.ts';
import type { DatasetRepository } from './ports.ts';
import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import { assertMayChangeSeries } from './series-changes.ts';
import { toSeries } from './view.ts';

/** BIDS datatype/suffix for a type a person chose (the model's suggestion is replaced with the label's usual one). */
const BIDS_FOR: Record<ClassifiedType, { datatype: string; suffix: string }> = {
  T1: { datatype: 'anat', suffix: 'T1w' },
  T1_CONTRAST: { datatype: 'anat', suffix: 'T1w' },
  T2: { datatype: 'anat', suffix: 'T2w' },
  FLAIR: { datatype: 'anat', suffix: 'FLAIR' },
  SWI: { datatype: 'anat', suffix: 'swi' },
  DTI: { datatype: 'dwi', suffix: 'dwi' },
  DWI: { datatype: 'dwi', suffix: 'dwi' },
  OTHER: { datatype: 'anat', suffix: 'T1w' },
};

/**
 * A person overrides a series' classification: stored with source MANUAL and who did it; the model's own label
 * and confidence stay in modelType/modelConfidence so real-world accuracy can be reported. Only before processing,
 * by the dataset's owner, their lead or an admin.
 */
export async function overrideClassification(
  datasetId: string,
  seriesId: string,
  classifiedType: ClassifiedType,
  caller: Caller,
  deps: { datasets: DatasetRepository; audit: AuditLog; clock: Clock },
): Promise<Series> {
  assertMayChangeSeries(caller, await loadVisibleDataset(caller, datasetId, deps));
  const series = (await deps.datasets.listSeries(caller.hospitalId, datasetId)).find((s) => s.id === seriesId);
  if (!series) throw new NotFoundError('SERIES_NOT_FOUND');
  const previous = series.classification;
  const model =
    previous?.source === 'AI'
      ? previous
      : previous?.modelType
        ? { classifiedType: previous.modelType, confidence: previous.modelConfidence }
        : undefined;
  const classification = {
    classifiedType,
    confidence: 1,
    source: 'MANUAL' as const,
    reasons: [`Set by ${caller.firstName} ${caller.lastName}`.trim()],
    bids: BIDS_FOR[classifiedType],
    ...(model
      ? {
          modelType: model.classifiedType,
          ...(model.confidence !== undefined ? { modelConfidence: model.confidence } : {}),
        }
      : {}),
    createdByUserId: caller.userId,
    createdAt: deps.clock.now(),
  };
  const updated = await deps.datasets.updateSeries(caller.hospitalId, datasetId, seriesId, {
    classification,
    lowConfidence: false,
  });
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    datasetId,
    action: 'SERIES_CLASSIFIED',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`,
    details: {
      seriesId,
      classifiedType,
      previousType: previous?.classifiedType ?? null,
      modelType: model?.classifiedType ?? null,
    },
  });
  return toSeries(updated);
}
