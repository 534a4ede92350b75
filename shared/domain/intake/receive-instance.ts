import { replacementUid } from '#shared/dicom/deidentify/keys.ts';
import { INTAKE_SOP_CLASSES } from '#shared/dicom/intake-classes.ts';
import { parserKey, TAG } from '#shared/dicom/tags.ts';
import { countPatient, movePipelineCounters } from '#shared/domain/dashboards/counters.ts';
import { moveReportCounts, reportContribution } from '#shared/domain/reports/counters.ts';
import type { DatasetRecord } from '#shared/domain/datasets/ports.ts';
import type { IntegrationRecord } from '#shared/domain/integrations/ports.ts';
import { searchTextOf } from '#shared/domain/datasets/view.ts';
import { applyPolicy, policyInForce } from '#shared/domain/settings/deidentification-policy.ts';
import { uploadKeys } from '#shared/domain/object-keys.ts';
import { isDicomUid } from '#shared/schemas/api/common.ts';
import type { AnonymizationOptions } from '#shared/vocabulary/deidentification.ts';
import { checkDicomContent, checkIntake, intakeLimits, type IntakeLimits, type IntakeRefusal } from './intake-rules.ts';
import type { IntakeDeps, IntakeSource, IntakeStudyRecord } from './ports.ts';

/** The failure reason of a refusal of the intake rules. */
export function refusalReason(refusal: IntakeRefusal): number {
  return refusal === 'FILE_TYPE_NOT_ALLOWED' ? FAILURE_REASON.CANNOT_UNDERSTAND : FAILURE_REASON.OUT_OF_RESOURCES;
}

/**
 * Failure reasons of a refused instance: the Failure Reason (0008,1197) of a STOW-RS response (PS3.18 10.5.3) and the
 * C-STORE status (PS3.4 B.2.3).
 */
export const FAILURE_REASON = {
  /** Processing failure. */
  PROCESSING_FAILURE: 0x0110,
  /**
   * Refused: Out of Resources (PS3.4 B.2.3 A7xx; PS3.18 10.5.3 A700): over the policy's file size or the hospital's
   * storage cap (docs/dicom-intake.md#intake-rules).
   */
  OUT_OF_RESOURCES: 0xa700,
  /** SOP Class not supported. */
  SOP_CLASS_NOT_SUPPORTED: 0x0122,
  /** Data set does not match SOP class (here: an instance of another study than the request's). */
  DOES_NOT_MATCH: 0xa900,
  /**
   * Cannot understand: not a PS3.10 file, a data set that does not parse to its end, a transfer syntax the engine does
   * not read, or DICOM where the policy's allowed formats leave it out (a refused format).
   */
  CANNOT_UNDERSTAND: 0xc000,
} as const;

/** The UIDs an instance will have once de-identified: the pipeline's replacements, or its own when they are kept. */
export type RetrieveUids = { study: string; series: string; instance: string };

export type ReceivedInstance =
  | {
      stored: true;
      sopClassUID: string;
      sopInstanceUID: string;
      datasetId: string;
      /** Where the de-identified copy will be found (WADO-RS), once the dataset has been processed. */
      retrieve: RetrieveUids;
    }
  | { stored: false; sopClassUID?: string; sopInstanceUID?: string; reason: number };

/** The UIDs the pipeline's de-identification gives (PS3.15 E.1, the replacement of shared/dicom/deidentify). */
export function deidentifiedUid(
  uid: string,
  secret: string,
  hospitalId: string,
  options: AnonymizationOptions,
): string {
  return options.retainUids ? uid : replacementUid(secret, hospitalId, uid);
}

function addSeconds(iso: string, seconds: number): string {
  return new Date(Date.parse(iso) + seconds * 1000).toISOString();
}

/**
 * The team an integration's studies are filed into (docs/dicom-intake.md#team-bound-clients): a node always has one,
 * and a client may write only with one (the create schema refuses a writer without a team; the write scope is checked
 * before any instance is read), so its absence here is a bug, not a request to answer.
 */
function filingTeamId(integration: IntegrationRecord): string {
  if (!integration.teamId) throw new Error(`Integration ${integration.id} has no team to file studies into`);
  return integration.teamId;
}

