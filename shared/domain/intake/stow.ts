import type { DicomJsonDataset } from '#shared/dicom/dicom-json.ts';
import { ValidationError } from '#shared/domain/errors.ts';
import { isDicomUid } from '#shared/schemas/api/common.ts';
import { MultipartError, parseMediaType, parseMultipart } from './multipart.ts';
import type { IntakeDeps, IntakeSource } from './ports.ts';
import { intakeLimits, overStorageCap } from './intake-rules.ts';
import { FAILURE_REASON, receiveInstance, refusalReason, type ReceivedInstance } from './receive-instance.ts';

/** A request body that is not multipart/related of application/dicom (PS3.18 10.5.2): 415, nothing stored. */
export class UnsupportedMediaTypeError extends ValidationError {
  override name = 'UnsupportedMediaTypeError';
  constructor() {
    super('UNSUPPORTED_MEDIA_TYPE');
  }
}

/** The parts of a STOW-RS request: multipart/related of application/dicom (415 otherwise), at least one part (400). */
function partsOf(body: Uint8Array, contentType: string | undefined, study: string | undefined) {
  const media = parseMediaType(contentType);
  if (media.type !== 'multipart/related') throw new UnsupportedMediaTypeError();
  const rootType = (media.params.type ?? 'application/dicom').toLowerCase();
  if (rootType !== 'application/dicom') throw new UnsupportedMediaTypeError();
  let parts;
  try {
    parts = parseMultipart(body, media.params.boundary ?? '');
  } catch (error) {
    if (error instanceof MultipartError) throw new ValidationError();
    throw error;
  }
  if (parts.length === 0) throw new ValidationError();
  if (study !== undefined && !isDicomUid(study)) throw new ValidationError();
  return parts;
}

/** The STOW-RS answer: the HTTP status and the response dataset (PS3.18 10.5.3, Table 10.5.3-1). */
export type StowResult = { status: 200 | 202 | 409; body: DicomJsonDataset };

const TAGS = {
  RetrieveURL: '00081190',
  FailedSOPSequence: '00081198',
  ReferencedSOPSequence: '00081199',
  ReferencedSOPClassUID: '00081150',
  ReferencedSOPInstanceUID: '00081155',
  FailureReason: '00081197',
  WarningReason: '00081196',
} as const;

/**
 * STOW-RS: every part an application/dicom PS3.10 instance. Each is received on its own (a bad part fails alone, with
 * its reason); the answer is 200 when all were stored, 202 when some were, 409 when none was. The request itself must
 * be multipart/related with type application/dicom (415 otherwise) and hold at least one part (400 otherwise).
 * The intake rules apply to the request as a whole first, as to a browser upload's declared files
 * (docs/dicom-intake.md#intake-rules): when its parts together would pass the hospital's storage cap, every part fails
 * with Out of Resources (A700) and nothing is stored; then to each part.
 */
export async function storeInstances(
  body: Uint8Array,
  contentType: string | undefined,
  source: IntakeSource,
  deps: IntakeDeps,
  options: { study?: string; baseUrl: string },
): Promise<StowResult> {
  let parts;
  try {
    parts = partsOf(body, contentType, options.study);
  } catch (error) {
    // A refused request is audited too: nothing of it was stored.
    const { integration } = source;
    await deps.audit.record({
      hospitalId: integration.hospitalId,
      action: 'DICOMWEB_STORE',
      outcome: 'FAILURE',
      actorUserId: integration.id,
      actorName: integration.name,
      details: { integrationId: integration.id, stored: 0, refused: error instanceof Error ? error.name : 'Error' },
    });
    throw error;
  }

  const referenced: DicomJsonDataset[] = [];
  const failed: DicomJsonDataset[] = [];
  let studyUrl: string | undefined;
  const datasetIds: string[] = [];
  const limits = await intakeLimits(source.integration, deps);
  const wholeRequestOverCap = overStorageCap(
    parts.reduce((sum, part) => sum + part.bytes.byteLength, 0),
    limits,
  );
  for (const part of parts) {
    const partType = parseMediaType(part.contentType || 'application/dicom').type;
    const result: ReceivedInstance = wholeRequestOverCap
      ? { stored: false, reason: refusalReason('STORAGE_CAP_EXCEEDED') }
      : partType === 'application/dicom'
        ? await receiveInstance(part.bytes, source, deps, { expectedStudy: options.study, limits })
        : { stored: false, reason: FAILURE_REASON.CANNOT_UNDERSTAND };
    // The parts stored count against the cap for the parts after them.
    if (result.stored) limits.usedBytes += part.bytes.byteLength;
    if (result.stored) {
      const { study, series, instance } = result.retrieve;
      datasetIds.push(result.datasetId);
      studyUrl ??= `${options.baseUrl}/studies/${study}`;
      referenced.push({
        [TAGS.ReferencedSOPClassUID]: { vr: 'UI', Value: [result.sopClassUID] },
        [TAGS.ReferencedSOPInstanceUID]: { vr: 'UI', Value: [result.sopInstanceUID] },
        [TAGS.RetrieveURL]: {
          vr: 'UR',
          Value: [`${options.baseUrl}/studies/${study}/series/${series}/instances/${instance}`],
        },
      });
    } else {
      failed.push({
        ...(result.sopClassUID ? { [TAGS.ReferencedSOPClassUID]: { vr: 'UI', Value: [result.sopClassUID] } } : {}),
        ...(result.sopInstanceUID
          ? { [TAGS.ReferencedSOPInstanceUID]: { vr: 'UI', Value: [result.sopInstanceUID] } }
          : {}),
        [TAGS.FailureReason]: { vr: 'US', Value: [result.reason] },
      });
    }
  }
  const response: DicomJsonDataset = {};
  if (studyUrl && failed.length === 0) response[TAGS.RetrieveURL] = { vr: 'UR', Value: [studyUrl] };
  if (failed.length > 0) response[TAGS.FailedSOPSequence] = { vr: 'SQ', Value: failed };
  if (referenced.length > 0) response[TAGS.ReferencedSOPSequence] = { vr: 'SQ', Value: referenced };
  const status = failed.length === 0 ? 200 : referenced.length > 0 ? 202 : 409;
  // Every store request is audited with its counts; failure reasons are codes, never the parts' contents.
  const { integration } = source;
  await deps.audit.record({
    hospitalId: integration.hospitalId,
    action: 'DICOMWEB_STORE',
    outcome: referenced.length === 0 ? 'FAILURE' : 'SUCCESS',
    actorUserId: integration.id,
    actorName: integration.name,
    details: {
      integrationId: integration.id,
      stored: referenced.length,
      failed: failed.length,
      status,
      datasetIds: [...new Set(datasetIds)],
    },
  });
  return { status, body: response };
}
