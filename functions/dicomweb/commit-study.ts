import { intakeCommitGuard } from '#functions/lib/idempotency.ts';
import { commitStudy } from '#shared/domain/intake/commit-study.ts';
import { dicomwebRoute, intakeDeps } from './context.ts';

export const handler = dicomwebRoute(
  'POST /dicomweb/studies/{study}/commit',
  async ({ pathParameters }, integration, deps) =>
    commitStudy(integration, pathParameters.study, intakeDeps(deps), intakeCommitGuard(deps.idempotency)),
);
