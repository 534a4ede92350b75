/**
 * One declaration per Lambda: entry, memory, timeout, what it may touch (table, buckets, pipeline, secret, user pool)
 * and, derived from that, the environment variables it gets. The CDK stacks build each function, its IAM policy and
 * its environment from here (infra/constructs/imaging-function.ts); the local twin runs each function with exactly
 * this environment and rejects every AWS call its policy does not allow (infra/local/function-runtime.ts), so a
 * missing grant fails on this machine as it would in the cloud. Pure data: no CDK import, the twin loads it too.
 */
import { ROUTES, type ApiDomain, type RouteDefinition } from '#shared/definitions/api/routes.ts';
import { AUDIT_PENDING_PARTITION_PATTERN, AUDIT_WRITE_PARTITION_PATTERNS } from '#shared/definitions/table/keys.ts';
import { GLOBAL_INDEXES } from '#shared/definitions/table/table.ts';
import { ENV } from '#shared/definitions/env.ts';
import { ALL_PIPELINE_TASKS, type PipelineTask } from '#shared/definitions/state-machine.ts';

export const DATA_BUCKETS = ['uploads', 'studies', 'assets'] as const;
export type DataBucket = (typeof DATA_BUCKETS)[number];

/**
 * Item access on the single table ('describe' only answers a health check). A 'readWrite' function records audit
 * events only as pending items, which the audit appender chains; 'auditAppend' is that appender's own access.
 */
export type TableAccess = 'describe' | 'read' | 'readWrite' | 'auditAppend';
/** What a function may do in a data bucket; each maps to an explicit action list (no `s3:*` style wildcards). */
export type BucketAccess = 'read' | 'write' | 'delete' | 'list' | 'multipart' | 'abort';

export type Grants = {
  table?: TableAccess;
  buckets?: Partial<Record<DataBucket, readonly BucketAccess[]>>;
  /** Starts the dataset pipeline (states:StartExecution on that state machine only). */
  startsPipeline?: true;
  /** Reads the pseudonymisation key (UID remapping, patient aliases, page tokens). */
  pseudonymSecret?: true;
  /** Administers users and group membership in the one user pool. */
  userPoolAdmin?: true;
  /** Scans the table (dynamodb:Scan): only a scheduled job that walks every hospital. */
  scansTable?: true;
  /** Sends e-mail through SESv2 from the stage's identity with its configuration set (the twin shows it on /_mail). */
  sendsMail?: true;
  /** Sends text messages straight to phone numbers through SNS (the twin shows them on /_mail). */
  sendsSms?: true;
  /** Creates and deletes the app clients of DICOMweb integrations in the one user pool (docs/dicom-intake.md). */
  machineClients?: true;
  /**
   * Turns the client-credentials grant of those app clients off and on (hospital deactivation and restore): it reads
   * and updates them, never creates or deletes one (docs/dicom-intake.md#deactivation).
   */
  suspendsMachineClients?: true;
  /** Needs where integrations connect: the token endpoint, the DICOMweb base URL and the DICOM listener's port. */
  intakeEndpoints?: true;
  /**
   * Connects hospitals' OIDC providers (docs/sso.md#in-the-cloud): creates, reads, updates and deletes the pool's
   * identity providers and lists them on the site's app client (described first, then updated as it was).
   */
  identityProviders?: true;
  /** Sends single-sign-on users to the hosted login: its address (beside the token endpoint) and the site's client. */
  hostedLogin?: true;
  /** Hands jobs to the job worker: an asynchronous invocation of that function only (docs/jobs.md). */
  startsJobs?: true;
  /**
   * Places a federated user in the one user pool (their hospital attribute and role group, docs/sso.md): the pool
   * invokes the function, so in the cloud the auth stack grants FEDERATED_PLACEMENT_ACTIONS in a policy of its own
   * (a statement of the function's default policy naming the pool would be a dependency cycle); the twin adds it to
   * the function's statements.
   */
  placesFederatedUsers?: true;
  /**
   * Issues the pool's tokens (the pre-token-generation trigger, docs/sso.md#later-sign-ins): reads a user's second
   * factor and moves a federated user's role group, TOKEN_USER_ACTIONS, granted like placesFederatedUsers (a policy
   * of its own in the auth stack, the function's statements in the twin).
   */
  issuesTokens?: true;
  /**
   * The audit chain's signed digests (docs/domain.md#signed-digests): 'sign' writes them (kms:Sign on the digest key,
   * conditional puts in the Object Lock bucket), 'verify' reads them and the key's public half (kms:GetPublicKey).
   * Neither may delete a digest or use the key any other way.
   */
  auditDigests?: 'sign' | 'verify';
};

export type EnvName = (typeof ENV)[keyof typeof ENV];

export type FunctionDeclaration = Grants & {
  /** Construct id in its stack and name of the function in the twin. */
  id: string;
  kind: 'api' | 'pipeline' | 'trigger' | 'job' | 'internal';
  /** Entry file relative to the repository root; it exports `handler`. */
  entry: string;
  description: string;
  memoryMb: number;
  timeoutSeconds: number;
  /** The environment variables the function gets (cloud names; the twin adds its endpoints for the same grants). */
  env: readonly EnvName[];
};

