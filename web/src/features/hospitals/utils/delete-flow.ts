import type { Hospital } from '#shared/schemas/api/organisation.ts';

/** docs/screens.md#delete-hospital: the typed text must equal the name exactly. */
export function nameMatches(hospital: Pick<Hospital, 'name'>, typed: string): boolean {
  return typed === hospital.name;
}

/** A hospital with users or datasets needs the second, high-impact confirmation. */
export function hasImpact(hospital: Pick<Hospital, 'userCount' | 'datasetCount'>): boolean {
  return hospital.userCount > 0 || hospital.datasetCount > 0;
}

/** After step 1: delete directly, or show the high-impact step first. */
export function afterNameStep(hospital: Pick<Hospital, 'userCount' | 'datasetCount'>): 'impact' | 'delete' {
  return hasImpact(hospital) ? 'impact' : 'delete';
}
