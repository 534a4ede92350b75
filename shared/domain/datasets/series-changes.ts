import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';
import { canManageDataset, requirePermission, type Caller } from '#shared/domain/auth/caller.ts';
import { AccessDeniedError, InvalidStateError } from '#shared/domain/errors.ts';

/** Statuses in which selection and classification still steer what processing produces. */
export const SERIES_EDITABLE_STATUSES: readonly DatasetStatus[] = [
  'CREATED',
  'UPLOADING',
  'ANONYMIZING',
  'CLASSIFYING',
];

/**
 * Who may change a dataset's series (selection, classification) and when: its owner, their team lead or an admin,
 * and only before processing starts. Afterwards the assets and report already reflect the old choice.
 */
export function assertMayChangeSeries(caller: Caller, dataset: { ownerUserId: string; status: DatasetStatus }): void {
  requirePermission(caller, 'UPLOAD_DICOM');
  if (!canManageDataset(caller, dataset)) throw new AccessDeniedError();
  if (!SERIES_EDITABLE_STATUSES.includes(dataset.status)) throw new InvalidStateError();
}
