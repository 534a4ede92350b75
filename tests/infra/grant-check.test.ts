import { describe, expect, it } from 'vitest';
import {
  apiFunctionDeclarations,
  AUDIT_APPENDER_DECLARATION,
  FEDERATED_PLACEMENT_ACTIONS,
  JOB_WORKER_DECLARATION,
  TOKEN_USER_ACTIONS,
  PRE_TOKEN_GENERATION_DECLARATION,
  pipelineFunctionDeclarations,
  POST_CONFIRMATION_DECLARATION,
  SCHEDULED_JOBS,
  scheduledJobDeclaration,
} from '#infra/function-declarations.ts';
import {
  LOCAL_MAIL_CONFIGURATION_SET,
  LOCAL_MAIL_FROM,
  localEnvironment,
  localFunctionName,
  localPseudonymSecretArn,
  localStatements,
  type TwinResources,
} from '#infra/local/function-runtime.ts';
import { isAllowed, permissionsFor } from '#infra/local/grant-check.ts';
import { ENV } from '#shared/definitions/env.ts';

const scope = { region: 'us-east-1', account: '000000000000', functionName: 'imaging-local-test' };
const resources = {
  region: 'us-east-1',
  tableName: 'imaging-local',
  buckets: { uploads: 'up', studies: 'st', assets: 'as' },
  stateMachineArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:imaging-local-pipeline',
  siteOrigin: 'http://127.0.0.1:1',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  endpoints: {
    dynamodb: '',
    s3: '',
    s3Public: '',
    sfn: '',
    cognito: '',
    lambda: '',
    ses: '',
    sns: '',
    secretsManager: '',
  },
} satisfies TwinResources;
const table = 'arn:aws:dynamodb:us-east-1:000000000000:table/imaging-local';

