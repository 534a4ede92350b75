import {
  createTeamShares,
  listDatasetTeamShares,
  listSharedWithMe,
  listTeamDicomShares,
  revokeTeamShare,
} from '#shared/domain/shares/team-shares.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import { ConflictError } from '#shared/domain/errors.ts';
import type { Idempotency } from '#functions/lib/idempotency.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';
import { countForHospital } from '#functions/lib/metrics.ts';

export const listTeamShares = httpHandler(
  'GET /api/datasets/{id}/team-shares',
  async ({ pathParameters }, caller, deps) => listDatasetTeamShares(pathParameters.id, caller, deps),
);

/**
 * One creation per dataset, recipients and caller (functions/lib/idempotency.ts): a retry after a lost answer gets the
 * shares already made instead of SHARE_EXISTS, and no second share; the same recipients asked for with other
 * permissions meanwhile answer CONFLICT.
 */
export function createTeamSharesOnce(
  datasetId: string,
  body: Parameters<typeof createTeamShares>[1],
  caller: Caller,
  deps: Parameters<typeof createTeamShares>[3] & { idempotency: Idempotency },
): ReturnType<typeof createTeamShares> {
  return deps.idempotency.once(
    {
      hospitalId: caller.hospitalId,
      operation: 'team-share-create',
      key: {
        datasetId,
        memberIds: [...new Set(body.memberIds ?? [])].sort(),
        teamId: body.teamId ?? null,
        userId: caller.userId,
      },
      payload: { permissions: [...new Set(body.permissions)].sort() },
      onMismatch: () => new ConflictError(),
    },
    async () => {
      const created = await createTeamShares(datasetId, body, caller, deps);
      countForHospital('SharesCreated', caller.hospitalId, created.items.length);
      return created;
    },
  );
}

export const createTeamShare = httpHandler(
  'POST /api/datasets/{id}/team-shares',
  async ({ pathParameters, body }, caller, deps) => createTeamSharesOnce(pathParameters.id, body, caller, deps),
);

export const revokeShare = httpHandler(
  'DELETE /api/datasets/{id}/team-shares/{shareId}',
  async ({ pathParameters }, caller, deps) => revokeTeamShare(pathParameters.id, pathParameters.shareId, caller, deps),
);

export const listDicomShares = httpHandler(
  'GET /api/teams/{teamId}/dicom-shares',
  async ({ pathParameters }, caller, deps) => listTeamDicomShares(pathParameters.teamId, caller, deps),
);

export const listReceived = httpHandler('GET /api/shares/received', async (_request, caller, deps) =>
  listSharedWithMe(caller, deps),
);