/**
 * The dataset of a study first received from an integration: status UPLOADING (its instances arrive as raw uploads),
 * owned by the integration, in the integration's team, with the hospital's de-identification defaults. The patient
 * alias is the keyed hash of the Patient ID (as the MRN of a browser upload); its description names the modality and
 * the integration, never a DICOM text.
 */
async function openIntakeDataset(
  source: IntakeSource,
  first: { patientId: string; modality: string },
  deps: IntakeDeps,
): Promise<DatasetRecord> {
  const { integration } = source;
  const now = deps.clock.now();
  const anonymization = applyPolicy(undefined, await policyInForce(integration.hospitalId, deps));
  const base = {
    id: deps.ids.newId(),
    hospitalId: integration.hospitalId,
    teamId: filingTeamId(integration),
    ownerUserId: integration.id,
    ownerName: integration.name,
    patientAlias: await deps.pseudonymizer.patientAlias(integration.hospitalId, first.patientId || integration.id),
    studyType: 'DIAGNOSTIC' as const,
    urgency: 'ROUTINE' as const,
    studyDescription: `${first.modality || 'DICOM'} study from ${integration.name}`,
    clinicalIndication: '',
    orderingPhysician: '',
    department: integration.teamName ?? '',
    departmentId: null,
    anonymization,
    consentObtained: false,
    hipaaDisclosure: false,
    status: 'UPLOADING' as const,
    sizeBytes: 0,
    fileCount: 0,
    seriesCount: 0,
    createdAt: now,
    updatedAt: now,
  };
  const record: DatasetRecord = { ...base, searchText: searchTextOf(base) };
  await deps.datasets.create(record);
  await deps.organisation.add(record.hospitalId, { kind: 'hospital' }, { datasetCount: 1 });
  await deps.organisation.add(
    record.hospitalId,
    { kind: 'team', teamId: filingTeamId(integration) },
    { datasetCount: 1 },
  );
  await countPatient(deps.organisation, record);
  await movePipelineCounters(deps.organisation, record, undefined, 'UPLOADING');
  await moveReportCounts(deps.organisation, record, reportContribution(record, 1));
  await deps.audit.record({
    hospitalId: record.hospitalId,
    datasetId: record.id,
    action: 'DATASET_CREATED',
    actorUserId: integration.id,
    actorName: integration.name,
    details: { via: source.via, integrationId: integration.id, anonymization },
  });
  return record;
}

/**
 * One instance received over STOW-RS or C-STORE (docs/dicom-intake.md#intake): checked against the intake rules
 * (its size against the policy's file size, its content as DICOM the engine reads and the policy allows, and the
 * hospital's storage cap counting what is being received; docs/dicom-intake.md#intake-rules), then as DICOM (its SOP
 * class is one the engine reads, its UIDs are PS3.5 UIDs, it belongs to the expected study), then written as the next
 * raw upload of its study's dataset, exactly where a browser upload puts its files, so the same pipeline takes it.
 * Nothing is stored for a refused instance. `limits` are the rules' limits when the caller read them already (a STOW-RS
 * request reads them once; they are read again for each part after the first, so the cap counts the parts stored).
 */
