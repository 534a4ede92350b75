import { ERROR_CATALOGUE } from '#shared/vocabulary/errors.ts';

/** The message to show for a failure: the error's own (the catalogue's words for API errors), else the fallback. */
export function errorMessage(error: unknown, fallback: string = ERROR_CATALOGUE.INTERNAL.message): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
