import {
  DynamoDBDocumentClient,
  UpdateCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { DescribeTableCommand, DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListPartsCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPageTokens, createPseudonymizer } from '#functions/adapters/crypto.ts';
import { createAwsDeps } from '#functions/adapters/index.ts';
import { readEnv } from '#functions/lib/env.ts';
import { createDatasetRepository } from '#functions/adapters/dynamo/datasets-repository.ts';
import { createObjectStore, createS3Client } from '#functions/adapters/s3/object-store.ts';
import { createSecretSource } from '#functions/adapters/secrets.ts';
import { createPipelineStarter } from '#functions/adapters/sfn/pipeline-starter.ts';
import { keys } from '#shared/definitions/table/keys.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import { ConflictError, NotFoundError } from '#shared/domain/errors.ts';

const buckets = { uploads: 'up-bucket', studies: 'st-bucket', assets: 'as-bucket' };

// One mock per client class for the whole file (a second mockClient of the same class would replace the first).
const s3Mock = mockClient(S3Client);
const sfnMock = mockClient(SFNClient);
const smMock = mockClient(SecretsManagerClient);
const ddbMock = mockClient(DynamoDBDocumentClient);
afterEach(() => {
  vi.unstubAllEnvs();
  s3Mock.reset();
  sfnMock.reset();
  smMock.reset();
  ddbMock.reset();
});

describe('S3 object store', () => {
  it('presigns part uploads without SDK checksum parameters (browsers cannot send them), path-style on the public endpoint', async () => {
    // A local endpoint signs with the key pair in the environment (the twin puts its own there).
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'TWINKEY');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'twin-secret');
    const store = createObjectStore({
      region: 'us-east-1',
      buckets,
      endpoint: 'http://127.0.0.1:9000',
      publicEndpoint: 'http://localhost:3000/_s3',
    });
    const url = new URL(await store.presignPart('uploads', 'h1/d1/raw/0', 'upload-1', 3, 3600));
    expect(url.origin + url.pathname).toBe('http://localhost:3000/_s3/up-bucket/h1/d1/raw/0');
    expect(url.searchParams.get('partNumber')).toBe('3');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^TWINKEY\//);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
    expect([...url.searchParams.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);
    const get = new URL(await store.presignGet('assets', 'h1/d1/report.pdf', 900));
    expect(get.searchParams.get('X-Amz-Expires')).toBe('900');
  });

  it('configures checksums WHEN_REQUIRED in every environment', async () => {
    for (const client of [createS3Client('eu-west-1'), createS3Client('us-east-1', 'http://127.0.0.1:9000')]) {
      expect(await client.config.requestChecksumCalculation()).toBe('WHEN_REQUIRED');
      expect(await client.config.responseChecksumValidation()).toBe('WHEN_REQUIRED');
    }
  });

  it('creates multipart uploads in the bucket of the role and lists stored parts for resume', async () => {
    s3Mock.on(CreateMultipartUploadCommand).resolves({ UploadId: 'u-1' });
    s3Mock
      .on(ListPartsCommand)
      .resolvesOnce({ Parts: [{ PartNumber: 1, ETag: '"a"', Size: 8 }], IsTruncated: true, NextPartNumberMarker: '1' })
      .resolvesOnce({ Parts: [{ PartNumber: 2, ETag: '"b"', Size: 3 }], IsTruncated: false });
    const store = createObjectStore({ region: 'us-east-1', buckets });
    expect(await store.createMultipart('uploads', 'k')).toBe('u-1');
    expect(s3Mock.commandCalls(CreateMultipartUploadCommand)[0]!.args[0].input).toMatchObject({
      Bucket: 'up-bucket',
      Key: 'k',
    });
    expect(await store.listParts('uploads', 'k', 'u-1')).toEqual([
      { partNumber: 1, etag: '"a"', size: 8 },
      { partNumber: 2, etag: '"b"', size: 3 },
    ]);
  });

  it('backs the health check: the table and each bucket, naming what does not answer', async () => {
    ddbMock.on(DescribeTableCommand as never).resolves({ Table: { TableStatus: 'ACTIVE' } } as never);
    s3Mock.on(HeadBucketCommand, { Bucket: 'as-bucket' }).rejects(Object.assign(new Error('no'), { name: 'NotFound' }));
    s3Mock.on(HeadBucketCommand, { Bucket: 'up-bucket' }).resolves({});
    s3Mock.on(HeadBucketCommand, { Bucket: 'st-bucket' }).resolves({});
    const deps = await createAwsDeps(
      readEnv({
        TABLE_NAME: 'tbl',
        UPLOADS_BUCKET: 'up-bucket',
        STUDIES_BUCKET: 'st-bucket',
        ASSETS_BUCKET: 'as-bucket',
        PSEUDONYM_SECRET_ARN: 'arn:secret',
      }),
    );
    expect(await deps.health.failing()).toEqual(['assets bucket']);
    ddbMock.on(DescribeTableCommand as never).rejects(new Error('down'));
    expect(await deps.health.failing()).toEqual(['table', 'assets bucket']);
  });

  it('treats a finished or aborted upload as having no parts', async () => {
    s3Mock.on(ListPartsCommand).rejects(Object.assign(new Error('gone'), { name: 'NoSuchUpload' }));
    expect(await createObjectStore({ region: 'us-east-1', buckets }).listParts('uploads', 'k', 'u')).toEqual([]);
  });

  it('reads a byte range of an object with an inclusive HTTP Range (a study archive is read in pieces)', async () => {
    const Body = { transformToByteArray: async () => new Uint8Array([1, 2, 3]) };
    s3Mock.on(GetObjectCommand).resolves({ Body } as never);
    const bytes = await createObjectStore({ region: 'us-east-1', buckets }).getRange('uploads', 'k.tar', 16, 19);
    expect(bytes).toEqual(new Uint8Array([1, 2, 3]));
    expect(s3Mock.commandCalls(GetObjectCommand)[0]!.args[0].input).toMatchObject({
      Bucket: 'up-bucket',
      Key: 'k.tar',
      Range: 'bytes=16-18',
    });
  });
});

