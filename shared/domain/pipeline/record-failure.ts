import { catalogueMessage, ERROR_CATALOGUE, type ErrorCode } from '#shared/vocabulary/errors.ts';
import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';
import { changeStatus } from '#shared/domain/datasets/change-status.ts';
import { PIPELINE_ACTOR } from '#shared/domain/datasets/ports.ts';
import { meterRun } from '#shared/domain/usage/meter.ts';
import { meterDatasetStorage } from '#shared/domain/usage/storage-meter.ts';
import { notifyDatasetOutcome } from '#shared/domain/notifications/notifications.ts';
import type { PipelineDeps, StageInput } from './deps.ts';

/** Readable reasons for the errors a stage can raise. Engine messages are never copied: they could quote DICOM values. */
const REASONS: Record<string, string> = {
  NoValidDicomError: catalogueMessage('NO_VALID_DICOM'),
  NoSeriesProcessedError: catalogueMessage('NO_SERIES_PROCESSED'),
  InsufficientDirectionsError: 'The diffusion series has too few gradient directions for tractography.',
  TransientError: 'A storage or database service did not answer in time. Retry the dataset.',
  ConflictError: 'The dataset was changed while it was being processed. Retry the dataset.',
  'States.Timeout': 'A processing step took too long and was stopped.',
  'States.TaskFailed': 'A processing step failed.',
  'Lambda.Unknown': 'A processing step ran out of memory or time.',
  'Sandbox.Timedout': 'A processing step ran out of time.',
};

/** Turns the Catch output ({Error, Cause}) into a reason a hospital user can read, without PHI. */
export function failureReason(error: { Error: string; Cause?: string } | undefined): string {
  if (!error) return 'Processing failed';
  if (REASONS[error.Error]) return REASONS[error.Error]!;
  if (error.Error in ERROR_CATALOGUE) return catalogueMessage(error.Error as ErrorCode);
  let cause: { errorType?: string };
  try {
    cause = JSON.parse(error.Cause ?? '{}') as { errorType?: string };
  } catch {
    cause = {};
  }
  if (cause.errorType && REASONS[cause.errorType]) return REASONS[cause.errorType]!;
  return `Processing failed (${error.Error.replace(/[^\w.]/g, '').slice(0, 60) || 'unknown error'})`;
}

const FAILABLE: DatasetStatus[] = ['UPLOADING', 'ANONYMIZING', 'CLASSIFYING', 'PROCESSING'];

/** Any active stage → FAILED with the reason kept. A dataset deleted meanwhile, or already FAILED, is left as it is. */
export async function recordFailure(
  input: StageInput & { error?: { Error: string; Cause?: string } },
  deps: PipelineDeps,
): Promise<void> {
  await failDataset(input, deps, failureReason(input.error), input.error?.Error ?? null);
}

/** The move to FAILED with a reason already chosen (RecordFailure's, or the series' own when every series failed). */
export async function failDataset(
  input: StageInput,
  deps: PipelineDeps,
  reason: string,
  errorName: string | null,
): Promise<void> {
  const dataset = await deps.datasets.get(input.hospitalId, input.datasetId);
  if (!dataset || !FAILABLE.includes(dataset.status)) return;
  await changeStatus(deps, {
    hospitalId: input.hospitalId,
    datasetId: input.datasetId,
    from: [dataset.status],
    to: 'FAILED',
    ...PIPELINE_ACTOR,
    fields: { failureReason: reason, updatedAt: deps.clock.now() },
    details: { runId: input.runId, reason, error: errorName },
  });
  const endedAt = deps.clock.now();
  await meterRun(deps.organisation, dataset, endedAt);
  // A failed run may have left raw uploads, de-identified copies or assets behind: they count until deleted.
  await meterDatasetStorage(deps, { ...dataset, status: 'FAILED' }, endedAt.slice(0, 10));
  await notifyDatasetOutcome(deps, dataset, 'FAILED');
}