describe("the twin's IAM check", () => {
  it('authorises each transaction item, batch table and deleted object as IAM does', () => {
    // Assess
    expect(
      permissionsFor(
        'DynamoDBDocumentClient',
        'TransactWriteCommand',
        { TransactItems: [{ Update: { TableName: 'imaging-local' } }, { Put: { TableName: 'imaging-local' } }] },
        scope,
      ),
    ).toEqual([
      { action: 'dynamodb:UpdateItem', resource: table },
      { action: 'dynamodb:PutItem', resource: table },
    ]);
    expect(
      permissionsFor('DynamoDBClient', 'QueryCommand', { TableName: 'imaging-local', IndexName: 'gsi1' }, scope),
    ).toEqual([{ action: 'dynamodb:Query', resource: `${table}/index/gsi1` }]);
    expect(
      permissionsFor('DynamoDBDocumentClient', 'BatchWriteCommand', { RequestItems: { 'imaging-local': [] } }, scope),
    ).toEqual([{ action: 'dynamodb:BatchWriteItem', resource: table }]);
    expect(
      permissionsFor(
        'S3Client',
        'DeleteObjectsCommand',
        { Bucket: 'as', Delete: { Objects: [{ Key: 'a' }, { Key: 'b' }] } },
        scope,
      ),
    ).toEqual([
      { action: 's3:DeleteObject', resource: 'arn:aws:s3:::as/a' },
      { action: 's3:DeleteObject', resource: 'arn:aws:s3:::as/b' },
    ]);
    expect(permissionsFor('S3Client', 'HeadBucketCommand', { Bucket: 'as' }, scope)).toEqual([
      { action: 's3:ListBucket', resource: 'arn:aws:s3:::as' },
    ]);
  });

  it("allows a task exactly its declaration's statements on the twin's resources", () => {
    // Prepare: BuildSurface reads and writes assets and nothing else.
    const statements = localStatements(pipelineFunctionDeclarations().BuildSurface!, resources);
    const allowed = (client: string, command: string, input: Record<string, unknown>) =>
      permissionsFor(client, command, input, scope).every((p) => isAllowed(statements, p));

    // Assess
    expect(allowed('S3Client', 'GetObjectCommand', { Bucket: 'as', Key: 'h/d/t1.nii.gz' })).toBe(true);
    expect(allowed('S3Client', 'PutObjectCommand', { Bucket: 'as', Key: 'h/d/surface.mz3' })).toBe(true);
    expect(allowed('S3Client', 'GetObjectCommand', { Bucket: 'st', Key: 'h/d/1.dcm' })).toBe(false);
    expect(allowed('S3Client', 'DeleteObjectCommand', { Bucket: 'as', Key: 'h/d/t1.nii.gz' })).toBe(false);
    expect(allowed('S3Client', 'ListObjectsV2Command', { Bucket: 'as' })).toBe(false);
    expect(allowed('DynamoDBDocumentClient', 'UpdateCommand', { TableName: 'imaging-local' })).toBe(true);
    expect(allowed('DynamoDBDocumentClient', 'UpdateCommand', { TableName: 'another-table' })).toBe(false);
    expect(allowed('SFNClient', 'StartExecutionCommand', { stateMachineArn: resources.stateMachineArn })).toBe(false);
    expect(allowed('SecretsManagerClient', 'GetSecretValueCommand', { SecretId: 'x' })).toBe(false);
  });

  it('lets the retention job, and no API function, scan the table in the twin', () => {
    const scan = { TableName: 'imaging-local' };
    const job = localStatements(scheduledJobDeclaration(SCHEDULED_JOBS[0]!), resources);
    expect(permissionsFor('DynamoDBDocumentClient', 'ScanCommand', scan, scope).every((p) => isAllowed(job, p))).toBe(
      true,
    );
    for (const declaration of Object.values(apiFunctionDeclarations())) {
      const statements = localStatements(declaration!, resources);
      expect(
        permissionsFor('DynamoDBDocumentClient', 'ScanCommand', scan, scope).every((p) => isAllowed(statements, p)),
      ).toBe(false);
    }
  });

  it('lets the job worker purge a dataset from every bucket for data retention, and the schedule only start jobs', () => {
    // Prepare (docs/jobs.md#grants): the RETENTION job purges; the scheduled function creates the jobs and invokes
    // the worker.
    const can = (
      statements: ReturnType<typeof localStatements>,
      client: string,
      command: string,
      input: Record<string, unknown>,
    ) => permissionsFor(client, command, input, scope).every((p) => isAllowed(statements, p));
    const worker = localStatements(JOB_WORKER_DECLARATION, resources);
    const schedule = localStatements(
      scheduledJobDeclaration(SCHEDULED_JOBS.find((job) => job.id === 'ApplyRetention')!),
      resources,
    );
    const purge = [
      ['S3Client', 'ListObjectsV2Command', { Bucket: 'up', Prefix: 'h/d/' }],
      ['S3Client', 'DeleteObjectsCommand', { Bucket: 'up', Delete: { Objects: [{ Key: 'h/d/raw.zip' }] } }],
      ['S3Client', 'DeleteObjectsCommand', { Bucket: 'st', Delete: { Objects: [{ Key: 'h/d/1.dcm' }] } }],
      ['S3Client', 'DeleteObjectsCommand', { Bucket: 'as', Delete: { Objects: [{ Key: 'h/d/t1.nii.gz' }] } }],
      ['S3Client', 'AbortMultipartUploadCommand', { Bucket: 'up', Key: 'h/d/raw.zip', UploadId: 'u' }],
    ] as const;
    const invokeWorker = { FunctionName: localFunctionName(JOB_WORKER_DECLARATION), InvocationType: 'Event' };

    // Assess
    for (const [client, command, input] of purge) {
      expect(can(worker, client, command, input), command).toBe(true);
      expect(can(schedule, client, command, input), command).toBe(false);
    }
    // Deleting is all the worker may do in the uploads bucket: it never writes or reads an upload.
    expect(can(worker, 'S3Client', 'PutObjectCommand', { Bucket: 'up', Key: 'h/d/raw.zip' })).toBe(false);
    expect(can(worker, 'S3Client', 'GetObjectCommand', { Bucket: 'up', Key: 'h/d/raw.zip' })).toBe(false);
    expect(can(schedule, 'LambdaClient', 'InvokeCommand', invokeWorker)).toBe(true);
    expect(can(schedule, 'DynamoDBDocumentClient', 'ScanCommand', { TableName: 'imaging-local' })).toBe(true);
    expect(can(worker, 'DynamoDBDocumentClient', 'ScanCommand', { TableName: 'imaging-local' })).toBe(false);
  });

  it('lets only the audit appender write the audit trail; every other writer may only invoke it', () => {
    // Prepare: every function that writes the table is denied the trail (docs/domain.md#audit-trail).
    const writers = [
      ...Object.values(apiFunctionDeclarations()),
      ...Object.values(pipelineFunctionDeclarations()),
      ...SCHEDULED_JOBS.map(scheduledJobDeclaration),
    ].filter((d) => d!.table === 'readWrite');
    const event = { pk: 'H#hosp-1#AUDIT', sk: 'SEQ#000000000001' };
    const head = { pk: 'H#hosp-1#AUDITHEAD', sk: 'HEAD' };
    const can = (statements: ReturnType<typeof localStatements>, client: string, command: string, input: object) =>
      permissionsFor(client, command, { TableName: 'imaging-local', ...input }, scope).every((p) =>
        isAllowed(statements, p),
      );
    const appender = localStatements(AUDIT_APPENDER_DECLARATION, resources);
    const invoke = { FunctionName: localFunctionName(AUDIT_APPENDER_DECLARATION) };

    for (const declaration of writers) {
      const statements = localStatements(declaration!, resources);
      const allowed = (command: string, input: object) => can(statements, 'DynamoDBDocumentClient', command, input);

      // Assess: no write of any kind on events or the head, in or out of a transaction.
      expect(allowed('PutCommand', { Item: { ...event, action: 'X' } }), declaration!.id).toBe(false);
      expect(allowed('UpdateCommand', { Key: event }), declaration!.id).toBe(false);
      expect(allowed('UpdateCommand', { Key: head }), declaration!.id).toBe(false);
      expect(allowed('DeleteCommand', { Key: event }), declaration!.id).toBe(false);
      expect(
        allowed('BatchWriteCommand', { RequestItems: { 'imaging-local': [{ DeleteRequest: { Key: event } }] } }),
        declaration!.id,
      ).toBe(false);
      expect(
        allowed('TransactWriteCommand', {
          TransactItems: [{ Put: { TableName: 'imaging-local', Item: { ...event, action: 'X' } } }],
        }),
        declaration!.id,
      ).toBe(false);
      // Its own items, the read markers, and the appender stay in reach.
      expect(allowed('DeleteCommand', { Key: { pk: 'H#hosp-1', sk: 'DS#d1' } }), declaration!.id).toBe(true);
      expect(allowed('PutCommand', { Item: { pk: 'H#hosp-1#AUDITREADS', sk: 'u#d#VIEW' } }), declaration!.id).toBe(
        true,
      );
      expect(can(statements, 'LambdaClient', 'InvokeCommand', invoke), declaration!.id).toBe(true);
      expect(can(statements, 'LambdaClient', 'InvokeCommand', { FunctionName: 'imaging-local-UsersFunction' })).toBe(
        false,
      );
    }
    // The appender puts events and moves the head, and never deletes one.
    expect(can(appender, 'DynamoDBDocumentClient', 'PutCommand', { Item: { ...event, action: 'X' } })).toBe(true);
    expect(can(appender, 'DynamoDBDocumentClient', 'UpdateCommand', { Key: head })).toBe(true);
    expect(can(appender, 'DynamoDBDocumentClient', 'DeleteCommand', { Key: event })).toBe(false);
    expect(can(appender, 'DynamoDBDocumentClient', 'ScanCommand', {})).toBe(false);
    // Read-only functions get neither the invoke grant nor a write.
    const dashboards = localStatements(apiFunctionDeclarations().dashboards!, resources);
    expect(can(dashboards, 'LambdaClient', 'InvokeCommand', invoke)).toBe(false);
  });

  it('lets the functions granted mail send through SESv2 and SNS, and no other', () => {
    // Prepare: what the mailer and the SMS sender send in the twin (ses-mailer.ts, sns-sms.ts).
    const mail = {
      FromEmailAddress: LOCAL_MAIL_FROM,
      Destination: { ToAddresses: ['robin@x.test'] },
      ConfigurationSetName: LOCAL_MAIL_CONFIGURATION_SET,
    };
    const can = (id: string, client: string, command: string, input: Record<string, unknown>) => {
      const statements = localStatements(apiFunctionDeclarations()[id as 'invitations']!, resources);
      return permissionsFor(client, command, input, scope).every((p) => isAllowed(statements, p));
    };

    // Assess
    expect(can('invitations', 'SESv2Client', 'SendEmailCommand', mail)).toBe(true);
    expect(can('invitations', 'SESv2Client', 'SendEmailCommand', { ...mail, FromEmailAddress: 'a@other.test' })).toBe(
      false,
    );
    expect(can('invitations', 'SESv2Client', 'SendEmailCommand', { ...mail, ConfigurationSetName: 'other' })).toBe(
      false,
    );
    expect(can('dashboards', 'SESv2Client', 'SendEmailCommand', mail)).toBe(false);
    expect(can('patient-access', 'SNSClient', 'PublishCommand', { PhoneNumber: '+15550100' })).toBe(true);
    expect(can('invitations', 'SNSClient', 'PublishCommand', { PhoneNumber: '+15550100' })).toBe(false);
  });

  it("lets exactly the functions granted the pseudonym secret read it from the twin's Secrets Manager", () => {
    // Prepare: what the secret source asks for in the twin (functions/adapters/secrets.ts, its ARN in the env).
    const every = [
      ...Object.values(apiFunctionDeclarations()),
      ...Object.values(pipelineFunctionDeclarations()),
      ...SCHEDULED_JOBS.map(scheduledJobDeclaration),
      AUDIT_APPENDER_DECLARATION,
    ];
    const read = { SecretId: localPseudonymSecretArn(resources.region) };
    const can = (declaration: (typeof every)[number], input: Record<string, unknown>) =>
      permissionsFor('SecretsManagerClient', 'GetSecretValueCommand', input, scope).every((p) =>
        isAllowed(localStatements(declaration!, resources), p),
      );

    // Assess: granted, it reads that secret and no other; not granted, not even that one.
    expect(every.filter((d) => d!.pseudonymSecret).length).toBeGreaterThan(0);
    for (const declaration of every) {
      expect(can(declaration, read), declaration!.id).toBe(!!declaration!.pseudonymSecret);
      expect(localEnvironment(declaration!, resources)[ENV.PSEUDONYM_SECRET_ARN], declaration!.id).toBe(
        declaration!.pseudonymSecret ? read.SecretId : undefined,
      );
      expect(can(declaration, { SecretId: `${read.SecretId}-other` }), declaration!.id).toBe(false);
    }
  });

  it("lets only the settings function manage the pool's identity providers and the site client's list of them", () => {
    // Prepare: the calls of functions/adapters/cognito/identity-providers.ts on the twin's pool, and on another pool.
    const pooled = { ...resources, userPoolId: 'us-east-1_local' };
    const calls = [
      'CreateIdentityProviderCommand',
      'DescribeIdentityProviderCommand',
      'UpdateIdentityProviderCommand',
      'DeleteIdentityProviderCommand',
      'DescribeUserPoolClientCommand',
      'UpdateUserPoolClientCommand',
    ];
    const can = (id: string, command: string, userPoolId: string) => {
      const statements = localStatements(apiFunctionDeclarations()[id as 'settings']!, pooled);
      return permissionsFor('CognitoIdentityProviderClient', command, { UserPoolId: userPoolId }, scope).every((p) =>
        isAllowed(statements, p),
      );
    };

    // Assess
    for (const command of calls) {
      expect(can('settings', command, 'us-east-1_local'), command).toBe(true);
      expect(can('settings', command, 'us-east-1_other'), command).toBe(false);
    }
    expect(can('settings', 'AdminCreateUserCommand', 'us-east-1_local')).toBe(false);
    expect(can('settings', 'CreateUserPoolClientCommand', 'us-east-1_local')).toBe(false);
    for (const id of ['auth', 'users', 'integrations'])
      expect(can(id, 'CreateIdentityProviderCommand', 'us-east-1_local'), id).toBe(false);
    // The twin's hosted login is its stand-in's, beside its token endpoint, as the cloud's (docs/local-twin.md#single-sign-on).
    const intake = { ...pooled, intake: { tokenUrl: 'http://127.0.0.1:1/oauth2/token', dicomWebUrl: 'http://x' } };
    expect(localEnvironment(apiFunctionDeclarations().auth!, intake)[ENV.OAUTH_TOKEN_URL]).toBe(
      'http://127.0.0.1:1/oauth2/token',
    );
    expect(localEnvironment(apiFunctionDeclarations().integrations!, intake)[ENV.OAUTH_TOKEN_URL]).toBe(
      'http://127.0.0.1:1/oauth2/token',
    );
  });

  it("lets the post-confirmation trigger place a federated user in the twin's pool only, as the auth stack's own policy does", () => {
    // Arrange
    const pooled = {
      ...resources,
      userPoolId: 'us-east-1_local',
      endpoints: { ...resources.endpoints, cognito: 'http://127.0.0.1:1/_aws/cognito' },
    };
    const statements = localStatements(POST_CONFIRMATION_DECLARATION, pooled);
    const can = (command: string, pool: string) =>
      permissionsFor('CognitoIdentityProviderClient', command, { UserPoolId: pool }, scope).every((p) =>
        isAllowed(statements, p),
      );

    // Act
    const env = localEnvironment(POST_CONFIRMATION_DECLARATION, pooled);

    // Assert
    for (const action of FEDERATED_PLACEMENT_ACTIONS) {
      const command = `${action.split(':')[1]}Command`;
      expect(can(command, 'us-east-1_local'), command).toBe(true);
      expect(can(command, 'us-east-1_other'), command).toBe(false);
    }
    expect(can('AdminCreateUserCommand', 'us-east-1_local')).toBe(false);
    expect(env[ENV.COGNITO_ENDPOINT]).toBe(pooled.endpoints.cognito);
  });

  it("lets the pre-token-generation trigger read users and move their role groups in the twin's pool only, as the auth stack's own policy does", () => {
    // Arrange
    const pooled = {
      ...resources,
      userPoolId: 'us-east-1_local',
      endpoints: { ...resources.endpoints, cognito: 'http://127.0.0.1:1/_aws/cognito' },
    };
    const statements = localStatements(PRE_TOKEN_GENERATION_DECLARATION, pooled);
    const can = (command: string, pool: string) =>
      permissionsFor('CognitoIdentityProviderClient', command, { UserPoolId: pool }, scope).every((p) =>
        isAllowed(statements, p),
      );

    // Act
    const env = localEnvironment(PRE_TOKEN_GENERATION_DECLARATION, pooled);

    // Assert
    for (const action of TOKEN_USER_ACTIONS) {
      const command = `${action.split(':')[1]}Command`;
      expect(can(command, 'us-east-1_local'), command).toBe(true);
      expect(can(command, 'us-east-1_other'), command).toBe(false);
    }
    expect(can('AdminUpdateUserAttributesCommand', 'us-east-1_local')).toBe(false);
    expect(can('AdminDisableUserCommand', 'us-east-1_local')).toBe(false);
    expect(env[ENV.COGNITO_ENDPOINT]).toBe(pooled.endpoints.cognito);
  });

  it('lets only the digest writer sign with the digest key and put digests; verification reads the public key; nobody deletes', () => {
    // Arrange: the twin's digest key and bucket (docs/domain.md#signed-digests).
    const keyArn = 'arn:aws:kms:us-east-1:000000000000:key/0f0e0d0c-0b0a-4999-8888-777766665555';
    const withDigests = {
      ...resources,
      endpoints: { ...resources.endpoints, kms: 'http://127.0.0.1:1/_aws/kms' },
      auditDigests: { bucket: 'imaging-local-audit-digests', keyArn },
    } satisfies TwinResources;
    const writer = scheduledJobDeclaration(SCHEDULED_JOBS.find((job) => job.id === 'WriteAuditDigests')!);
    const audit = apiFunctionDeclarations().audit!;
    const may = (declaration: typeof writer, client: string, command: string, input: Record<string, unknown>) =>
      permissionsFor(client, command, input, scope).every((p) =>
        isAllowed(localStatements(declaration, withDigests), p),
      );
    const digest = { Bucket: 'imaging-local-audit-digests', Key: 'h1/999999999996.json' };

    // Act
    const env = localEnvironment(writer, withDigests);

    // Assert
    expect(may(writer, 'KMSClient', 'SignCommand', { KeyId: keyArn })).toBe(true);
    expect(may(writer, 'KMSClient', 'SignCommand', { KeyId: 'another-key' })).toBe(false);
    expect(may(writer, 'S3Client', 'PutObjectCommand', digest)).toBe(true);
    expect(may(audit, 'KMSClient', 'GetPublicKeyCommand', { KeyId: keyArn })).toBe(true);
    expect(may(audit, 'KMSClient', 'SignCommand', { KeyId: keyArn })).toBe(false);
    expect(may(audit, 'S3Client', 'PutObjectCommand', digest)).toBe(false);
    expect(may(audit, 'S3Client', 'GetObjectCommand', digest)).toBe(true);
    for (const declaration of [writer, audit, ...SCHEDULED_JOBS.map(scheduledJobDeclaration)])
      expect(may(declaration, 'S3Client', 'DeleteObjectCommand', digest), declaration.id).toBe(false);
    expect(env).toMatchObject({
      [ENV.AUDIT_DIGEST_BUCKET]: 'imaging-local-audit-digests',
      [ENV.AUDIT_DIGEST_KEY_ID]: keyArn,
      [ENV.KMS_ENDPOINT]: 'http://127.0.0.1:1/_aws/kms',
    });
  });
});