describe('Step Functions pipeline starter', () => {
  it('starts one execution per run with a unique, valid name and the PipelineInput', async () => {
    sfnMock.on(StartExecutionCommand).resolves({ executionArn: 'arn:x' });
    await createPipelineStarter({
      region: 'us-east-1',
      stateMachineArn: 'arn:aws:states:us-east-1:1:stateMachine:p',
    }).start({ hospitalId: 'h1', datasetId: 'd1', runId: 'r1' });
    const input = sfnMock.commandCalls(StartExecutionCommand)[0]!.args[0].input;
    expect(input).toEqual({
      stateMachineArn: 'arn:aws:states:us-east-1:1:stateMachine:p',
      name: 'd1-r1',
      input: JSON.stringify({ hospitalId: 'h1', datasetId: 'd1', runId: 'r1' }),
    });
  });

  it('treats ExecutionAlreadyExists for the same run as started', async () => {
    sfnMock.on(StartExecutionCommand).rejects(Object.assign(new Error('exists'), { name: 'ExecutionAlreadyExists' }));
    await expect(
      createPipelineStarter({ region: 'us-east-1', stateMachineArn: 'arn:sm' }).start({
        hospitalId: 'h',
        datasetId: 'd',
        runId: 'r',
      }),
    ).resolves.toBeUndefined();
  });
});

