import type { Dataset } from '#shared/schemas/api/datasets.ts';
import { hasPermission } from '#shared/vocabulary/roles.ts';

/**
 * Whether the dataset page offers Export (docs/exports.md), as the server decides it: EXPORT_DATA, a COMPLETE dataset,
 * and through a team share only one that grants `export`.
 */
export function mayExport(permissions: readonly string[], dataset: Pick<Dataset, 'status' | 'sharedWithYou'>): boolean {
  return (
    dataset.status === 'COMPLETE' &&
    hasPermission(permissions, 'EXPORT_DATA') &&
    (!dataset.sharedWithYou || dataset.sharedWithYou.includes('export'))
  );
}