export async function receiveInstance(
  bytes: Uint8Array,
  source: IntakeSource,
  deps: IntakeDeps,
  options: { expectedStudy?: string; limits?: IntakeLimits } = {},
): Promise<ReceivedInstance> {
  const limits = options.limits ?? (await intakeLimits(source.integration, deps));
  // The size first, before any parse: an instance over the policy's file size costs no more work.
  const tooLarge = checkIntake([bytes.byteLength], { ...limits, usedBytes: 0 });
  if (tooLarge === 'FILE_TOO_LARGE') return { stored: false, reason: refusalReason(tooLarge) };
  const check = checkDicomContent(bytes);
  if (!check.valid) return { stored: false, reason: FAILURE_REASON.CANNOT_UNDERSTAND };
  const { dataSet } = check.parsed;
  const text = (tag: string) => dataSet.string(parserKey(tag))?.trim() ?? '';
  const sopClassUID = text(TAG.SOPClassUID) || text(TAG.MediaStorageSOPClassUID);
  const sopInstanceUID = text(TAG.SOPInstanceUID) || text(TAG.MediaStorageSOPInstanceUID);
  const studyUID = text(TAG.StudyInstanceUID);
  const seriesUID = text(TAG.SeriesInstanceUID);
  const ids = {
    ...(isDicomUid(sopClassUID) ? { sopClassUID } : {}),
    ...(isDicomUid(sopInstanceUID) ? { sopInstanceUID } : {}),
  };
  if (![sopClassUID, sopInstanceUID, studyUID, seriesUID].every(isDicomUid))
    return { stored: false, ...ids, reason: FAILURE_REASON.CANNOT_UNDERSTAND };
  if (!INTAKE_SOP_CLASSES.has(sopClassUID))
    return { stored: false, ...ids, reason: FAILURE_REASON.SOP_CLASS_NOT_SUPPORTED };
  if (options.expectedStudy !== undefined && options.expectedStudy !== studyUID)
    return { stored: false, ...ids, reason: FAILURE_REASON.DOES_NOT_MATCH };
  const refused = checkIntake([bytes.byteLength], limits);
  if (refused) return { stored: false, ...ids, reason: refusalReason(refused) };

  const { integration } = source;
  const { hospitalId } = integration;
  const now = deps.clock.now();
  const commitAfter = addSeconds(now, integration.quietSeconds);
  let reserved = await deps.intake.reserveFile(
    hospitalId,
    integration.id,
    studyUID,
    bytes.byteLength,
    now,
    commitAfter,
  );
  if (!reserved) {
    const dataset = await openIntakeDataset(
      source,
      { patientId: text(TAG.PatientID), modality: text(TAG.Modality) },
      deps,
    );
    const record: IntakeStudyRecord = {
      hospitalId,
      integrationId: integration.id,
      studyInstanceUID: studyUID,
      datasetId: dataset.id,
      teamId: filingTeamId(integration),
      fileCount: 0,
      receivedBytes: 0,
      firstReceivedAt: now,
      lastReceivedAt: now,
      commitAfter,
    };
    if (!(await deps.intake.create(record))) {
      // Another request opened the study first: the empty dataset made here is removed again, counters included.
      await deps.datasets.deleteAll(hospitalId, dataset.id);
      await deps.organisation.add(hospitalId, { kind: 'hospital' }, { datasetCount: -1 });
      await deps.organisation.add(
        hospitalId,
        { kind: 'team', teamId: filingTeamId(integration) },
        { datasetCount: -1 },
      );
      await movePipelineCounters(deps.organisation, dataset, 'UPLOADING', undefined);
      await moveReportCounts(deps.organisation, dataset, reportContribution(dataset, -1));
    }
    reserved = await deps.intake.reserveFile(hospitalId, integration.id, studyUID, bytes.byteLength, now, commitAfter);
    if (!reserved) return { stored: false, ...ids, reason: FAILURE_REASON.PROCESSING_FAILURE };
  }
  await deps.objects.put('uploads', uploadKeys.file(hospitalId, reserved.datasetId, reserved.fileIndex), bytes);
  // A commit between the reservation and the write may have started the pipeline without this file: then nothing
  // says the run saw it, so the sender is told to send it again (it joins a new dataset of the study) rather than
  // told it is stored (docs/dicom-intake.md#commit). Nothing is lost: at worst the study's instance is in both.
  const open = await deps.intake.get(hospitalId, integration.id, studyUID);
  if (open?.datasetId !== reserved.datasetId || open.committingAt)
    return { stored: false, ...ids, reason: FAILURE_REASON.PROCESSING_FAILURE };
  const dataset = await deps.datasets.get(hospitalId, reserved.datasetId);
  const anonymization = dataset?.anonymization ?? applyPolicy(undefined, await policyInForce(hospitalId, deps));
  const secret = await deps.pseudonymSecret();
  return {
    stored: true,
    sopClassUID,
    sopInstanceUID,
    datasetId: reserved.datasetId,
    retrieve: {
      study: deidentifiedUid(studyUID, secret, hospitalId, anonymization),
      series: deidentifiedUid(seriesUID, secret, hospitalId, anonymization),
      instance: deidentifiedUid(sopInstanceUID, secret, hospitalId, anonymization),
    },
  };
}
