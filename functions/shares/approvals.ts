import { decideShare, listShareApprovals } from '#shared/domain/shares/approvals.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

/** The approval queue of the sharing policy (docs/domain.md#share-policy). */
export const listApprovals = httpHandler('GET /api/shares/approvals', async (_request, caller, deps) =>
  listShareApprovals(caller, deps),
);

export const approveShare = httpHandler(
  'POST /api/shares/approvals/{shareId}/approve',
  async ({ pathParameters }, caller, deps) => decideShare(pathParameters.shareId, 'APPROVED', caller, deps),
);

export const refuseShare = httpHandler(
  'POST /api/shares/approvals/{shareId}/refuse',
  async ({ pathParameters }, caller, deps) => decideShare(pathParameters.shareId, 'REFUSED', caller, deps),
);
