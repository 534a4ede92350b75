import { useEffect, useRef } from 'react';
import type { Dataset } from '#shared/schemas/api/datasets.ts';

export type StatusTransition = {
  dataset: Pick<Dataset, 'id' | 'studyDescription' | 'status' | 'failureReason'>;
  from: Dataset['status'];
};

/**
 * Calls `onTransition` when a dataset seen before in this session reaches COMPLETE or FAILED, so the shell can
 * notify about what really happened while the user was looking elsewhere on the page.
 */
export function useStatusTransitions(
  items: readonly StatusTransition['dataset'][] | undefined,
  onTransition: (t: StatusTransition) => void,
): void {
  const seen = useRef(new Map<string, Dataset['status']>());
  useEffect(() => {
    for (const dataset of items ?? []) {
      const before = seen.current.get(dataset.id);
      seen.current.set(dataset.id, dataset.status);
      if (before && before !== dataset.status && (dataset.status === 'COMPLETE' || dataset.status === 'FAILED'))
        onTransition({ dataset, from: before });
    }
  }, [items, onTransition]);
}
