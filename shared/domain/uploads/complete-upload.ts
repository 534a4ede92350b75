import type { Dataset } from '#shared/schemas/api/datasets.ts';
import type { Caller } from '#shared/domain/access/caller.ts';
import type { AuditLog, DatasetRepository, IdGenerator, PipelineStarter } from '#shared/domain/datasets/ports.ts';
import { toDataset } from '#shared/domain/datasets/view.ts';
import { InvalidStateError } from '#shared/domain/errors.ts';
import { loadVisibleSession } from './get-upload-session.ts';
import type { UploadRepository } from './ports.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';

/**
 * Every file complete → the dataset pipeline starts (the dataset is already UPLOADING), then the session closes and
 * its file items are deleted.
 * The run id is stored before the start, so a client retrying after a lost answer starts the same execution
 * name again, which Step Functions treats as the same run.
 */
export async function completeUpload(
  sessionId: string,
  caller: Caller,
  deps: {
    datasets: DatasetRepository;
    uploads: UploadRepository;
    audit: AuditLog;
    pipeline: PipelineStarter;
    ids: IdGenerator;
    organisation: OrganisationCounters;
  },
): Promise<Dataset> {
  const session = await loadVisibleSession(sessionId, caller, deps);
  const dataset = (await deps.datasets.get(caller.hospitalId, session.datasetId))!;
  if (session.status === 'COMPLETE') return toDataset(dataset);
  if (session.status !== 'OPEN' || dataset.status !== 'UPLOADING') throw new InvalidStateError();
  const files = await deps.uploads.listFiles(caller.hospitalId, sessionId);
  if (files.length !== session.fileCount || files.some((f) => f.status !== 'COMPLETE'))
    throw new InvalidStateError('UPLOAD_INCOMPLETE');
  const runId = dataset.lastRunId ?? deps.ids.newId();
  // What is now stored counts towards the hospital's and the team's storage, once (docs/domain.md#counters).
  const storedBytes = session.totalBytes;
  const updated = dataset.lastRunId
    ? dataset
    : await deps.datasets.update(
        caller.hospitalId,
        dataset.id,
        { lastRunId: runId, storageCountedBytes: storedBytes },
        ['UPLOADING'],
      );
  if (!dataset.lastRunId) {
    await deps.organisation.add(caller.hospitalId, { kind: 'hospital' }, { storageUsedBytes: storedBytes });
    await deps.organisation.addSummary({ storageUsedBytes: storedBytes });
    if (dataset.teamId)
      await deps.organisation.add(
        caller.hospitalId,
        { kind: 'team', teamId: dataset.teamId },
        { storageUsedBytes: storedBytes },
      );
  }
  await deps.pipeline.start({ hospitalId: caller.hospitalId, datasetId: dataset.id, runId });
  await deps.uploads.setSessionStatus(caller.hospitalId, sessionId, 'COMPLETE');
  // The file items were only for resuming: the pipeline works from the raw object keys. (Their TTL covers a crash here.)
  await deps.uploads.deleteFiles(caller.hospitalId, sessionId);
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    datasetId: dataset.id,
    action: 'UPLOAD_COMPLETED',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`,
    details: { sessionId, fileCount: files.length, runId },
  });
  return toDataset(updated);
}
