import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { prepareClient } from '#functions/adapters/aws-clients.ts';

/** Document client, at the regional endpoint unless one is given (DYNAMODB_ENDPOINT). */
export function createDocumentClient(options: { region: string; endpoint?: string }): DynamoDBDocumentClient {
  const client = prepareClient(
    new DynamoDBClient({
      region: options.region,
      ...(options.endpoint
        ? { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
    }),
  );
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true },
  });
}

export type Table = { doc: DynamoDBDocumentClient; tableName: string };
