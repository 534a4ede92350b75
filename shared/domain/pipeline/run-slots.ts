import type { Clock } from '#shared/domain/ports.ts';
import { policyFor, type PolicyDeps } from '#shared/domain/settings/policies.ts';
import type { StageInput } from './deps.ts';

/**
 * At most MAX_CONCURRENT_RUNS_PER_HOSPITAL pipeline runs of one hospital at a time; the others wait in the order
 * they first asked. One semaphore per hospital (its own table item), so a busy hospital never delays another. The
 * state machine acquires a slot first (retrying with back-off while the hospital is full) and releases it at the
 * end, on success and on failure alike.
 */
/**
 * The default hospital policy's queue concurrency (computeThrottles.queueConcurrency); the limit of a hospital is its
 * resolved policy's (docs/pipeline.md#queue-concurrency).
 */
export const MAX_CONCURRENT_RUNS_PER_HOSPITAL = 10;
/** A waiter that has not asked again for this long was stopped (Step Functions retries far more often). */
export const RUN_SLOT_WAITER_TIMEOUT_MS = 10 * 60 * 1000;
/** A holder older than the state machine's own time limit (3 h) cannot still be running. */
export const RUN_SLOT_HOLDER_TIMEOUT_MS = 3 * 60 * 60 * 1000 + 60 * 1000;

export type RunSlots = {
  /** runId → when it took its slot (ISO). */
  holders: Record<string, string>;
  /** First come, first served; `lastSeen` is the waiter's latest attempt (ISO). */
  waiting: { runId: string; lastSeen: string }[];
};

export const NO_RUN_SLOTS: RunSlots = { holders: {}, waiting: [] };

/** Read-modify-write of one hospital's semaphore, applied atomically (retried by the store on a lost race). */
export type RunSlotStore = {
  update<T>(hospitalId: string, change: (slots: RunSlots) => { slots: RunSlots; result: T }): Promise<T>;
};

/** The hospital is at its limit: the state machine retries this error with back-off. */
export class RunSlotsFullError extends Error {
  override name = 'RunSlotsFull';
  constructor() {
    super('The hospital has the most pipeline runs allowed at once; waiting for a slot.');
  }
}

/** Drops holders and waiters that can no longer be alive, so a stopped execution never blocks the hospital. */
function withoutStale(slots: RunSlots, now: number): RunSlots {
  const holders = Object.fromEntries(
    Object.entries(slots.holders).filter(([, since]) => now - Date.parse(since) < RUN_SLOT_HOLDER_TIMEOUT_MS),
  );
  const waiting = slots.waiting.filter((w) => now - Date.parse(w.lastSeen) < RUN_SLOT_WAITER_TIMEOUT_MS);
  return { holders, waiting };
}

/** One attempt of `runId` to take a slot: it keeps (or takes) its place in line and gets a slot at the front. */
export function tryAcquire(
  current: RunSlots,
  runId: string,
  nowIso: string,
  limit: number,
): { slots: RunSlots; result: boolean } {
  const slots = withoutStale(current, Date.parse(nowIso));
  if (runId in slots.holders) return { slots, result: true };
  const waiting = slots.waiting.some((w) => w.runId === runId)
    ? slots.waiting.map((w) => (w.runId === runId ? { runId, lastSeen: nowIso } : w))
    : [...slots.waiting, { runId, lastSeen: nowIso }];
  if (Object.keys(slots.holders).length < limit && waiting[0]?.runId === runId) {
    return { slots: { holders: { ...slots.holders, [runId]: nowIso }, waiting: waiting.slice(1) }, result: true };
  }
  return { slots: { holders: slots.holders, waiting }, result: false };
}

/** Gives the slot back, or the place in line of a run that ends while still waiting. */
export function releaseSlot(current: RunSlots, runId: string): RunSlots {
  const holders = Object.fromEntries(Object.entries(current.holders).filter(([id]) => id !== runId));
  return { holders, waiting: current.waiting.filter((w) => w.runId !== runId) };
}

export type RunSlotDeps = { runSlots: RunSlotStore; clock: Clock } & PolicyDeps;

/** The hospital's number of run slots: its resolved policy's queue concurrency. */
export async function runSlotLimit(hospitalId: string, deps: PolicyDeps): Promise<number> {
  return (await policyFor(hospitalId, null, deps)).storageCompute.computeThrottles.queueConcurrency;
}

export async function acquireRunSlot(input: StageInput, deps: RunSlotDeps): Promise<void> {
  const limit = await runSlotLimit(input.hospitalId, deps);
  const acquired = await deps.runSlots.update(input.hospitalId, (slots) =>
    tryAcquire(slots, input.runId, deps.clock.now(), limit),
  );
  if (!acquired) throw new RunSlotsFullError();
}

export async function releaseRunSlot(input: StageInput, deps: Omit<RunSlotDeps, 'settings'>): Promise<void> {
  await deps.runSlots.update(input.hospitalId, (slots) => ({
    slots: releaseSlot(slots, input.runId),
    result: undefined,
  }));
}
