import { RuleError } from '#shared/domain/errors.ts';
import type { Directory } from './ports.ts';

/** Reads a hospital's status: the one port every principal's admission check needs. */
export type HospitalStatusReader = Pick<Directory, 'getHospital'>;

/**
 * Whether a hospital's principals are let in (docs/states.md#hospitals): false once it is DEACTIVATED. An unknown
 * hospital is no deactivated one; the principal's own lookup refuses what does not exist.
 */
export async function hospitalIsActive(hospitalId: string, directory: HospitalStatusReader): Promise<boolean> {
  const hospital = await directory.getHospital(hospitalId);
  return hospital?.status !== 'DEACTIVATED';
}

/**
 * Refuses every principal of a deactivated hospital with HOSPITAL_DEACTIVATED: its users (resolveCaller), its DICOMweb
 * clients, its DICOM nodes and its patient links (docs/domain.md#deactivation). Read on each use, never cached, so
 * deactivation and restore take effect at once.
 */
export async function requireActiveHospital(hospitalId: string, directory: HospitalStatusReader): Promise<void> {
  if (!(await hospitalIsActive(hospitalId, directory))) throw new RuleError('HOSPITAL_DEACTIVATED');
}
