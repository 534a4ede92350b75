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
import { registerClientHook } from '#functions/adapters/aws-clients.ts';
import { createSecretSource, PSEUDONYM_SECRET_MAX_AGE_SECONDS } from '#functions/adapters/secrets.ts';
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

describe('pseudonym secret', () => {
  const ARN = 'arn:aws:secretsmanager:us-east-1:111122223333:secret:imaging-test/pseudonym-key-AbCdEf';
  const source = () => createSecretSource({ region: 'us-east-1', secretArn: () => ARN });
  afterEach(() => vi.useRealTimers());

  it('reads the secret the ARN names once, and keeps it for the max age', async () => {
    // Prepare
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-01-01T00:00:00Z') });
    smMock.on(GetSecretValueCommand, { SecretId: ARN }).resolves({ SecretString: 'cloud-secret' });
    const secret = source();

    // Act: a cold container's first requests at once, then later ones within the max age.
    const first = await Promise.all([secret(), secret(), secret()]);
    vi.setSystemTime(Date.now() + (PSEUDONYM_SECRET_MAX_AGE_SECONDS - 1) * 1000);
    const cached = await secret();

    // Assess
    expect(first).toEqual(['cloud-secret', 'cloud-secret', 'cloud-secret']);
    expect(cached).toBe('cloud-secret');
    expect(smMock.commandCalls(GetSecretValueCommand)).toHaveLength(1);

    // Act: past the max age it is read again.
    vi.setSystemTime(Date.now() + 2000);
    expect(await secret()).toBe('cloud-secret');
    expect(smMock.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('fails on an empty or binary secret, and reads again on the next call', async () => {
    // Prepare
    smMock
      .on(GetSecretValueCommand)
      .resolvesOnce({ SecretString: '' })
      .resolvesOnce({ SecretBinary: new Uint8Array([1, 2]) })
      .resolves({ SecretString: 'cloud-secret' });
    const secret = source();

    // Act and assess
    await expect(secret()).rejects.toThrow('The pseudonym secret is empty');
    await expect(secret()).rejects.toThrow('The pseudonym secret is empty');
    expect(await secret()).toBe('cloud-secret');
    expect(smMock.commandCalls(GetSecretValueCommand)).toHaveLength(3);
  });

  it("passes on Secrets Manager's own error, and caches no failure", async () => {
    // Prepare
    smMock
      .on(GetSecretValueCommand)
      .rejectsOnce(
        Object.assign(new Error("Secrets Manager can't find the specified secret."), {
          name: 'ResourceNotFoundException',
        }),
      )
      .resolves({ SecretString: 'cloud-secret' });
    const secret = source();

    // Act and assess
    await expect(secret()).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    expect(await secret()).toBe('cloud-secret');
  });

  it('makes its client through prepareClient, on the endpoint override where one is set', async () => {
    // Prepare: the hook stays registered for this file; it only records.
    const seen: { name: string; endpoint?: string }[] = [];
    registerClientHook((client) => {
      const config = (
        client as unknown as { config: { endpoint?: () => Promise<{ hostname: string; port?: number }> } }
      ).config;
      seen.push({ name: client.constructor.name, endpoint: config.endpoint ? 'set' : undefined });
    });
    smMock.on(GetSecretValueCommand).resolves({ SecretString: 'cloud-secret' });

    // Act
    await createSecretSource({ region: 'us-east-1', secretArn: () => ARN, endpoint: 'http://127.0.0.1:4566' })();
    const client = smMock.call(0).thisValue as SecretsManagerClient;

    // Assess
    expect(seen).toContainEqual({ name: 'SecretsManagerClient', endpoint: 'set' });
    expect(await client.config.endpoint!()).toMatchObject({ hostname: '127.0.0.1', port: 4566 });
  });

  it("fails naming PSEUDONYM_SECRET_ARN in a function not granted the secret, and takes a host's own source", async () => {
    // Prepare
    const env = readEnv({ TABLE_NAME: 'tbl' });

    // Act
    const ungranted = await createAwsDeps(env);
    const hosted = await createAwsDeps(env, { pseudonymSecret: async () => 'held-here' });

    // Assess
    await expect(ungranted.pseudonymSecret()).rejects.toThrow(/PSEUDONYM_SECRET_ARN is not set/);
    expect(await hosted.pseudonymSecret()).toBe('held-here');
    expect(await hosted.pseudonymizer.patientAlias('h1', 'MRN-1')).toBe(
      await createPseudonymizer(async () => 'held-here').patientAlias('h1', 'MRN-1'),
    );
    expect(smMock.commandCalls(GetSecretValueCommand)).toHaveLength(0);
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
    expect(input.ConditionExpression).toBe(
      'attribute_exists(#pk) AND attribute_not_exists(#deletedAt) AND #status IN (:expected0)',
    );
    expect(input.ExpressionAttributeValues).toMatchObject({ ':expected0': 'UPLOADING' });
    expect(Object.values(input.ExpressionAttributeValues!)).toContain('H#h1#DS#STATUS#ANONYMIZING');
    expect(input.UpdateExpression).toMatch(/REMOVE/);
  });

  it('moves a dataset to the recycle bin in one conditional write that takes it out of the list indexes', async () => {
    ddbMock.on(UpdateCommand).resolves({ Attributes: { pk: 'H#h1', sk: 'DS#d1', id: 'd1', status: 'COMPLETE' } });
    const dataset = { id: 'd1', hospitalId: 'h1', status: 'COMPLETE' } as Parameters<
      ReturnType<typeof repo>['moveToBin']
    >[0];
    await repo().moveToBin(dataset, {
      deletedAt: '2026-02-01T00:00:00.000Z',
      purgeAfter: '2026-03-03T00:00:00.000Z',
      deletedByUserId: 'u1',
      deletedByName: 'Pat Lead',
      deletionReason: 'Duplicate',
    });
    const input = ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(input.ConditionExpression).toBe(
      'attribute_exists(#pk) AND attribute_not_exists(#binned) AND attribute_not_exists(#hold) AND #status = :status',
    );
    const removed = /REMOVE (.*)$/.exec(input.UpdateExpression!)![1]!.split(', ');
    expect(removed.map((n) => input.ExpressionAttributeNames![n]).sort()).toEqual(
      [TABLE_KEYS.gsi1.pk, TABLE_KEYS.gsi1.sk, TABLE_KEYS.gsi3.pk, TABLE_KEYS.gsi3.sk].sort(),
    );
    expect(Object.values(input.ExpressionAttributeValues!)).toEqual(
      expect.arrayContaining(['H#h1#DS#BIN', '2026-03-03T00:00:00.000Z#d1', 'COMPLETE']),
    );
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