/**
 * Least privilege per API domain. Every domain is listed, so a domain that gets its first route in
 * shared/definitions/api/routes.ts is deployed with the access decided here and needs no other infra change.
 */
export const API_DOMAIN_GRANTS: Record<ApiDomain, Grants> = {
  // Health answers once the table and each bucket respond: describe and list only, never an item or object.
  health: { table: 'describe', buckets: { uploads: ['list'], studies: ['list'], assets: ['list'] } },
  // Avatars: presigned PUT and GET in the assets bucket (docs/domain.md#settings).
  // The login page's e-mail step answers the hosted login of a single-sign-on domain (docs/sso.md#domain-routing).
  auth: { table: 'readWrite', buckets: { assets: ['read', 'write'] }, hostedLogin: true },
  // Deactivating or restoring a hospital disables or enables its users' identities; changing a member's team role
  // changes their group. List pages carry tokens sealed with the pseudonymisation key.
  // Add Hospital e-mails the first admin's invitation.
  // Deactivation and restore start the job that walks the identities and the DICOMweb clients (docs/jobs.md).
  hospitals: {
    table: 'readWrite',
    userPoolAdmin: true,
    pseudonymSecret: true,
    sendsMail: true,
    suspendsMachineClients: true,
    startsJobs: true,
  },
  // Single sign-on: the hospital's OIDC provider in the user pool and on the site's app client (docs/sso.md).
  // A policy change alerts the hospital admins by e-mail and SMS (docs/domain.md#security-alerts).
  settings: { table: 'readWrite', identityProviders: true, sendsMail: true, sendsSms: true },
  departments: { table: 'readWrite' },
  teams: { table: 'readWrite', userPoolAdmin: true, pseudonymSecret: true },
  users: { table: 'readWrite', userPoolAdmin: true, pseudonymSecret: true },
  // Bulk invitations are a job (docs/jobs.md).
  invitations: { table: 'readWrite', userPoolAdmin: true, sendsMail: true, startsJobs: true },
  // Dataset deletion removes its objects in every bucket; assets are handed out as presigned GET URLs; list pages
  // carry tokens sealed with the pseudonymisation key. A held series' review reads its stored instances, and its
  // redaction writes them back (docs/domain.md#redaction).
  datasets: {
    table: 'readWrite',
    buckets: {
      uploads: ['delete', 'list'],
      studies: ['read', 'write', 'delete', 'list'],
      assets: ['read', 'delete', 'list'],
    },
    startsPipeline: true,
    pseudonymSecret: true,
    // A dataset export is a job (docs/exports.md).
    startsJobs: true,
  },
  // Presigned multipart uploads of raw files; completing the session starts the pipeline.
  // Storage crossing a threshold is e-mailed to the hospital admins who chose e-mail (docs/domain.md#billing-alerts).
  uploads: {
    table: 'readWrite',
    buckets: { uploads: ['multipart', 'read', 'list'] },
    startsPipeline: true,
    sendsMail: true,
  },
  // Team and patient shares: the dataset, its grants, the policy in force, the approval queue and the approvers'
  // notifications (docs/domain.md#share-policy), e-mailed to whoever chose e-mail (docs/domain.md#notifications).
  shares: { table: 'readWrite', sendsMail: true },
  // The patient's public routes: one-time codes by e-mail (and the twin's SMS outbox), short-lived asset URLs; a
  // download is read, marked with the watermark and written under the share (docs/domain.md#patient-downloads).
  'patient-access': { table: 'readWrite', buckets: { assets: ['read', 'write'] }, sendsMail: true, sendsSms: true },
  dashboards: { table: 'read' },
  usage: { table: 'read' },
  // Search, export and verification read the chain; export and verification are themselves appended to it. Search
  // pages carry tokens sealed with the pseudonymisation key.
  // Verification checks the signed digests with the key's public half (docs/domain.md#signed-digests).
  // The full verification is a job (docs/jobs.md).
  audit: { table: 'readWrite', pseudonymSecret: true, auditDigests: 'verify', startsJobs: true },
  // Reads the report items; writes the recount's job and hands it to the worker (docs/jobs.md).
  reports: { table: 'readWrite', startsJobs: true },
  // The caller's own inbox: read it, mark items read.
  notifications: { table: 'readWrite' },
  // A hospital admin's integrations: their items, and the app clients of DICOMweb clients (docs/dicom-intake.md).
  // Creating or revoking a DICOMweb client alerts the hospital admins by e-mail and SMS (docs/domain.md#security-alerts).
  // The DICOMweb index backfill is a job (docs/jobs.md).
  integrations: {
    table: 'readWrite',
    machineClients: true,
    intakeEndpoints: true,
    sendsMail: true,
    sendsSms: true,
    startsJobs: true,
  },
  // A job of the caller's hospital and its results; nothing is written.
  jobs: { table: 'read', pseudonymSecret: true },
  // STOW-RS writes raw uploads (as a browser upload does) and may start the pipeline on a commit; the patient alias and
  // the de-identified UIDs of its answer need the pseudonymisation key; QIDO-RS and WADO-RS read de-identified copies,
  // and WADO-RS writes an answer too large for one response under the studies bucket's retrievals/ prefix.
  dicomweb: {
    table: 'readWrite',
    buckets: { uploads: ['write'], studies: ['read', 'list', 'write'] },
    startsPipeline: true,
    pseudonymSecret: true,
    intakeEndpoints: true,
  },
  // SCIM provisioning (docs/sso.md#provisioning-scim): the hospital's tokens and users in the table, and the user
  // pool's admin calls of the disable and role paths (disable, global sign-out, group change).
  // Creating or revoking a SCIM token alerts the hospital admins by e-mail and SMS (docs/domain.md#security-alerts).
  scim: { table: 'readWrite', userPoolAdmin: true, sendsMail: true, sendsSms: true },
};

