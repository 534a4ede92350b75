import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import type { JSONValue } from '@aws-lambda-powertools/commons/types';
import type { Context } from 'aws-lambda';
import { DomainError } from '#shared/domain/errors.ts';
import { count, countForHospital } from './metrics.ts';

/**
 * Units of work that a retry must not repeat (docs/observability.md#idempotency), each keyed by a natural key: the
 * intake commit of a received study, the completion of an upload session, an invitation's e-mail, a team share's
 * creation. A key that a caller's request names (a session, a dataset) also holds the caller's user id, so a stored
 * result is only ever handed to the caller it was made for. Powertools for AWS Lambda's idempotency utility keeps one record per key: IN_PROGRESS
 * while the work runs (a second call with the same key meanwhile is refused, TOO_MANY_REQUESTS, and the client's
 * back-off brings it back), then COMPLETED with the work's result, which a retry within the window gets instead of
 * running the work again. A unit that throws leaves no record: the retry runs it again, so each unit is itself
 * written to finish on a retry what a crash left half done (docs/dicom-intake.md#commit).
 */
export type IdempotentOperation = 'intake-commit' | 'upload-complete' | 'invitation-send' | 'team-share-create';

/** How long a completed unit answers retries with its result. */
const WINDOW_SECONDS: Record<IdempotentOperation, number> = {
  // A commit is final: a second commit of the same dataset has nothing left to do for as long as anyone retries.
  'intake-commit': 24 * 60 * 60,
  'upload-complete': 24 * 60 * 60,
  // After the window a new send of the same address is refused by the invitation rules (EMAIL_ALREADY_INVITED).
  'invitation-send': 60 * 60,
  'team-share-create': 60 * 60,
};

/** Without an invocation's deadline (the sweep's units, tests) a unit holds its key this long at most. */
const DEFAULT_LOCK_MS = 60_000;

export type IdempotentUnit = {
  /** The hospital whose partition keeps its idempotency record (shared/definitions/table/keys.ts, `keys.idempotencyPartition`). */
  hospitalId: string;
  operation: IdempotentOperation;
  /** The natural key: our ids (an e-mail address at most), never a body or a DICOM value; hashed into its record's key. */
  key: Record<string, JSONValue>;
  /** What the unit was asked with: a retry under the same key with other values is refused (`onMismatch`). */
  payload?: JSONValue;
  /** The answer to a same-key call whose payload differs. */
  onMismatch?: () => Error;
  /** Time left to the invocation: an IN_PROGRESS record left by a crash frees its key once it has passed. */
  remainingMs?: () => number;
};

export type Idempotency = {
  /** Runs `work` once per key within the operation's window; a retry gets the stored result. */
  once<T>(unit: IdempotentUnit, work: () => Promise<T>): Promise<T>;
};

/** A call under a key whose work is running right now (TOO_MANY_REQUESTS: come back after a moment). */
export class WorkInProgressError extends DomainError {
  override name = 'WorkInProgressError';
  constructor() {
    super('TOO_MANY_REQUESTS');
  }
}

/**
 * The guard over a persistence layer per hospital and operation: each record's partition is the hospital's (a layer
 * has one static partition key) and each layer keeps the key prefix and window of its operation.
 */
export function createIdempotency(layerFor: (hospitalId: string) => BasePersistenceLayer): Idempotency {
  const layers = new Map<string, BasePersistenceLayer>();
  const layer = (hospitalId: string, operation: IdempotentOperation) => {
    const id = `${hospitalId}\u0000${operation}`;
    let found = layers.get(id);
    if (!found) layers.set(id, (found = layerFor(hospitalId)));
    return found;
  };
  return {
    async once<T>(unit: IdempotentUnit, work: () => Promise<T>): Promise<T> {
      const config = new IdempotencyConfig({
        eventKeyJmesPath: 'key',
        throwOnNoIdempotencyKey: true,
        expiresAfterSeconds: WINDOW_SECONDS[unit.operation],
        ...(unit.payload === undefined ? {} : { payloadValidationJmesPath: 'payload' }),
      });
      const remainingMs = unit.remainingMs ?? (() => DEFAULT_LOCK_MS);
      config.registerLambdaContext({ getRemainingTimeInMillis: remainingMs } as Context);
      let ran = false;
      const guarded = makeIdempotent(
        async (_request: { key: JSONValue; payload: JSONValue }) => {
          ran = true;
          // The stored result is what a retry gets: plain JSON, as the caller would have received it.
          const result = await work();
          return result === undefined ? null : (JSON.parse(JSON.stringify(result)) as JSONValue);
        },
        { persistenceStore: layer(unit.hospitalId, unit.operation), config, keyPrefix: unit.operation },
      );
      try {
        const result = await guarded({ key: unit.key, payload: unit.payload ?? null });
        if (!ran) count('IdempotentReplays');
        return (result ?? undefined) as T;
      } catch (error) {
        if (error instanceof IdempotencyAlreadyInProgressError) throw new WorkInProgressError();
        if (error instanceof IdempotencyValidationError && unit.onMismatch) throw unit.onMismatch();
        throw error;
      }
    },
  };
}

/** Runs the work as it is: for ports built without a table (the CLI's local runs). */
export const NO_IDEMPOTENCY: Idempotency = { once: (_unit, work) => work() };

/**
 * The intake commit of a received study as one unit per dataset (docs/dicom-intake.md#commit): the explicit commit
 * and the sweep share the key, so they never run one study's commit at once. A unit that another caller is running
 * is left to it: `false`, nothing committed here.
 */
export function intakeCommitGuard(
  idempotency: Idempotency,
  remainingMs?: () => number,
): (record: { hospitalId: string; datasetId: string }, commit: () => Promise<boolean>) => Promise<boolean> {
  return async (record, commit) => {
    try {
      return await idempotency.once(
        {
          hospitalId: record.hospitalId,
          operation: 'intake-commit',
          key: { datasetId: record.datasetId },
          ...(remainingMs ? { remainingMs } : {}),
        },
        async () => {
          const committed = await commit();
          // Counted inside the unit, so a replayed answer is not counted twice.
          if (committed) countForHospital('DatasetsCommitted', record.hospitalId);
          return committed;
        },
      );
    } catch (error) {
      if (error instanceof WorkInProgressError) return false;
      throw error;
    }
  };
}
