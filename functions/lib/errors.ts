import { catalogueMessage, ERROR_CATALOGUE, type ErrorCode } from '#shared/vocabulary/errors.ts';
import { DomainError, ValidationError } from '#shared/domain/errors.ts';

export type ErrorBody = { error: { code: ErrorCode; message: string; details?: unknown } };

/** The one mapping from domain errors to HTTP: catalogue code, status and the product's wording. */
export function toHttpError(error: unknown): { statusCode: number; body: ErrorBody } {
  if (error instanceof DomainError) {
    const entry = ERROR_CATALOGUE[error.code];
    const details = error instanceof ValidationError ? error.details : undefined;
    return {
      statusCode: entry.status,
      body: {
        error: {
          code: error.code,
          message: catalogueMessage(error.code, error.values),
          ...(details ? { details } : {}),
        },
      },
    };
  }
  return { statusCode: 500, body: { error: { code: 'INTERNAL', message: ERROR_CATALOGUE.INTERNAL.message } } };
}
