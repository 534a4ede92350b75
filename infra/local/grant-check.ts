import type { GrantStatement } from '#infra/function-declarations.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';

/**
 * IAM for the twin: the permissions an AWS SDK command needs (action and resource ARN, as IAM evaluates them) and
 * an SDK middleware that refuses, before anything is sent, a command the function's declared statements do not
 * allow, with the error AWS gives. The stand-ins check no credentials at all, so without this a function with a
 * missing grant would work here and fail in the cloud.
 */
export type Permission = {
  action: string;
  resource: string;
  /** Partition keys the request touches (dynamodb:LeadingKeys), where the input names them. */
  leadingKeys?: string[];
};

export type GrantScope = { region: string; account: string; functionName: string };

const DOCUMENT_COMMANDS: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  TransactGet: 'TransactGetItems',
  TransactWrite: 'TransactWriteItems',
  Query: 'Query',
  Scan: 'Scan',
};

/** Each transaction item is authorised as its own single-item action. */
const TRANSACT_ITEM_ACTIONS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
  Get: 'GetItem',
};

const S3_ACTIONS: Record<string, string> = {
  GetObject: 's3:GetObject',
  HeadObject: 's3:GetObject',
  PutObject: 's3:PutObject',
  CopyObject: 's3:PutObject',
  CreateMultipartUpload: 's3:PutObject',
  UploadPart: 's3:PutObject',
  CompleteMultipartUpload: 's3:PutObject',
  DeleteObject: 's3:DeleteObject',
  AbortMultipartUpload: 's3:AbortMultipartUpload',
  ListParts: 's3:ListMultipartUploadParts',
  ListObjects: 's3:ListBucket',
  ListObjectsV2: 's3:ListBucket',
  HeadBucket: 's3:ListBucket',
};

type Input = Record<string, unknown>;

function operationOf(commandName: string): string {
  return commandName.replace(/Command$/, '');
}

/** The partition key of a request's Key or Item, as dynamodb:LeadingKeys sees it. */
function leadingKeyOf(request: Input | undefined): string[] {
  const item = (request?.Key ?? request?.Item) as Input | undefined;
  const value = item?.[TABLE_KEYS.primary.pk];
  if (typeof value === 'string') return [value];
  // The low-level client's attribute values ({ S: '...' }).
  const typed = (value as { S?: unknown } | undefined)?.S;
  return typeof typed === 'string' ? [typed] : [];
}

const withKeys = (permission: Permission, keys: string[]): Permission =>
  keys.length ? { ...permission, leadingKeys: keys } : permission;

function dynamoPermissions(operation: string, input: Input, scope: GrantScope): Permission[] {
  const table = (name: unknown) => `arn:aws:dynamodb:${scope.region}:${scope.account}:table/${String(name)}`;
  const action = DOCUMENT_COMMANDS[operation] ?? operation;
  if (action === 'TransactWriteItems' || action === 'TransactGetItems') {
    return ((input.TransactItems as Input[] | undefined) ?? []).flatMap((item) =>
      Object.entries(item).map(([kind, request]) =>
        withKeys(
          { action: `dynamodb:${TRANSACT_ITEM_ACTIONS[kind] ?? kind}`, resource: table((request as Input).TableName) },
          leadingKeyOf(request as Input),
        ),
      ),
    );
  }
  if (action === 'BatchWriteItem' || action === 'BatchGetItem') {
    return Object.entries((input.RequestItems as Record<string, unknown> | undefined) ?? {}).map(([name, requests]) =>
      withKeys(
        { action: `dynamodb:${action}`, resource: table(name) },
        (Array.isArray(requests) ? (requests as Input[]) : []).flatMap((r) =>
          leadingKeyOf((r.PutRequest ?? r.DeleteRequest) as Input | undefined),
        ),
      ),
    );
  }
  const resource = input.IndexName
    ? `${table(input.TableName)}/index/${String(input.IndexName)}`
    : table(input.TableName);
  return [withKeys({ action: `dynamodb:${action}`, resource }, leadingKeyOf(input))];
}

