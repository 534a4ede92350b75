import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { prepareClient } from '#functions/adapters/aws-clients.ts';

/** The DynamoDB client, at the regional endpoint unless one is given (DYNAMODB_ENDPOINT). */
export function createDynamoClient(options: { region: string; endpoint?: string }): DynamoDBClient {
  return prepareClient(
    new DynamoDBClient({
      region: options.region,
      ...(options.endpoint
        ? { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
    }),
  );
}

/** Document client over a client of createDynamoClient (one is made when none is given). */
export function createDocumentClient(
  options: { region: string; endpoint?: string },
  client: DynamoDBClient = createDynamoClient(options),
): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true },
  });
}

export type Table = { doc: DynamoDBDocumentClient; tableName: string };
