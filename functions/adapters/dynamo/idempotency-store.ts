import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { keys } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS, TTL_ATTRIBUTE } from '#shared/definitions/table/table.ts';
import { createIdempotency, type Idempotency } from '#functions/lib/idempotency.ts';

/**
 * Idempotency records in the single table (docs/domain.md#idempotency-records): Powertools' DynamoDB persistence
 * layer on the table's own key attributes, its partition the hospital's `H#<hospitalId>#IDEMPOTENCY` (a static
 * partition key per layer, so one layer per hospital) and its sort key `<operation>#<hash>`, expiring through the
 * table's TTL attribute. The client is the adapters' own, so a host that checks calls checks them against the function's grants
 * (PutItem, GetItem, UpdateItem, DeleteItem on the table: every `readWrite` function has them) and the Tracer sees
 * them.
 */
export function createDynamoIdempotency(client: DynamoDBClient, tableName: () => string): Idempotency {
  return createIdempotency(
    (hospitalId) =>
      new DynamoDBPersistenceLayer({
        tableName: tableName(),
        awsSdkV3Client: client,
        keyAttr: TABLE_KEYS.primary.pk,
        sortKeyAttr: TABLE_KEYS.primary.sk,
        staticPkValue: keys.idempotencyPartition(hospitalId),
        expiryAttr: TTL_ATTRIBUTE,
      }),
  );
}