function s3Permissions(operation: string, input: Input): Permission[] {
  const bucket = `arn:aws:s3:::${String(input.Bucket)}`;
  const action = S3_ACTIONS[operation] ?? `s3:${operation}`;
  if (operation === 'DeleteObjects') {
    const objects = ((input.Delete as { Objects?: { Key?: string }[] } | undefined)?.Objects ?? []).map((o) => o.Key);
    return objects.map((key) => ({ action: 's3:DeleteObject', resource: `${bucket}/${String(key)}` }));
  }
  if (action === 's3:ListBucket' || input.Key === undefined) return [{ action, resource: bucket }];
  const permissions = [{ action, resource: `${bucket}/${String(input.Key)}` }];
  if (operation === 'CopyObject' && typeof input.CopySource === 'string') {
    const source = decodeURIComponent(input.CopySource.replace(/^\//, '').split('?')[0]!);
    permissions.push({ action: 's3:GetObject', resource: `arn:aws:s3:::${source}` });
  }
  return permissions;
}

/** The permissions IAM checks for one SDK command of the given client. */
export function permissionsFor(clientName: string, commandName: string, input: Input, scope: GrantScope): Permission[] {
  const operation = operationOf(commandName);
  switch (clientName) {
    case 'DynamoDBClient':
    case 'DynamoDBDocumentClient':
      return dynamoPermissions(operation, input, scope);
    case 'S3Client':
      return s3Permissions(operation, input);
    case 'SFNClient':
      return [
        {
          action: `states:${operation}`,
          resource: String(input.stateMachineArn ?? input.executionArn ?? '*'),
        },
      ];
    case 'LambdaClient': {
      // FunctionName may be a name or an ARN (docs of Invoke): IAM checks the function's ARN.
      const name = String(input.FunctionName ?? '*');
      const resource = name.startsWith('arn:')
        ? name
        : `arn:aws:lambda:${scope.region}:${scope.account}:function:${name}`;
      return [{ action: operation === 'Invoke' ? 'lambda:InvokeFunction' : `lambda:${operation}`, resource }];
    }
    case 'SESv2Client': {
      // SendEmail is authorised on the sending identity (the stage verifies the sender's domain) and on the
      // configuration set the call names (Amazon SES developer guide, IAM policies for SES).
      const ses = (resource: string) => `arn:aws:ses:${scope.region}:${scope.account}:${resource}`;
      const action = `ses:${operation}`;
      const domain = String(input.FromEmailAddress ?? '')
        .split('@')
        .at(-1);
      return [
        { action, resource: ses(`identity/${domain}`) },
        ...(input.ConfigurationSetName
          ? [{ action, resource: ses(`configuration-set/${String(input.ConfigurationSetName)}`) }]
          : []),
      ];
    }
    case 'KMSClient': {
      // A key operation is authorised on the key's ARN (AWS KMS developer guide, IAM policies): KeyId may be its id.
      const keyId = String(input.KeyId ?? '*');
      return [
        {
          action: `kms:${operation}`,
          resource: keyId.startsWith('arn:') ? keyId : `arn:aws:kms:${scope.region}:${scope.account}:key/${keyId}`,
        },
      ];
    }
    case 'SecretsManagerClient':
      return [{ action: `secretsmanager:${operation}`, resource: String(input.SecretId ?? '*') }];
    case 'CognitoIdentityProviderClient':
      return [
        {
          action: `cognito-idp:${operation}`,
          resource: input.UserPoolId
            ? `arn:aws:cognito-idp:${scope.region}:${scope.account}:userpool/${String(input.UserPoolId)}`
            : '*',
        },
      ];
    default:
      return [{ action: `${clientName.replace(/Client$/, '').toLowerCase()}:${operation}`, resource: '*' }];
  }
}

function globToRegExp(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

function matches(statement: GrantStatement, permission: Permission): boolean {
  return (
    statement.actions.some((action) => globToRegExp(action).test(permission.action)) &&
    statement.resources.some((resource) => globToRegExp(resource).test(permission.resource))
  );
}

/**
 * A statement's conditions hold for the request. Only the one the declarations use is understood:
 * `ForAnyValue:StringLike` on `dynamodb:LeadingKeys` (any partition key of the request matches any pattern); a
 * request that names no partition key does not match it, as in IAM.
 */
function conditionsHold(statement: GrantStatement, permission: Permission): boolean {
  if (!statement.conditions) return true;
  return Object.entries(statement.conditions).every(([operator, keys]) =>
    Object.entries(keys).every(([key, patterns]) => {
      if (operator !== 'ForAnyValue:StringLike' || key !== 'dynamodb:LeadingKeys')
        throw new Error(`The twin does not evaluate the IAM condition ${operator} ${key}`);
      return (permission.leadingKeys ?? []).some((value) => patterns.some((p) => globToRegExp(p).test(value)));
    }),
  );
}

export function isAllowed(statements: readonly GrantStatement[], permission: Permission): boolean {
  const applies = (s: GrantStatement) => matches(s, permission) && conditionsHold(s, permission);
  if (statements.some((s) => s.effect === 'Deny' && applies(s))) return false;
  return statements.some((s) => s.effect !== 'Deny' && applies(s));
}

/** The error AWS answers a call its identity-based policies do not allow (S3 says it with a 403). */
export function accessDeniedError(clientName: string, permission: Permission, scope: GrantScope): Error {
  const s3 = clientName === 'S3Client';
  const role = `arn:aws:sts::${scope.account}:assumed-role/${scope.functionName}-role/${scope.functionName}`;
  const error = new Error(
    `User: ${role} is not authorized to perform: ${permission.action} on resource: ${permission.resource} ` +
      `because no identity-based policy allows the ${permission.action} action`,
  );
  error.name = s3 ? 'AccessDenied' : 'AccessDeniedException';
  Object.assign(error, {
    $fault: 'client',
    $metadata: { httpStatusCode: s3 ? 403 : 400, attempts: 1, totalRetryDelay: 0 },
    Code: error.name,
  });
  return error;
}

type Context = { clientName?: string; commandName?: string };
type Next = (args: { input: Input }) => Promise<unknown>;

/** An initialize-step SDK middleware refusing what the statements do not allow. */
export function grantCheckMiddleware(statements: readonly GrantStatement[], scope: GrantScope) {
  return (next: Next, context: Context) => async (args: { input: Input }) => {
    const clientName = context.clientName ?? 'UnknownClient';
    for (const permission of permissionsFor(clientName, context.commandName ?? 'Unknown', args.input, scope)) {
      if (!isAllowed(statements, permission)) throw accessDeniedError(clientName, permission, scope);
    }
    return next(args);
  };
}