describe('secrets', () => {
  it('reads the pseudonym secret once from Secrets Manager in the cloud, from the env locally', async () => {
    smMock.on(GetSecretValueCommand).resolves({ SecretString: 'cloud-secret' });
    const cloud = createSecretSource({ region: 'us-east-1', secretArn: 'arn:secret' });
    expect(await cloud()).toBe('cloud-secret');
    expect(await cloud()).toBe('cloud-secret');
    expect(smMock.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    expect(await createSecretSource({ region: 'us-east-1', secret: 'local' })()).toBe('local');
  });
});

describe('page tokens and patient aliases', () => {
  it('seal a key to its scope; another scope, a forgery or a different secret cannot open it', async () => {
    const tokens = createPageTokens(() => 'secret-1');
    const token = await tokens.seal('["datasets","h1"]', { pk: 'H#h1', sk: 'DS#1' });
    expect(token).not.toContain('h1');
    expect(await tokens.open('["datasets","h1"]', token)).toEqual({ pk: 'H#h1', sk: 'DS#1' });
    await expect(tokens.open('["datasets","h2"]', token)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(tokens.open('["datasets","h1"]', `${token.slice(0, -3)}abc`)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(createPageTokens(() => 'secret-2').open('["datasets","h1"]', token)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('derive the patient alias per hospital from the MRN, never containing it', async () => {
    const pseudonymizer = createPseudonymizer(async () => 'secret');
    const a = await pseudonymizer.patientAlias('h1', 'MRN-42');
    expect(a).toMatch(/^PT-[0-9A-F]{16}$/);
    expect(await pseudonymizer.patientAlias('h1', ' mrn-42 ')).toBe(a);
    expect(await pseudonymizer.patientAlias('h2', 'MRN-42')).not.toBe(a);
  });
});

describe('DynamoDB dataset repository', () => {
  const repo = () =>
    createDatasetRepository({
      doc: DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })),
      tableName: 'tbl',
    });

  it('makes a status change one conditional write that also moves the status index', async () => {
    ddbMock.on(UpdateCommand).resolves({ Attributes: { pk: 'H#h1', sk: 'DS#d1', id: 'd1', status: 'ANONYMIZING' } });
    const updated = await repo().transition('h1', 'd1', ['UPLOADING'], 'ANONYMIZING', { failureReason: undefined });
    expect(updated).toEqual({ id: 'd1', status: 'ANONYMIZING' });
    const input = ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(input.Key).toEqual({ [TABLE_KEYS.primary.pk]: 'H#h1', [TABLE_KEYS.primary.sk]: 'DS#d1' });
    expect(input.ConditionExpression).toBe('attribute_exists(#pk) AND #status IN (:expected0)');
    expect(input.ExpressionAttributeValues).toMatchObject({ ':expected0': 'UPLOADING' });
    expect(Object.values(input.ExpressionAttributeValues!)).toContain('H#h1#DS#STATUS#ANONYMIZING');
    expect(input.UpdateExpression).toMatch(/REMOVE/);
  });

  it('writes a status change and its audit event in one transaction, retrying a lost race for the chain head', async () => {
    const audit = {
      hospitalId: 'h1',
      datasetId: 'd1',
      action: 'STATUS_CHANGED',
      actorUserId: 'u',
      actorName: 'U',
      details: { to: 'ANONYMIZING' },
    };
    ddbMock.on(TransactWriteCommand).resolves({});
    ddbMock.on(GetCommand).resolves({ Item: { pk: 'H#h1', sk: 'DS#d1', id: 'd1', status: 'ANONYMIZING' } });
    const repository = repo();
    expect(await repository.transition('h1', 'd1', ['UPLOADING'], 'ANONYMIZING', {}, audit)).toEqual({
      id: 'd1',
      status: 'ANONYMIZING',
    });
    // The status update, the chain head moving on, and the event at its position: one transaction.
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Update!.ConditionExpression).toContain('#status IN (:expected0)');
    expect(items[1]!.Update!.Key).toEqual(keys.auditHead('h1'));
    expect(items[2]!.Put!.Item).toMatchObject({
      [TABLE_KEYS.primary.pk]: 'H#h1#AUDIT',
      action: 'STATUS_CHANGED',
      datasetId: 'd1',
      seq: 1,
    });

    ddbMock.reset();
    const head = { seq: 4, hash: 'c'.repeat(64) };
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(
        new TransactionCanceledException({
          message: 'cancelled',
          $metadata: {},
          CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }, { Code: 'None' }],
        }),
      )
      .resolves({});
    ddbMock.on(GetCommand).resolves({ Item: { pk: 'H#h1', sk: 'DS#d1', id: 'd1', status: 'ANONYMIZING' } });
    ddbMock.on(GetCommand, { Key: keys.auditHead('h1') }).resolves({ Item: head });
    await repo().transition('h1', 'd1', ['UPLOADING'], 'ANONYMIZING', {}, audit);
    // The head moved under it (reason 1): the head is read again and the whole transaction sent again, never in parts.
    const attempts = ddbMock.commandCalls(TransactWriteCommand);
    expect(attempts).toHaveLength(2);
    const headReads = ddbMock
      .commandCalls(GetCommand)
      .filter((call) => JSON.stringify(call.args[0].input.Key) === JSON.stringify(keys.auditHead('h1')));
    expect(headReads).toHaveLength(2);
    const retried = attempts[1]!.args[0].input.TransactItems!;
    expect(retried[1]!.Update!.ExpressionAttributeValues).toMatchObject({ ':prev': head.hash, ':seq': 5 });
    expect(retried[2]!.Put!.Item).toMatchObject({ seq: 5, prevHash: head.hash });
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(ddbMock.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('turns a lost condition into ConflictError, or DATASET_NOT_FOUND when the dataset is gone', async () => {
    const failed = Object.assign(new Error('cond'), { name: 'ConditionalCheckFailedException' });
    ddbMock.on(UpdateCommand).rejects(failed);
    ddbMock
      .on(GetCommand)
      .resolvesOnce({ Item: { id: 'd1', status: 'COMPLETE' } })
      .resolvesOnce({});
    await expect(repo().transition('h1', 'd1', ['PROCESSING'], 'COMPLETE')).rejects.toBeInstanceOf(ConflictError);
    await expect(repo().transition('h1', 'd1', ['PROCESSING'], 'COMPLETE')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lists through an index with Limit and never scans', async () => {
    ddbMock.on(QueryCommand).resolves({ Items: [], LastEvaluatedKey: undefined });
    await repo().list({ hospitalId: 'h1', limit: 12 });
    const input = ddbMock.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(input).toMatchObject({
      IndexName: TABLE_KEYS.gsi1.index,
      Limit: 12,
      ScanIndexForward: false,
      ExpressionAttributeValues: { ':ipk': 'H#h1#DS' },
    });
  });
});
