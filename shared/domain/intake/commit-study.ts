import { hospitalIsActive, type HospitalStatusReader } from '#shared/domain/auth/hospital-status.ts';
import { NotFoundError } from '#shared/domain/errors.ts';
import type { IntegrationRecord } from '#shared/domain/integrations/ports.ts';
import { isDicomUid } from '#shared/schemas/api/common.ts';
import type { IntakeDeps, IntakeStudyRecord } from './ports.ts';
import { counterName, moveReportCounts } from '#shared/domain/reports/counters.ts';

/** How many due studies one sweep commits at most (the next run takes the rest). */
export const SWEEP_BATCH = 100;

/**
 * Runs one study's commit as a unit a retry must not repeat (the functions key it by the dataset,
 * functions/lib/idempotency.ts); without one, the commit runs as it is.
 */
export type CommitGuard = (record: IntakeStudyRecord, commit: () => Promise<boolean>) => Promise<boolean>;

const unguarded: CommitGuard = (_record, commit) => commit();

/**
 * Ends the intake of a study (docs/dicom-intake.md#commit), in an order a retry can finish: the study is closed (no
 * later instance joins it, yet its item stays, still due), the dataset counts its raw bytes towards the hospital's
 * and the team's storage once (with its run id, stored before the start), the pipeline starts exactly as after a
 * browser upload's last file, the commit is audited, and only then is the item deleted. A commit cut short anywhere
 * (a crash, a timeout, a failed call) leaves the item, so the next sweep, or the client's retry, commits it again:
 * the run id is the one stored, and the execution's name (`<datasetId>-<runId>`) is the same, so Step Functions
 * starts nothing new. Returns false when there is nothing to commit (another commit finished the study first).
 */
async function commit(record: IntakeStudyRecord, trigger: 'EXPLICIT' | 'QUIET_TIME', deps: IntakeDeps) {
  const { hospitalId, integrationId, studyInstanceUID } = record;
  const closed = await deps.intake.closeForCommit(hospitalId, integrationId, studyInstanceUID, deps.clock.now());
  if (!closed) return false;
  const { datasetId } = closed;
  const dataset = await deps.datasets.get(hospitalId, datasetId);
  // A dataset deleted meanwhile, or one that moved on without a run of this commit, has nothing left to start.
  if (!dataset || (dataset.status !== 'UPLOADING' && !dataset.lastRunId)) {
    await deps.intake.remove(hospitalId, integrationId, studyInstanceUID);
    return false;
  }
  const runId = dataset.lastRunId ?? deps.ids.newId();
  if (!dataset.lastRunId) {
    await deps.datasets.update(
      hospitalId,
      datasetId,
      {
        lastRunId: runId,
        storageCountedBytes: closed.receivedBytes,
        fileCount: closed.fileCount,
        sizeBytes: closed.receivedBytes,
        updatedAt: deps.clock.now(),
      },
      ['UPLOADING'],
    );
    await deps.organisation.add(hospitalId, { kind: 'hospital' }, { storageUsedBytes: closed.receivedBytes });
    await deps.organisation.addSummary({ storageUsedBytes: closed.receivedBytes });
    await moveReportCounts(deps.organisation, dataset, {
      [counterName.bytes]: closed.receivedBytes - dataset.sizeBytes,
    });
    await deps.organisation.add(
      hospitalId,
      { kind: 'team', teamId: closed.teamId },
      { storageUsedBytes: closed.receivedBytes },
    );
  }
  await deps.pipeline.start({ hospitalId, datasetId, runId });
  await deps.audit.record({
    hospitalId,
    datasetId,
    action: 'DICOM_STUDY_COMMITTED',
    actorUserId: closed.integrationId,
    actorName: dataset.ownerName,
    details: { integrationId: closed.integrationId, trigger, fileCount: closed.fileCount, runId },
  });
  await deps.intake.remove(hospitalId, integrationId, studyInstanceUID);
  return true;
}

/** The explicit commit of a study the integration is sending (POST /dicomweb/studies/{study}/commit). */
export async function commitStudy(
  integration: IntegrationRecord,
  studyInstanceUID: string,
  deps: IntakeDeps,
  guard: CommitGuard = unguarded,
): Promise<{ datasetId: string }> {
  if (!isDicomUid(studyInstanceUID)) throw new NotFoundError();
  const record = await deps.intake.get(integration.hospitalId, integration.id, studyInstanceUID);
  if (!record || !(await guard(record, () => commit(record, 'EXPLICIT', deps)))) throw new NotFoundError();
  return { datasetId: record.datasetId };
}

/**
 * The scheduled sweep: commits every study of every hospital whose quiet time has passed, a study closed by a commit
 * cut short included (it is still due). A deactivated hospital's open studies wait, still due, and are committed by
 * the first sweep after its restore (docs/dicom-intake.md#deactivation); one closed by a commit cut short is finished,
 * so its dataset is never left UPLOADING.
 */
export async function commitQuietStudies(
  deps: IntakeDeps & { directory: HospitalStatusReader },
  guard: CommitGuard = unguarded,
): Promise<{ committed: number; waiting: number }> {
  const due = await deps.intake.due(deps.clock.now(), SWEEP_BATCH);
  const active = new Map<string, Promise<boolean>>();
  const isActive = (hospitalId: string) => {
    if (!active.has(hospitalId)) active.set(hospitalId, hospitalIsActive(hospitalId, deps.directory));
    return active.get(hospitalId)!;
  };
  let committed = 0;
  let waiting = 0;
  for (const record of due) {
    if (!record.committingAt && !(await isActive(record.hospitalId))) {
      waiting++;
      continue;
    }
    if (await guard(record, () => commit(record, 'QUIET_TIME', deps))) committed++;
  }
  return { committed, waiting };
}
