import { AVATAR_MAX_BYTES } from '#shared/schemas/api/policies.ts';
import { startAvatarUpload } from '#shared/domain/settings/me-settings.ts';
import { ValidationError } from '#shared/domain/errors.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

/** A type or size outside the avatar limit (docs/domain.md#settings) answers with the avatar message, not a generic "Invalid input". */
function avatarIssue(issues: { path: PropertyKey[] }[]) {
  return issues.some((i) => i.path[0] === 'contentType' || i.path[0] === 'sizeBytes')
    ? new ValidationError('AVATAR_INVALID', { n: AVATAR_MAX_BYTES })
    : undefined;
}

export const handler = httpHandler(
  'POST /api/me/avatar',
  async ({ body }, caller, deps) => startAvatarUpload(body, caller, deps),
  { mapIssues: avatarIssue },
);
