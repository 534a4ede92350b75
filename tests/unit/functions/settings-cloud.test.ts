/**
 * The cloud paths of the settings adapters (docs/domain.md#policies-and-inheritance, docs/domain.md#settings): the
 * storage counter read defensively, the hospital walk of the retention job (a paginated Scan), and the avatar's
 * presigned PUT, which signs the content type and length.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#functions/adapters/dynamo/client.ts';
import { createSettingsStore } from '#functions/adapters/dynamo/settings-store.ts';
import { createAvatarSigner } from '#functions/adapters/s3/avatar-signer.ts';

const ddb = mockClient(DynamoDBDocumentClient);
afterEach(() => ddb.reset());
const store = () =>
  createSettingsStore({ doc: createDocumentClient({ region: 'eu-west-1' }), tableName: 'imaging-test' });

describe('settings store against DynamoDB', () => {
  it("reads the hospital's storageUsedBytes, and 0 when absent, not a number or negative", async () => {
    ddb.on(GetCommand).resolves({ Item: { storageUsedBytes: 1234 } });
    expect(await store().storageUsedBytes('h1')).toBe(1234);
    expect(ddb.commandCalls(GetCommand)[0]!.args[0].input.Key).toEqual({ pk: 'H#h1', sk: 'HOSPITAL' });
    for (const Item of [undefined, { name: 'x' }, { storageUsedBytes: '12' }, { storageUsedBytes: -5 }]) {
      ddb.reset();
      ddb.on(GetCommand).resolves({ Item });
      expect(await store().storageUsedBytes('h1')).toBe(0);
    }
  });

  it('lists every hospital across scan pages, reading only the hospital items', async () => {
    ddb
      .on(ScanCommand)
      .resolvesOnce({ Items: [{ id: 'h2' }], LastEvaluatedKey: { pk: 'H#h2', sk: 'HOSPITAL' } })
      .resolvesOnce({ Items: [{ id: 'h1' }] });
    expect(await store().listHospitalIds()).toEqual(['h1', 'h2']);
    const calls = ddb.commandCalls(ScanCommand);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.args[0].input).toMatchObject({
      FilterExpression: '#sk = :hospital',
      ExpressionAttributeValues: { ':hospital': 'HOSPITAL' },
    });
    expect(calls[1]!.args[0].input.ExclusiveStartKey).toEqual({ pk: 'H#h2', sk: 'HOSPITAL' });
  });

  it('updates the profile of an existing hospital only, mapping the address', async () => {
    ddb.on(UpdateCommand).resolves({});
    await store().updateHospitalProfile(
      'h1',
      { name: 'N G', email: 'a@b.co', phone: '1234567890', address: '1 Long Street', billingContact: 'b@b.co' },
      '2026-01-01T00:00:00.000Z',
    );
    const input = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(input.ConditionExpression).toBe('attribute_exists(pk)');
    expect(Object.values(input.ExpressionAttributeNames!)).toContain('addressLine1');
  });
});

describe('avatar presigning', () => {
  it('signs a PUT bound to the content type and length, and a GET, both short-lived', async () => {
    const s3 = new S3Client({
      region: 'eu-west-1',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    });
    const signer = createAvatarSigner(s3, () => 'assets-bucket');
    const put = new URL(await signer.presignPut('h1/_avatars/u1', 'image/png', 1000, 300));
    expect(put.pathname).toContain('h1/_avatars/u1');
    expect(put.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(put.searchParams.get('X-Amz-SignedHeaders')!.split(';')).toEqual(
      expect.arrayContaining(['content-length', 'content-type', 'host']),
    );
    const get = new URL(await signer.presignGet('h1/_avatars/u1', 300));
    expect(get.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
  });
});
