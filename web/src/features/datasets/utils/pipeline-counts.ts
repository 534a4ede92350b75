import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';

export type PipelineCounts = { queued: number; processing: number; completed: number; failed: number; total: number };

/**
 * "Processing Pipeline Status" (docs/screens.md#dashboard): uploading counts as Queued; anonymizing, classifying and
 * processing as Processing; complete as Completed; failed as Failed. Drafts (CREATED) are only in the total.
 */
export function countPipeline(statuses: readonly DatasetStatus[]): PipelineCounts {
  const counts: PipelineCounts = { queued: 0, processing: 0, completed: 0, failed: 0, total: statuses.length };
  for (const status of statuses) {
    if (status === 'UPLOADING') counts.queued++;
    else if (status === 'ANONYMIZING' || status === 'CLASSIFYING' || status === 'PROCESSING') counts.processing++;
    else if (status === 'COMPLETE') counts.completed++;
    else if (status === 'FAILED') counts.failed++;
  }
  return counts;
}
