import { GLOBAL_INDEXES, TABLE_KEYS } from './table.ts';

/**
 * CreateTable input for the local DynamoDB-compatible store and integration tests, derived from TABLE_KEYS
 * (the CDK construct derives the cloud table from the same constants).
 */
export function createTableInput(tableName: string) {
  const attributeNames = [
    TABLE_KEYS.primary.pk,
    TABLE_KEYS.primary.sk,
    ...GLOBAL_INDEXES.flatMap((index) => [index.pk, index.sk]),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: attributeNames.map((AttributeName) => ({ AttributeName, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: TABLE_KEYS.primary.pk, KeyType: 'HASH' as const },
      { AttributeName: TABLE_KEYS.primary.sk, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: GLOBAL_INDEXES.map((index) => ({
      IndexName: index.index,
      KeySchema: [
        { AttributeName: index.pk, KeyType: 'HASH' as const },
        { AttributeName: index.sk, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
}
