import { ApiErrorSchema } from '#shared/schemas/api/common.ts';
import { ERROR_CATALOGUE } from '#shared/schemas/api/errors.ts';

/** A failed API call, carrying the catalogue code and the product's message (shown to the user as is). */
export class ApiRequestError extends Error {
  override name = 'ApiRequestError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function toApiRequestError(response: Response): Promise<ApiRequestError> {
  const body: unknown = await response.json().catch(() => undefined);
  const parsed = ApiErrorSchema.safeParse(body);
  if (parsed.success) return new ApiRequestError(response.status, parsed.data.error.code, parsed.data.error.message);
  return new ApiRequestError(response.status, 'INTERNAL', ERROR_CATALOGUE.INTERNAL.message);
}

export function errorMessage(error: unknown, fallback = ERROR_CATALOGUE.INTERNAL.message): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
