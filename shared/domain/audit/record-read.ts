import type { Caller } from '#shared/domain/auth/caller.ts';
import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import { NotFoundError } from '#shared/domain/errors.ts';

/**
 * Reads of patient data are audited like writes (docs/domain.md#audit-trail): the read runs, then one event with its
 * outcome is appended: SUCCESS, or DENIED when the dataset is not one the caller may see (another team's, another
 * hospital's, or none). A failure on our side is not recorded as a read: nothing was read. A successful read repeated by
 * the same user within READ_WINDOW_SECONDS (the dataset page polls while processing) is recorded once per window;
 * a refused one every time.
 */
export const READ_WINDOW_SECONDS = 5 * 60;

export async function auditedRead<T>(
  caller: Caller,
  deps: { audit: AuditLog; clock: Clock },
  event: { action: string; datasetId: string; details?: (result: T) => Record<string, unknown> },
  read: () => Promise<T>,
): Promise<T> {
  const base = {
    hospitalId: caller.hospitalId,
    datasetId: event.datasetId,
    action: event.action,
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`,
  };
  let result: T;
  try {
    result = await read();
  } catch (error) {
    if (error instanceof NotFoundError)
      await deps.audit.record({ ...base, outcome: 'DENIED', details: { role: caller.role } });
    throw error;
  }
  const first = await deps.audit.claimReadWindow({
    hospitalId: caller.hospitalId,
    actorUserId: caller.userId,
    datasetId: event.datasetId,
    action: event.action,
    at: deps.clock.now(),
    windowSeconds: READ_WINDOW_SECONDS,
  });
  if (!first) return result;
  await deps.audit.record({
    ...base,
    outcome: 'SUCCESS',
    details: { role: caller.role, ...(event.details?.(result) ?? {}) },
  });
  return result;
}
