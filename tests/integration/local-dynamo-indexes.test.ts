import dynalite from 'dynalite';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ensureTable } from '#infra/local/dynamo.ts';
import { createTableInput } from '#shared/definitions/table/create-table-input.ts';

/** A data folder made before the organisation indexes: the twin adds them at start and keeps every item. */
describe('local table of an older data folder', () => {
  it('gets the missing indexes, with its items written back and found through them', async () => {
    // Prepare
    const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const call = async (target: string, body: unknown) =>
      (await (
        await fetch(endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-amz-json-1.0',
            'x-amz-target': `DynamoDB_20120810.${target}`,
            'x-amz-date': '20240101T000000Z',
            authorization:
              'AWS4-HMAC-SHA256 Credential=local/20240101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=local',
          },
          body: JSON.stringify(body),
        })
      ).json()) as Record<string, any>;
    const input = createTableInput('older-table');
    await call('CreateTable', {
      ...input,
      GlobalSecondaryIndexes: input.GlobalSecondaryIndexes.slice(0, 3),
      AttributeDefinitions: input.AttributeDefinitions.filter((a) => !/gsi[4-9]/.test(a.AttributeName)),
    });
    await call('PutItem', {
      TableName: 'older-table',
      Item: { pk: { S: 'H#a' }, sk: { S: 'USER#1' }, gsi4pk: { S: 'H#a#USER' }, gsi4sk: { S: 'x#1' } },
    });

    // Act
    await ensureTable(endpoint, 'older-table');
    await ensureTable(endpoint, 'older-table');

    // Assess
    const described = await call('DescribeTable', { TableName: 'older-table' });
    expect(described.Table.GlobalSecondaryIndexes.map((i: { IndexName: string }) => i.IndexName).sort()).toEqual(
      input.GlobalSecondaryIndexes.map((i) => i.IndexName).sort(),
    );
    const found = await call('Query', {
      TableName: 'older-table',
      IndexName: 'gsi4',
      KeyConditionExpression: 'gsi4pk = :p',
      ExpressionAttributeValues: { ':p': { S: 'H#a#USER' } },
    });
    expect(found.Items).toHaveLength(1);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