/**
 * What each pipeline task may touch. A task missing here fails the synth and the twin on purpose: a new stage of
 * the pipeline gets its grants decided here, not inherited.
 */
export const PIPELINE_TASK_GRANTS: Record<string, Grants> = {
  // Reads the identifiable upload, writes the de-identified copy, then deletes the raw object.
  DeidentifyStudy: {
    table: 'readWrite',
    buckets: { uploads: ['read', 'delete', 'list'], studies: ['write', 'list'] },
    pseudonymSecret: true,
  },
  // The study's series and the hospital's policy (the Map state's concurrency): table only.
  ListSeries: { table: 'readWrite' },
  ClassifySeries: { table: 'readWrite', buckets: { studies: ['read', 'list'] } },
  ConvertSeries: { table: 'readWrite', buckets: { studies: ['read', 'list'], assets: ['write'] } },
  BuildSurface: { table: 'readWrite', buckets: { assets: ['read', 'write'] } },
  BuildTracts: { table: 'readWrite', buckets: { assets: ['read', 'write'] } },
  BuildReport: { table: 'readWrite', buckets: { studies: ['read', 'list'], assets: ['read', 'write', 'list'] } },
  // Removes whatever raw upload remains once the dataset is COMPLETE; meters what the dataset holds in each bucket
  // (lists only, docs/domain.md#usage-and-billing).
  CompleteDataset: {
    table: 'readWrite',
    buckets: { uploads: ['delete', 'list'], studies: ['list'], assets: ['list'] },
  },
  RecordFailure: { table: 'readWrite', buckets: { uploads: ['list'], studies: ['list'], assets: ['list'] } },
  RecordSeriesFailure: { table: 'readWrite' },
  // The hospital's run slots are a table item: no bucket.
  AcquireRunSlot: { table: 'readWrite' },
  ReleaseRunSlot: { table: 'readWrite' },
};

const BUCKET_ENV: Record<DataBucket, EnvName> = {
  uploads: ENV.UPLOADS_BUCKET,
  studies: ENV.STUDIES_BUCKET,
  assets: ENV.ASSETS_BUCKET,
};

/** The environment a function's grants call for: a resource's name only where it may use that resource. */
export function environmentOf(grants: Grants, kind: FunctionDeclaration['kind']): EnvName[] {
  return [
    ENV.STAGE,
    ...(grants.table ? [ENV.TABLE_NAME] : []),
    ...DATA_BUCKETS.filter((bucket) => grants.buckets?.[bucket]?.length).map((bucket) => BUCKET_ENV[bucket]),
    ...(grants.startsPipeline ? [ENV.STATE_MACHINE_ARN] : []),
    ...(grants.pseudonymSecret ? [ENV.PSEUDONYM_SECRET_ARN] : []),
    // Every API function checks the ID token's issuer and audience against the pool and its site client; a user-pool
    // administrator needs them too. API responses carry CORS headers for the site.
    ...(grants.userPoolAdmin || kind === 'api' ? [ENV.USER_POOL_ID, ENV.USER_POOL_CLIENT_ID] : []),
    ...(kind === 'api' ? [ENV.SITE_ORIGIN] : []),
    ...(grants.sendsMail ? [ENV.MAIL_FROM, ENV.MAIL_CONFIGURATION_SET] : []),
    ...(grants.table === 'readWrite' ? [ENV.AUDIT_APPENDER_FUNCTION] : []),
    ...((grants.machineClients || grants.suspendsMachineClients) && !grants.userPoolAdmin && kind !== 'api'
      ? [ENV.USER_POOL_ID]
      : []),
    ...(grants.intakeEndpoints ? [ENV.OAUTH_TOKEN_URL, ENV.DICOMWEB_URL, ENV.DICOM_PORT] : []),
    ...(grants.hostedLogin && !grants.intakeEndpoints ? [ENV.OAUTH_TOKEN_URL] : []),
    ...(grants.startsJobs ? [ENV.JOB_WORKER_FUNCTION] : []),
    ...(grants.auditDigests ? [ENV.AUDIT_DIGEST_BUCKET, ENV.AUDIT_DIGEST_KEY_ID] : []),
  ];
}

