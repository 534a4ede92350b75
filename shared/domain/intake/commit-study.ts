import { NotFoundError } from '#shared/domain/errors.ts';
import type { IntegrationRecord } from '#shared/domain/integrations/ports.ts';
import { isDicomUid } from '#shared/schemas/api/common.ts';
import type { IntakeDeps, IntakeStudyRecord } from './ports.ts';

/** How many due studies one sweep commits at most (the next run takes the rest). */
export const SWEEP_BATCH = 100;

/**
 * Ends the intake of a study: the item is claimed (deleted) so no later instance joins it, the dataset counts its raw
 * bytes towards the hospital's and the team's storage once, and the pipeline starts exactly as after a browser
 * upload's last file (docs/dicom-intake.md#commit). Returns false when another commit took the study first.
 */
async function commit(record: IntakeStudyRecord, trigger: 'EXPLICIT' | 'QUIET_TIME', deps: IntakeDeps) {
  const claimed = await deps.intake.claimCommit(record.hospitalId, record.integrationId, record.studyInstanceUID);
  if (!claimed) return false;
  const { hospitalId, datasetId } = claimed;
  const dataset = await deps.datasets.get(hospitalId, datasetId);
  if (!dataset || dataset.status !== 'UPLOADING') return false;
  const runId = dataset.lastRunId ?? deps.ids.newId();
  if (!dataset.lastRunId) {
    await deps.datasets.update(
      hospitalId,
      datasetId,
      {
        lastRunId: runId,
        storageCountedBytes: claimed.receivedBytes,
        fileCount: claimed.fileCount,
        sizeBytes: claimed.receivedBytes,
        updatedAt: deps.clock.now(),
      },
      ['UPLOADING'],
    );
    await deps.organisation.add(hospitalId, { kind: 'hospital' }, { storageUsedBytes: claimed.receivedBytes });
    await deps.organisation.addSummary({ storageUsedBytes: claimed.receivedBytes });
    await deps.organisation.add(
      hospitalId,
      { kind: 'team', teamId: claimed.teamId },
      { storageUsedBytes: claimed.receivedBytes },
    );
  }
  await deps.pipeline.start({ hospitalId, datasetId, runId });
  await deps.audit.record({
    hospitalId,
    datasetId,
    action: 'DICOM_STUDY_COMMITTED',
    actorUserId: claimed.integrationId,
    actorName: dataset.ownerName,
    details: { integrationId: claimed.integrationId, trigger, fileCount: claimed.fileCount, runId },
  });
  return true;
}

/** The explicit commit of a study the integration is sending (POST /dicomweb/studies/{study}/commit). */
export async function commitStudy(
  integration: IntegrationRecord,
  studyInstanceUID: string,
  deps: IntakeDeps,
): Promise<{ datasetId: string }> {
  if (!isDicomUid(studyInstanceUID)) throw new NotFoundError();
  const record = await deps.intake.get(integration.hospitalId, integration.id, studyInstanceUID);
  if (!record || !(await commit(record, 'EXPLICIT', deps))) throw new NotFoundError();
  return { datasetId: record.datasetId };
}

/** The scheduled sweep: commits every study of every hospital whose quiet time has passed. */
export async function commitQuietStudies(deps: IntakeDeps): Promise<{ committed: number }> {
  const due = await deps.intake.due(deps.clock.now(), SWEEP_BATCH);
  let committed = 0;
  for (const record of due) if (await commit(record, 'QUIET_TIME', deps)) committed++;
  return { committed };
}
