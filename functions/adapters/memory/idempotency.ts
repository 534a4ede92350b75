import { IdempotencyItemAlreadyExistsError, IdempotencyItemNotFoundError } from '@aws-lambda-powertools/idempotency';
import { BasePersistenceLayer, type IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import { createIdempotency, type Idempotency } from '#functions/lib/idempotency.ts';

/**
 * Powertools' idempotency over records in memory, with the DynamoDB layer's put condition (the key is free, its
 * record expired, or an IN_PROGRESS record's lock passed), so tests run the real utility without a table.
 */
export class MemoryPersistenceLayer extends BasePersistenceLayer {
  readonly records = new Map<string, IdempotencyRecord>();

  protected async _getRecord(idempotencyKey: string): Promise<IdempotencyRecord> {
    const record = this.records.get(idempotencyKey);
    if (!record) throw new IdempotencyItemNotFoundError();
    return record;
  }

  protected async _putRecord(record: IdempotencyRecord): Promise<void> {
    const existing = this.records.get(record.idempotencyKey);
    const now = Date.now();
    const expired = existing && (existing.expiryTimestamp ?? 0) < now / 1000;
    const lockPassed =
      existing?.getStatus() === 'INPROGRESS' &&
      existing.inProgressExpiryTimestamp !== undefined &&
      existing.inProgressExpiryTimestamp < now;
    if (existing && !expired && !lockPassed)
      throw new IdempotencyItemAlreadyExistsError(`exists: ${record.idempotencyKey}`, existing);
    this.records.set(record.idempotencyKey, record);
  }

  protected async _updateRecord(record: IdempotencyRecord): Promise<void> {
    this.records.set(record.idempotencyKey, record);
  }

  protected async _deleteRecord(record: IdempotencyRecord): Promise<void> {
    this.records.delete(record.idempotencyKey);
  }
}

/** The project's guard over memory layers; `layers` holds each hospital's (for asserting what was kept). */
export function memoryIdempotency(): { idempotency: Idempotency; layers: MemoryPersistenceLayer[] } {
  const layers: MemoryPersistenceLayer[] = [];
  return {
    idempotency: createIdempotency(() => {
      const layer = new MemoryPersistenceLayer();
      layers.push(layer);
      return layer;
    }),
    layers,
  };
}
