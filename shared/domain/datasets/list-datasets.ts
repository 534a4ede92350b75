import type { Dataset } from '#shared/schemas/api/datasets.ts';
import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';
import { isHospitalWide, requirePermission, seesOnlyOwnDatasets, type Caller } from '#shared/domain/auth/caller.ts';
import type { DatasetRepository, Pseudonymizer } from './ports.ts';
import type { PageTokens } from '#shared/domain/ports.ts';
import { toDataset } from './view.ts';

export type ListDatasetsInput = { status?: DatasetStatus; search?: string; limit: number; nextToken?: string };

/**
 * One page of the caller's datasets, newest first: the hospital's for admins, the team's for leads and members.
 * The repository reads one index partition with Limit; the continuation token is sealed to the hospital and
 * to the query's scope, so it cannot be replayed in another tenant or with another filter. The search text matches
 * descriptions, department, owner and alias, and, taken as an MRN, the patient's alias: staff can find a patient's
 * studies by MRN although no MRN is stored.
 */
export async function listDatasets(
  input: ListDatasetsInput,
  caller: Caller,
  deps: { datasets: DatasetRepository; pageTokens: PageTokens; pseudonymizer: Pseudonymizer },
): Promise<{ items: Dataset[]; nextToken: string | null }> {
  requirePermission(caller, 'VIEW_DATASETS');
  const teamId = isHospitalWide(caller) ? undefined : caller.teamId;
  // A member of an individual-data team lists their own datasets (docs/domain.md#teams).
  const ownerUserId = seesOnlyOwnDatasets(caller) ? caller.userId : undefined;
  const search = input.search?.trim().toLowerCase() || undefined;
  const scope = JSON.stringify([
    'datasets',
    caller.hospitalId,
    teamId ?? '*',
    ownerUserId ?? '*',
    input.status ?? '*',
    search ?? '',
  ]);
  const startKey = input.nextToken ? await deps.pageTokens.open(scope, input.nextToken) : undefined;
  if (teamId === null) return { items: [], nextToken: null };
  const searchAlias = input.search?.trim()
    ? await deps.pseudonymizer.patientAlias(caller.hospitalId, input.search.trim())
    : undefined;
  const page = await deps.datasets.list({
    hospitalId: caller.hospitalId,
    teamId,
    ...(ownerUserId ? { ownerUserId } : {}),
    status: input.status,
    search,
    searchAlias,
    limit: input.limit,
    startKey,
  });
  return {
    items: page.items.map(toDataset),
    nextToken: page.lastKey ? await deps.pageTokens.seal(scope, page.lastKey) : null,
  };
}
