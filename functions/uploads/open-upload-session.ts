import { MAX_DECLARABLE_FILE_BYTES, MAX_ENHANCED_FILES } from '#shared/schemas/api/uploads.ts';
import { openUploadSession } from '#shared/domain/uploads/open-upload-session.ts';
import { ValidationError } from '#shared/domain/errors.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

/** Too many files or a file over the limit answer with the catalogue's own messages, not a generic "Invalid input". */
function limitIssue(issues: { code: string; path: PropertyKey[] }[]) {
  if (issues.some((i) => i.code === 'too_big' && i.path.length === 1 && i.path[0] === 'files'))
    return new ValidationError('TOO_MANY_FILES', { n: MAX_ENHANCED_FILES });
  if (issues.some((i) => i.code === 'too_big' && i.path.at(-1) === 'sizeBytes'))
    return new ValidationError('FILE_TOO_LARGE', { n: MAX_DECLARABLE_FILE_BYTES });
  return undefined;
}

export const handler = httpHandler(
  'POST /api/datasets/{id}/upload/session',
  async ({ pathParameters, body }, caller, deps) => openUploadSession(pathParameters.id, body.files, caller, deps),
  { mapIssues: limitIssue },
);