/**
 * Powertools for AWS Lambda's settings, the same in the cloud and the twin (docs/observability.md): the service every
 * log line, metric and trace is filed under is the folder of the function's entry (its API domain, `pipeline`,
 * `jobs`, `triggers`, `audit`). Traces never record an answer or an error's message, which may carry PHI, and the
 * logger never logs an event.
 */
export function powertoolsEnvironment(declaration: Pick<FunctionDeclaration, 'entry'>): Record<string, string> {
  return {
    POWERTOOLS_SERVICE_NAME: declaration.entry.split('/')[1] ?? 'imaging-workspace',
    POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
    POWERTOOLS_TRACER_CAPTURE_ERROR: 'false',
    POWERTOOLS_LOGGER_LOG_EVENT: 'false',
  };
}

export function domainEntry(domain: ApiDomain): string {
  return `functions/${domain}/handler.ts`;
}

/** The domains that have at least one route: one Lambda each, nothing for the rest. */
export function routedDomains(routes: readonly RouteDefinition[] = ROUTES): ApiDomain[] {
  return [...new Set(routes.map((route) => route.domain))];
}

function pascal(name: string): string {
  return name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

export function apiFunctionDeclaration(domain: ApiDomain): FunctionDeclaration {
  const grants = API_DOMAIN_GRANTS[domain];
  return {
    id: `${pascal(domain)}Function`,
    kind: 'api',
    entry: domainEntry(domain),
    description: `API domain ${domain}: ${ROUTES.filter((r) => r.domain === domain).length} routes`,
    memoryMb: 1024,
    // API Gateway gives up after 29 s.
    timeoutSeconds: 29,
    ...grants,
    env: environmentOf(grants, 'api'),
  };
}

export function pipelineTaskDeclaration(task: PipelineTask): FunctionDeclaration {
  const grants = PIPELINE_TASK_GRANTS[task.state];
  if (!grants) {
    throw new Error(
      `Pipeline task ${task.state} has no grants: add it to PIPELINE_TASK_GRANTS in infra/function-declarations.ts`,
    );
  }
  return {
    id: `${task.state}Function`,
    kind: 'pipeline',
    entry: task.entry,
    description: `Dataset pipeline task ${task.state}`,
    memoryMb: task.memoryMb,
    timeoutSeconds: task.timeoutSeconds,
    ...grants,
    env: environmentOf(grants, 'pipeline'),
  };
}

/** The API functions, by domain (only domains with routes). */
export function apiFunctionDeclarations(): Partial<Record<ApiDomain, FunctionDeclaration>> {
  return Object.fromEntries(routedDomains().map((domain) => [domain, apiFunctionDeclaration(domain)]));
}

/** The pipeline task functions, by task state name. */
export function pipelineFunctionDeclarations(): Record<string, FunctionDeclaration> {
  return Object.fromEntries(ALL_PIPELINE_TASKS.map((task) => [task.state, pipelineTaskDeclaration(task)]));
}

/** The ARNs a policy names; the cloud passes CloudFormation tokens, the twin its local resources. */
export type ResourceArns = {
  table: string;
  buckets: Record<DataBucket, string>;
  stateMachine: string;
  pseudonymSecret: string;
  userPool: string;
  dataKey: string;
  /** The SES identity mail is sent from (absent while the stage has no sender configured) and the configuration set. */
  mailIdentity?: string;
  mailConfigurationSet: string;
  /** The audit appender function, which a 'readWrite' function invokes to drain a hospital or keep a verification. */
  auditAppender: string;
  /** The job worker, which functions that start jobs invoke (docs/jobs.md). */
  jobWorker: string;
  /** The audit digests' Object Lock bucket and their asymmetric signing key (docs/domain.md#signed-digests). */
  auditDigestBucket: string;
  auditDigestKey: string;
};

export type GrantStatement = {
  actions: string[];
  resources: string[];
  /** Allow unless said otherwise; a Deny wins over every Allow, as in IAM. */
  effect?: 'Deny';
  /** IAM condition block (operator → key → values); the twin evaluates dynamodb:LeadingKeys with StringLike. */
  conditions?: Record<string, Record<string, string[]>>;
};

/**
 * The audit trail has one writer (docs/domain.md#audit-trail): only the audit appender function may write an item
 * whose partition is a hospital's audit events (`H#<id>#AUDIT`) or its chain head (`H#<id>#AUDITHEAD`). Every other
 * function that writes the table is denied every write there, puts included, and appends by invoking the appender.
 * IAM names the partition key a request touches (dynamodb:LeadingKeys), so the deny holds inside transactions too.
 */
export const AUDIT_WRITES_DENIED: Omit<GrantStatement, 'resources'> = {
  effect: 'Deny',
  actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'],
  conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [...AUDIT_WRITE_PARTITION_PATTERNS] } },
};
/**
 * Events waiting for the chain (docs/domain.md#how-an-event-travels) are put by the function whose request recorded
 * them, and never changed or removed by it: only the appender removes a pending event, in the transaction that
 * chains it.
 */
