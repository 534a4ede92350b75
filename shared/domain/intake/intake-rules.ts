import { INTAKE_TRANSFER_SYNTAXES } from '#shared/dicom/intake-classes.ts';
import { checkDicom, type DicomCheck } from '#shared/dicom/validate.ts';
import { ValidationError } from '#shared/domain/errors.ts';
import type { IntegrationRecord } from '#shared/domain/integrations/ports.ts';
import { BYTES_PER_GB, checkUploadAgainstPolicy } from '#shared/domain/settings/enforce.ts';
import { policyFor, type PolicyReader } from '#shared/domain/settings/policies.ts';
import type { SettingsStore } from '#shared/domain/settings/ports.ts';
import type { FileFormat, Policy } from '#shared/schemas/api/policies.ts';
import type { IntakeStore } from './ports.ts';

/**
 * The rules every instance received over STOW-RS or C-STORE passes (docs/dicom-intake.md#intake-rules): the checks a
 * browser upload passes before any byte is sent (docs/domain.md#policies-and-inheritance: file size, allowed formats,
 * storage cap), taken from the policy in force for the integration's team, with the format known from the content
 * rather than from what the sender declares.
 */

/** Why the rules refuse an instance (the upload's error codes). */
export type IntakeRefusal = 'FILE_TOO_LARGE' | 'FILE_TYPE_NOT_ALLOWED' | 'STORAGE_CAP_EXCEEDED';

export type IntakeRuleDeps = {
  settings: PolicyReader & Pick<SettingsStore, 'storageUsedBytes'>;
  intake: Pick<IntakeStore, 'receivingBytes'>;
};

/** The limits in force for one integration, read once per request or per instance. */
export type IntakeLimits = {
  policy: Policy;
  /** The policy's largest file. */
  maxFileBytes: number;
  /** What counts against the hospital's storage cap: stored (committed) bytes plus the studies being received. */
  usedBytes: number;
};

/**
 * The policy of the integration's team and the bytes counting against its hospital's cap: the hospital's storage
 * counter (what commits and completed uploads added) plus every study of the hospital still being received, so
 * instances received but not yet committed count as a browser upload's declared bytes do.
 */
export async function intakeLimits(integration: IntegrationRecord, deps: IntakeRuleDeps): Promise<IntakeLimits> {
  const [policy, stored, receiving] = await Promise.all([
    policyFor(integration.hospitalId, integration.teamId ?? null, deps),
    deps.settings.storageUsedBytes(integration.hospitalId),
    deps.intake.receivingBytes(integration.hospitalId),
  ]);
  return { policy, maxFileBytes: policy.maxFileSizeMB * 1024 ** 2, usedBytes: stored + receiving };
}

/** Whether `bytes` more would take the hospital past its storage cap (the upload's rule: used + declared > cap). */
export function overStorageCap(bytes: number, limits: IntakeLimits): boolean {
  return limits.usedBytes + bytes > limits.policy.storageCompute.storageCapGB * BYTES_PER_GB;
}

/**
 * The policy format a DICOM content stands for: the policy names DICOM twice ('dicom', and 'dcm' after the file
 * extension); either admits it.
 */
function dicomFormat(policy: Policy): FileFormat {
  return policy.allowedFormats.includes('dcm') ? 'dcm' : 'dicom';
}

/**
 * The upload's policy check (checkUploadAgainstPolicy) on files received by intake: each file's size, the format
 * (DICOM, known from the content), then the files' bytes plus what is in use against the storage cap. Undefined when
 * they pass, else the refusal.
 */
export function checkIntake(sizes: readonly number[], limits: IntakeLimits): IntakeRefusal | undefined {
  const format = dicomFormat(limits.policy);
  try {
    checkUploadAgainstPolicy(
      sizes.map((sizeBytes) => ({ sizeBytes, format })),
      limits.policy,
      limits.usedBytes,
    );
    return undefined;
  } catch (error) {
    if (
      error instanceof ValidationError &&
      (error.code === 'FILE_TOO_LARGE' ||
        error.code === 'FILE_TYPE_NOT_ALLOWED' ||
        error.code === 'STORAGE_CAP_EXCEEDED')
    )
      return error.code;
    throw error;
  }
}

const DICM_OFFSET = 128;

/** Whether the bytes are a PS3.10 file: "DICM" after the 128-byte preamble (PS3.10 7.1). */
export function isPart10(bytes: Uint8Array): boolean {
  return (
    bytes.length >= DICM_OFFSET + 4 &&
    bytes[DICM_OFFSET] === 0x44 &&
    bytes[DICM_OFFSET + 1] === 0x49 &&
    bytes[DICM_OFFSET + 2] === 0x43 &&
    bytes[DICM_OFFSET + 3] === 0x4d
  );
}

/**
 * The format check by content: the bytes are a PS3.10 file as received (not a raw data set, not gzip: STOW-RS takes
 * PS3.10 instances, PS3.18 10.5; C-STORE data sets get their file meta group from the listener), parse strictly to
 * the end, and name a transfer syntax the engine reads. Whatever the sender called it, anything else is refused.
 */
export function checkDicomContent(bytes: Uint8Array): DicomCheck {
  if (!isPart10(bytes)) return { valid: false, message: 'Not a DICOM file' };
  const check = checkDicom(bytes);
  if (!check.valid) return check;
  if (check.parsed.lenient) return { valid: false, message: 'DICOM parsing failed' };
  if (!INTAKE_TRANSFER_SYNTAXES.includes(check.parsed.transferSyntaxUID))
    return { valid: false, message: 'DICOM parsing failed' };
  return check;
}