export const AUDIT_PENDING_PUT_ONLY: Omit<GrantStatement, 'resources'> = {
  effect: 'Deny',
  actions: ['dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'],
  conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [AUDIT_PENDING_PARTITION_PATTERN] } },
};
/** Even the appender never rewrites or removes an event: it puts new ones and moves the head. */
export const AUDIT_EVENTS_APPEND_ONLY: Omit<GrantStatement, 'resources'> = {
  effect: 'Deny',
  actions: ['dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'],
  conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [...AUDIT_WRITE_PARTITION_PATTERNS] } },
};

const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const TABLE_WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

const BUCKET_OBJECT_ACTIONS: Record<Exclude<BucketAccess, 'list'>, string[]> = {
  read: ['s3:GetObject', 's3:GetObjectVersion'],
  write: ['s3:PutObject'],
  delete: ['s3:DeleteObject'],
  // Presigned multipart uploads are signed with the function's credentials, so it needs the part-level actions.
  multipart: ['s3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
  // Removing what an unfinished multipart upload holds, and nothing else of multipart (the purge of a dataset).
  abort: ['s3:AbortMultipartUpload'],
};

export const USER_POOL_ADMIN_ACTIONS = [
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminUpdateUserAttributes',
  'cognito-idp:AdminAddUserToGroup',
  'cognito-idp:AdminRemoveUserFromGroup',
  'cognito-idp:AdminListGroupsForUser',
  'cognito-idp:AdminDisableUser',
  'cognito-idp:AdminEnableUser',
  'cognito-idp:AdminUserGlobalSignOut',
  'cognito-idp:AdminResetUserPassword',
  // Accepting an invitation sets the password the invitee chose, as permanent (docs/domain.md#invitations).
  'cognito-idp:AdminSetUserPassword',
  // An administrator's two-factor reset turns the user's software token off (docs/roles-and-permissions.md).
  'cognito-idp:AdminSetUserMFAPreference',
];

/** An integration's app client: created with a generated secret, deleted on revoke (docs/dicom-intake.md). */
/** What the post-confirmation trigger does in the pool for a federated first sign-in (placesFederatedUsers). */
export const FEDERATED_PLACEMENT_ACTIONS = ['cognito-idp:AdminUpdateUserAttributes', 'cognito-idp:AdminAddUserToGroup'];

/**
 * What the pre-token-generation trigger does in the pool (issuesTokens): reads the user's second factor, and moves a
 * federated user into the group of the role their provider groups now map to.
 */
export const TOKEN_USER_ACTIONS = [
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminRemoveUserFromGroup',
  'cognito-idp:AdminAddUserToGroup',
];

export const MACHINE_CLIENT_ACTIONS = ['cognito-idp:CreateUserPoolClient', 'cognito-idp:DeleteUserPoolClient'];

/**
 * A deactivated hospital's app clients: each is described, then updated with its settings as they were and the
 * client-credentials grant off (on again at restore), since an update resets what it is not given.
 */
export const MACHINE_CLIENT_SUSPEND_ACTIONS = [
  'cognito-idp:DescribeUserPoolClient',
  'cognito-idp:UpdateUserPoolClient',
];

/**
 * A hospital's OIDC provider (docs/sso.md#in-the-cloud). DescribeIdentityProvider keeps the secret the pool holds when
 * an update comes without one (the table never stores it).
 */
export const IDENTITY_PROVIDER_ACTIONS = [
  'cognito-idp:CreateIdentityProvider',
  'cognito-idp:DescribeIdentityProvider',
  'cognito-idp:UpdateIdentityProvider',
  'cognito-idp:DeleteIdentityProvider',
  'cognito-idp:DescribeUserPoolClient',
  'cognito-idp:UpdateUserPoolClient',
];

/**
 * The IAM statements of a function's grants, in the order the role gets them. Explicit actions on named resources
 * only: object keys (`<bucket>/*`) are the one resource wildcard, because they are known only at run time.
 */
export function grantStatements(grants: Grants, arns: ResourceArns): GrantStatement[] {
  const statements: GrantStatement[] = [];
  if (grants.table === 'describe') {
    statements.push({ actions: ['dynamodb:DescribeTable'], resources: [arns.table] });
  } else if (grants.table === 'auditAppend') {
    // The appender reads the head and the pending events, and in one transaction puts the chained events, deletes
    // the pending ones and moves the head; deleting anything in the chain's own partitions stays denied.
    statements.push({
      actions: [...TABLE_READ, 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
      resources: [arns.table],
    });
    statements.push({ ...AUDIT_EVENTS_APPEND_ONLY, resources: [arns.table] });
  } else if (grants.table) {
    statements.push({
      actions: grants.table === 'read' ? TABLE_READ : [...TABLE_READ, ...TABLE_WRITE],
      resources: [arns.table],
    });
    if (grants.table === 'readWrite') {
      statements.push({ ...AUDIT_WRITES_DENIED, resources: [arns.table] });
      statements.push({ ...AUDIT_PENDING_PUT_ONLY, resources: [arns.table] });
      statements.push({ actions: ['lambda:InvokeFunction'], resources: [arns.auditAppender] });
    }
    // Indexes are read-only in DynamoDB; the index names come from TABLE_KEYS, not a wildcard.
    statements.push({
      actions: ['dynamodb:Query'],
      resources: GLOBAL_INDEXES.map((gsi) => `${arns.table}/index/${gsi.index}`),
    });
  }
  for (const bucket of DATA_BUCKETS) {
    const access = grants.buckets?.[bucket];
    if (!access?.length) continue;
    const objectActions = [...new Set(access.flatMap((a) => (a === 'list' ? [] : BUCKET_OBJECT_ACTIONS[a])))];
    if (objectActions.length > 0) statements.push({ actions: objectActions, resources: [`${arns.buckets[bucket]}/*`] });
    // ListBucket, which HeadBucket also needs.
    if (access.includes('list')) statements.push({ actions: ['s3:ListBucket'], resources: [arns.buckets[bucket]] });
  }
  if (grants.scansTable) statements.push({ actions: ['dynamodb:Scan'], resources: [arns.table] });
  if (grants.startsPipeline) statements.push({ actions: ['states:StartExecution'], resources: [arns.stateMachine] });
  if (grants.startsJobs) statements.push({ actions: ['lambda:InvokeFunction'], resources: [arns.jobWorker] });
  if (grants.pseudonymSecret) {
    statements.push({
      actions: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
      resources: [arns.pseudonymSecret],
    });
  }
  if (grants.userPoolAdmin) statements.push({ actions: USER_POOL_ADMIN_ACTIONS, resources: [arns.userPool] });
  if (grants.machineClients) statements.push({ actions: MACHINE_CLIENT_ACTIONS, resources: [arns.userPool] });
  if (grants.suspendsMachineClients)
    statements.push({ actions: MACHINE_CLIENT_SUSPEND_ACTIONS, resources: [arns.userPool] });
  if (grants.identityProviders) statements.push({ actions: IDENTITY_PROVIDER_ACTIONS, resources: [arns.userPool] });
  // SESv2 SendEmail authorises against the sending identity and the configuration set named in the call.
  if (grants.sendsMail)
    statements.push({
      actions: ['ses:SendEmail'],
      resources: [...(arns.mailIdentity ? [arns.mailIdentity] : []), arns.mailConfigurationSet],
    });
  // Digests are read and, by the writer only, put (conditional puts: the bucket policy refuses any other) and signed;
  // nothing here deletes one, and the key is never used to encrypt or decrypt.
  if (grants.auditDigests) {
    statements.push({
      actions: grants.auditDigests === 'sign' ? ['s3:GetObject', 's3:PutObject'] : ['s3:GetObject'],
      resources: [`${arns.auditDigestBucket}/*`],
    });
    statements.push({ actions: ['s3:ListBucket'], resources: [arns.auditDigestBucket] });
    statements.push({
      actions: grants.auditDigests === 'sign' ? ['kms:Sign'] : ['kms:GetPublicKey'],
      resources: [arns.auditDigestKey],
    });
  }
  // SNS Publish to a phone number has no topic to name: IAM authorises it on "*" (SNS API reference, Publish).
  if (grants.sendsSms) statements.push({ actions: ['sns:Publish'], resources: ['*'] });
  // Data in the table, buckets and secret is encrypted with the stage's key: use it, never administer it.
  const touchesData =
    (grants.table && grants.table !== 'describe') ||
    DATA_BUCKETS.some((b) => grants.buckets?.[b]?.length) ||
    grants.auditDigests !== undefined;
  if (touchesData || grants.pseudonymSecret) {
    statements.push({
      actions: ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey', 'kms:DescribeKey'],
      resources: [arns.dataKey],
    });
  }
  return statements;
}

/** A function run on a schedule: an EventBridge rule in the cloud, an interval in the local twin. */
export type ScheduledJob = {
  id: string;
  entry: string;
  description: string;
  /** EventBridge cron fields (UTC); `day` is the day of the month (every day when absent). */
  cron: { minute: string; hour: string; day?: string };
  /** How often the twin runs it. */
  localEveryMs: number;
  timeoutSeconds: number;
  grants: Grants;
};

/** How often the twin sweeps received studies (IWS_INTAKE_SWEEP_MS shortens it for tests). */
function intakeSweepMs(): number {
  const ms = Number(process.env.IWS_INTAKE_SWEEP_MS);
  return Number.isInteger(ms) && ms > 0 ? ms : 10_000;
}

export const SCHEDULED_JOBS: readonly ScheduledJob[] = [
  {
    // Walks every hospital (a scan for the hospital items) and starts one RETENTION job per active hospital and day
    // (its job item, then an asynchronous invocation of the job worker); the worker moves expired datasets to the
    // recycle bin and purges it (docs/pipeline.md#data-retention, docs/jobs.md). It touches no bucket.
    id: 'ApplyRetention',
    entry: 'functions/jobs/apply-retention.ts',
    description: 'Data retention: starts the daily retention job of each active hospital',
    cron: { minute: '0', hour: '3' },
    localEveryMs: 60 * 60 * 1000,
    timeoutSeconds: 300,
    grants: { table: 'readWrite', scansTable: true, startsJobs: true },
  },
  {
    // Walks every hospital (the same scan for the hospital items), computes the previous month's report figures and
    // e-mails them to the hospital admins; the sending is appended to the audit trail (docs/domain.md#monthly-report).
    id: 'SendMonthlyReports',
    entry: 'functions/jobs/send-monthly-reports.ts',
    description: 'Monthly report: e-mails the previous month figures to hospital admins',
    cron: { minute: '0', hour: '6', day: '1' },
    // The twin has no calendar: it sends the previous month's report once a day while it runs.
    localEveryMs: 24 * 60 * 60 * 1000,
    timeoutSeconds: 900,
    grants: { table: 'readWrite', scansTable: true, sendsMail: true },
  },
  {
    // Walks every hospital (the same scan for the hospital items): the "next bill" notice a few days before the bill
    // and the digests of yesterday (and on Mondays of last week), one e-mail per user (docs/domain.md#notifications).
    id: 'SendDailyNotifications',
    entry: 'functions/jobs/send-daily-notifications.ts',
    description: 'Notifications: daily and weekly digest e-mails and the next-bill notice',
    cron: { minute: '0', hour: '7' },
    // The twin has no calendar: it sends what is due once a day while it runs.
    localEveryMs: 24 * 60 * 60 * 1000,
    timeoutSeconds: 900,
    grants: { table: 'readWrite', scansTable: true, sendsMail: true },
  },
  {
    // Signs a digest of each hospital's audit chain that moved in the hour and writes it to the Object Lock bucket
    // (docs/domain.md#signed-digests): the scan for the hospital items, a read of each chain's head.
    id: 'WriteAuditDigests',
    entry: 'functions/audit/write-digests.ts',
    description: 'Audit trail: signs an hourly digest of each hospital chain that moved',
    cron: { minute: '5', hour: '*' },
    localEveryMs: 60 * 60 * 1000,
    timeoutSeconds: 300,
    grants: { table: 'read', scansTable: true, auditDigests: 'sign' },
  },
  {
    // Commits every received study whose integration's quiet time has passed: the same pipeline start as a browser
    // upload's last file (docs/dicom-intake.md#commit). An index read of due studies, never a scan.
    id: 'CommitQuietStudies',
    entry: 'functions/jobs/commit-quiet-studies.ts',
    description: 'DICOM intake: starts the pipeline of studies quiet for their quiet time',
    cron: { minute: '*', hour: '*' },
    get localEveryMs() {
      return intakeSweepMs();
    },
    timeoutSeconds: 300,
    grants: { table: 'readWrite', startsPipeline: true },
  },
];

export function scheduledJobDeclaration(job: ScheduledJob): FunctionDeclaration {
  return {
    id: `${job.id}Function`,
    kind: 'job',
    entry: job.entry,
    description: job.description,
    memoryMb: 512,
    timeoutSeconds: job.timeoutSeconds,
    ...job.grants,
    env: environmentOf(job.grants, 'job'),
  };
}

/** A trigger (user pool or event topic): 256 MB, its grants, and the environment those grants need plus `extraEnv`. */
function triggerDeclaration(trigger: {
  id: string;
  entry: string;
  description: string;
  timeoutSeconds: number;
  grants: Grants;
  extraEnv?: readonly EnvName[];
}): FunctionDeclaration {
  return {
    id: trigger.id,
    kind: 'trigger',
    entry: trigger.entry,
    description: trigger.description,
    memoryMb: 256,
    timeoutSeconds: trigger.timeoutSeconds,
    ...trigger.grants,
    env: [...environmentOf(trigger.grants, 'trigger'), ...(trigger.extraEnv ?? [])],
  };
}

/**
 * The user pool's pre-token-generation trigger, run for every token the pool issues: the `mfa` claim of ID tokens; no
 * token for a deactivated hospital's users nor for a disabled user; a federated sign-in's name and role from the
 * provider's claims (docs/sso.md#later-sign-ins). Its pool actions (TOKEN_USER_ACTIONS) go through a policy of its own
 * in the auth stack (the pool invokes it, so its role cannot wait for the pool); the table holds the hospital, the
 * user record, the hospital's SSO and policy, and the audit events it writes.
 */
export const PRE_TOKEN_GENERATION_DECLARATION = triggerDeclaration({
  id: 'PreTokenGeneration',
  entry: 'functions/triggers/pre-token-generation.ts',
  description:
    'User pool pre-token-generation: the mfa claim; no token for deactivated hospitals or disabled users; federated role sync',
  timeoutSeconds: 5,
  grants: { table: 'readWrite', issuesTokens: true },
});

/**
 * Records the delivery events of invitation e-mail (docs/deployment.md#e-mail): subscribed to the configuration set's
 * event topic, it writes the outcome on the invitation and bounces and complaints in the audit log.
 */
export const MAIL_EVENTS_DECLARATION = triggerDeclaration({
  id: 'MailEvents',
  entry: 'functions/triggers/mail-events.ts',
  description: 'SES delivery, bounce, complaint and reject events of invitation e-mail',
  timeoutSeconds: 10,
  grants: { table: 'readWrite' },
});

/**
 * The user pool's pre-sign-up trigger (docs/roles-and-permissions.md#single-sign-on): a federated first sign-in only
 * for its hospital's e-mail domain. It reads the providers from its environment and touches nothing else.
 */
export const PRE_SIGN_UP_DECLARATION = triggerDeclaration({
  id: 'PreSignUp',
  entry: 'functions/triggers/pre-sign-up.ts',
  description: "User pool pre-sign-up: federated users only for their hospital's e-mail domain",
  timeoutSeconds: 5,
  // The e-mail domain's hospital and its provider, from the table (docs/sso.md#just-in-time-accounts).
  grants: { table: 'read' },
});

/**
 * The user pool's pre- and post-authentication triggers (docs/domain.md#failed-sign-ins): one function counts a known
 * user's sign-in attempt and its success on the hospital's day item, for the compliance center's failed sign-ins; a
 * burst of failed sign-ins alerts the hospital admins by the channels they chose (docs/domain.md#security-alerts).
 */
export const SIGN_IN_EVENTS_DECLARATION = triggerDeclaration({
  id: 'SignInEvents',
  entry: 'functions/triggers/sign-in-events.ts',
  description: 'User pool pre- and post-authentication: counts sign-in attempts and successes per hospital and day',
  timeoutSeconds: 5,
  grants: { table: 'readWrite', sendsMail: true, sendsSms: true },
  // The alert's e-mail links to the site.
  extraEnv: [ENV.SITE_ORIGIN],
});

/**
 * The user pool's post-confirmation trigger (docs/roles-and-permissions.md#single-sign-on): a federated user's first
 * sign-in writes their user record; the pool attribute and group go through a policy of its own in the auth stack.
 */
export const POST_CONFIRMATION_DECLARATION = triggerDeclaration({
  id: 'PostConfirmation',
  entry: 'functions/triggers/post-confirmation.ts',
  description: "User pool post-confirmation: a federated user's hospital, default role and user record",
  timeoutSeconds: 5,
  grants: { table: 'readWrite', placesFederatedUsers: true },
});

/**
 * The one writer of the audit chain (docs/domain.md#how-an-event-travels): the table's stream hands it the pending
 * events requests wrote, and it chains them per hospital in batches; other functions invoke it only to chain a
 * hospital's pending events at once (before a verification) and to keep a verification's outcome.
 */
export const AUDIT_APPENDER_DECLARATION: FunctionDeclaration = {
  id: 'AuditAppender',
  kind: 'internal',
  entry: 'functions/audit/append-events.ts',
  description: 'Audit trail: chains the pending events of each hospital, in order and in batches',
  memoryMb: 512,
  timeoutSeconds: 10,
  table: 'auditAppend',
  env: environmentOf({ table: 'auditAppend' }, 'internal'),
};

/**
 * The job worker (docs/jobs.md): invoked asynchronously with a job's reference by the functions that start jobs, and
 * by itself to hand on a job it could not finish in its time. It does what the jobs' kinds do: invitations (table,
 * mail, the user pool's identities), a hospital's deactivation and restore (identities, DICOMweb app clients), a
 * dataset's export (the studies and assets buckets, mail), the DICOMweb index backfill (the studies bucket's
 * listings and header bundles) and data retention (the recycle bin's purge deletes in every bucket).
 */
const JOB_WORKER_GRANTS: Grants = {
  table: 'readWrite',
  // A dataset export reads the stored instances and assets and writes its ZIP under the studies bucket's exports/;
  // the DICOMweb index backfill reads the de-identified copies' listings and header bundles. Data retention's purge
  // deletes a dataset's objects in every bucket (listed by prefix, then deleted) and aborts an unfinished archive
  // upload (docs/pipeline.md#data-retention).
  buckets: {
    uploads: ['delete', 'list', 'abort'],
    studies: ['read', 'write', 'delete', 'list'],
    assets: ['read', 'delete', 'list'],
  },
  userPoolAdmin: true,
  pseudonymSecret: true,
  sendsMail: true,
  suspendsMachineClients: true,
  startsJobs: true,
  // The full audit verification reads the signed digests and the key's public half.
  auditDigests: 'verify',
};

export const JOB_WORKER_DECLARATION: FunctionDeclaration = {
  id: 'JobWorker',
  kind: 'internal',
  entry: 'functions/jobs/run-job.ts',
  description:
    'Jobs: runs long work in chunks from its stored cursor (bulk invitations, hospital deactivation, exports, audit verification, DICOMweb index, retention)',
  // A dataset export builds its ZIP in memory (docs/exports.md#limits): the study's files and the archive at once.
  memoryMb: 3008,
  timeoutSeconds: 900,
  ...JOB_WORKER_GRANTS,
  env: [...environmentOf(JOB_WORKER_GRANTS, 'internal'), ENV.SITE_ORIGIN],
};
