import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { ENV } from '#shared/definitions/env.ts';
import {
  AUDIT_APPENDER_DECLARATION,
  JOB_WORKER_DECLARATION,
  DATA_BUCKETS,
  FEDERATED_PLACEMENT_ACTIONS,
  TOKEN_USER_ACTIONS,
  grantStatements,
  powertoolsEnvironment,
  type DataBucket,
  type FunctionDeclaration,
  type GrantStatement,
} from '#infra/function-declarations.ts';
import type { WorkerData, WorkerReply, WorkerRequest } from './function-worker.ts';

/**
 * Lambda for the twin: each function runs in worker threads of its own, with exactly the environment its declaration
 * gives (worker_threads `env`: the function's process.env is its own copy), its memory size as the V8 heap cap
 * (`resourceLimits`), its timeout, and SDK clients that refuse what its statements do not allow (grant-check.ts).
 * A function that runs out of memory or time fails alone, as a Lambda would, and the twin goes on. Instances are
 * kept warm between invocations and dropped after a while idle, like Lambda containers.
 */
export const LOCAL_ACCOUNT = '000000000000';
/** Sender of the twin's mail, and the configuration set it goes out with (both granted in localStatements). */
export const LOCAL_MAIL_FROM = 'no-reply@imaging.local';
export const LOCAL_MAIL_CONFIGURATION_SET = 'imaging-local-mail';

/** The pseudonym key's secret in the twin's Secrets Manager (secrets-manager.ts), under the data folder's key. */
export const LOCAL_PSEUDONYM_SECRET_NAME = 'imaging-local/pseudonym-key';

/** Its ARN: the one functions are given in PSEUDONYM_SECRET_ARN and granted GetSecretValue on. */
export function localPseudonymSecretArn(region: string): string {
  return `arn:aws:secretsmanager:${region}:${LOCAL_ACCOUNT}:secret:${LOCAL_PSEUDONYM_SECRET_NAME}`;
}

/** The variable sfn.ts hands the twin's resources to the pipeline executor in (JSON of TwinResources). */
export const TWIN_RESOURCES_ENV = 'IWS_TWIN_RESOURCES';

/** What the twin's functions reach: its stand-ins and the names of its resources. */
export type TwinResources = {
  region: string;
  tableName: string;
  buckets: Record<DataBucket, string>;
  stateMachineArn: string;
  userPoolId?: string;
  userPoolClientId?: string;
  siteOrigin: string;
  endpoints: {
    dynamodb: string;
    s3: string;
    s3Public: string;
    sfn: string;
    cognito: string;
    lambda: string;
    /** SESv2 and SNS: what they send lands in the outbox /_mail shows (messaging.ts, docs/local-twin.md#mail). */
    ses: string;
    sns: string;
    /** Secrets Manager: GetSecretValue of the pseudonym key (secrets-manager.ts). */
    secretsManager: string;
    /** KMS: Sign, Verify and GetPublicKey of the audit digest key (kms.ts). */
    kms?: string;
  };
  /** The audit digests' Object Lock bucket and signing key (docs/domain.md#signed-digests). */
  auditDigests?: { bucket: string; keyArn: string };
  /** The data folder's own key pair: the object store checks signatures made with it; the other stand-ins accept any. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Where integrations connect (docs/dicom-intake.md): token endpoint, DICOMweb base URL, DICOM listener port. */
  intake?: { tokenUrl: string; dicomWebUrl: string; dicomPort?: number };
  /** Variables passed through to every function (test switches such as IWS_SILENT_LOGS). */
  passThrough?: Record<string, string>;
};

export type LocalFunctionSpec = {
  declaration: FunctionDeclaration;
  /** The whole environment of the function, nothing inherited. */
  env: Record<string, string>;
  statements: GrantStatement[];
  region: string;
  functionName: string;
};

/** The declaration's statements on the twin's resources, as the cloud's role has them on the stage's. */
export function localStatements(declaration: FunctionDeclaration, resources: TwinResources): GrantStatement[] {
  const arn = (service: string, resource: string) =>
    `arn:aws:${service}:${resources.region}:${LOCAL_ACCOUNT}:${resource}`;
  const userPool = arn('cognito-idp', `userpool/${resources.userPoolId ?? 'none'}`);
  // The cloud grants the placement in a policy of its own (infra/stacks/auth-stack.ts): here it joins the others.
  const placement = declaration.placesFederatedUsers
    ? [{ actions: FEDERATED_PLACEMENT_ACTIONS, resources: [userPool] }]
    : [];
  const tokens = declaration.issuesTokens ? [{ actions: TOKEN_USER_ACTIONS, resources: [userPool] }] : [];
  return [
    ...grantStatements(declaration, {
      table: arn('dynamodb', `table/${resources.tableName}`),
      buckets: Object.fromEntries(DATA_BUCKETS.map((b) => [b, `arn:aws:s3:::${resources.buckets[b]}`])) as Record<
        DataBucket,
        string
      >,
      stateMachine: resources.stateMachineArn,
      pseudonymSecret: localPseudonymSecretArn(resources.region),
      userPool,
      dataKey: arn('kms', 'key/local'),
      mailIdentity: arn('ses', 'identity/imaging.local'),
      mailConfigurationSet: arn('ses', `configuration-set/${LOCAL_MAIL_CONFIGURATION_SET}`),
      auditAppender: arn('lambda', `function:${localFunctionName(AUDIT_APPENDER_DECLARATION)}`),
      jobWorker: arn('lambda', `function:${localFunctionName(JOB_WORKER_DECLARATION)}`),
      auditDigestBucket: `arn:aws:s3:::${resources.auditDigests?.bucket ?? 'none'}`,
      auditDigestKey: resources.auditDigests?.keyArn ?? arn('kms', 'key/none'),
    }),
    ...placement,
    ...tokens,
  ];
}

/** The declared variables with the twin's values, plus the endpoints of the stand-ins the grants reach. */
export function localEnvironment(declaration: FunctionDeclaration, resources: TwinResources): Record<string, string> {
  const functionName = localFunctionName(declaration);
  const values: Record<string, string | undefined> = {
    [ENV.STAGE]: 'local',
    [ENV.TABLE_NAME]: resources.tableName,
    [ENV.UPLOADS_BUCKET]: resources.buckets.uploads,
    [ENV.STUDIES_BUCKET]: resources.buckets.studies,
    [ENV.ASSETS_BUCKET]: resources.buckets.assets,
    [ENV.STATE_MACHINE_ARN]: resources.stateMachineArn,
    [ENV.PSEUDONYM_SECRET_ARN]: localPseudonymSecretArn(resources.region),
    [ENV.USER_POOL_ID]: resources.userPoolId,
    [ENV.USER_POOL_CLIENT_ID]: resources.userPoolClientId,
    [ENV.SITE_ORIGIN]: resources.siteOrigin,
    [ENV.AUDIT_APPENDER_FUNCTION]: localFunctionName(AUDIT_APPENDER_DECLARATION),
    // The stand-in's token endpoint, for DICOMweb clients, with the hosted login beside it (single sign-on,
    // docs/sso.md#domain-routing), as the cloud's hosted-login domain has both.
    [ENV.OAUTH_TOKEN_URL]:
      declaration.intakeEndpoints || declaration.hostedLogin ? resources.intake?.tokenUrl : undefined,
    [ENV.JOB_WORKER_FUNCTION]: localFunctionName(JOB_WORKER_DECLARATION),
    [ENV.DICOMWEB_URL]: resources.intake?.dicomWebUrl,
    [ENV.DICOM_PORT]: resources.intake?.dicomPort === undefined ? undefined : String(resources.intake.dicomPort),
    [ENV.AUDIT_DIGEST_BUCKET]: resources.auditDigests?.bucket,
    [ENV.AUDIT_DIGEST_KEY_ID]: resources.auditDigests?.keyArn,
  };
  const env: Record<string, string> = {};
  for (const name of declaration.env) {
    if (values[name] !== undefined) env[name] = values[name];
  }
  if (declaration.table) env[ENV.DYNAMODB_ENDPOINT] = resources.endpoints.dynamodb;
  if (Object.values(declaration.buckets ?? {}).some((access) => access.length > 0)) {
    env[ENV.S3_ENDPOINT] = resources.endpoints.s3;
    env[ENV.S3_PUBLIC_ENDPOINT] = resources.endpoints.s3Public;
  }
  if (declaration.startsPipeline) env[ENV.SFN_ENDPOINT] = resources.endpoints.sfn;
  // Appending to the audit trail is an invocation of the appender (docs/domain.md#audit-trail).
  if (declaration.env.includes(ENV.AUDIT_APPENDER_FUNCTION)) env[ENV.LAMBDA_ENDPOINT] = resources.endpoints.lambda;
  // Starting a job is an asynchronous invocation of the job worker (docs/jobs.md).
  if (declaration.startsJobs) env[ENV.LAMBDA_ENDPOINT] = resources.endpoints.lambda;
  // Mail and text messages go to the twin's SES and SNS, which keep them for /_mail (messaging.ts).
  if (declaration.sendsMail) {
    env[ENV.SES_ENDPOINT] = resources.endpoints.ses;
    env[ENV.MAIL_FROM] = LOCAL_MAIL_FROM;
    env[ENV.MAIL_CONFIGURATION_SET] = LOCAL_MAIL_CONFIGURATION_SET;
  }
  if (declaration.sendsSms) env[ENV.SNS_ENDPOINT] = resources.endpoints.sns;
  // The pseudonym key is read from the twin's Secrets Manager, as from the stage's in the cloud.
  if (declaration.pseudonymSecret) env[ENV.SECRETS_MANAGER_ENDPOINT] = resources.endpoints.secretsManager;
  // The digest key is the twin's KMS's, and the digests are in its object store.
  if (declaration.auditDigests && resources.endpoints.kms) {
    env[ENV.KMS_ENDPOINT] = resources.endpoints.kms;
    env[ENV.S3_ENDPOINT] = resources.endpoints.s3;
  }
  // The twin's issuer is its Cognito stand-in: API functions check tokens against it, administrators call it.
  if (
    declaration.userPoolAdmin ||
    declaration.machineClients ||
    declaration.suspendsMachineClients ||
    declaration.placesFederatedUsers ||
    declaration.issuesTokens ||
    declaration.kind === 'api'
  )
    env[ENV.COGNITO_ENDPOINT] = resources.endpoints.cognito;
  return {
    ...resources.passThrough,
    ...env,
    ...powertoolsEnvironment(declaration),
    // What the Lambda runtime sets for every function. Not AWS_EXECUTION_ENV: without it Powertools' Tracer stays off
    // and looks for no X-Ray daemon (functions/lib/tracer.ts).
    AWS_REGION: resources.region,
    AWS_DEFAULT_REGION: resources.region,
    AWS_LAMBDA_FUNCTION_NAME: functionName,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(declaration.memoryMb),
    AWS_ACCESS_KEY_ID: resources.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: resources.credentials.secretAccessKey,
    AWS_NODEJS_CONNECTION_REUSE_ENABLED: '1',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    TZ: 'UTC',
  };
}

export function localFunctionSpec(declaration: FunctionDeclaration, resources: TwinResources): LocalFunctionSpec {
  return {
    declaration,
    env: localEnvironment(declaration, resources),
    statements: localStatements(declaration, resources),
    region: resources.region,
    functionName: localFunctionName(declaration),
  };
}

/** A function's name in the twin (and in its ARN there). */
export function localFunctionName(declaration: Pick<FunctionDeclaration, 'id'>): string {
  return `imaging-local-${declaration.id}`;
}

/** An error as a Lambda invocation reports it: `errorType` as the name, `errorMessage` as the message. */
export class LambdaInvokeError extends Error {
  constructor(name: string, message: string, stack?: string) {
    super(message);
    this.name = name;
    if (stack) this.stack = stack;
  }
}

export type LocalFunction = {
  invoke(event: unknown, requestId?: string): Promise<unknown>;
  /**
   * Starts one instance ahead of the first call (its cold start), so that call does not wait for it all; resolves
   * once it is ready (or at once when an instance exists), never rejects.
   */
  warm(): Promise<void>;
  /** Worker threads now alive (diagnostics and tests). */
  instances(): number;
  close(): Promise<void>;
};

type Instance = {
  worker: Worker;
  ready: Promise<void>;
  idleTimer?: NodeJS.Timeout;
  /** Set when the thread failed: the cause every pending call on it gets. */
  onFailure?: (error: Error) => void;
};

/** Loads tsx in the thread first (an ESM worker cannot take --import on Node 20), then the worker module. */
const BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./function-worker.ts', import.meta.url).href)}); });`;

/** Per function: how long calls waited for a thread and how long they ran there (ms); read by the load bench. */
export const invokeTimings = new Map<string, { waitMs: number[]; runMs: number[] }>();

function recordTiming(functionName: string, waitMs: number, runMs: number): void {
  const timings = invokeTimings.get(functionName) ?? { waitMs: [], runMs: [] };
  invokeTimings.set(functionName, timings);
  // Bounded: a twin that runs for days keeps the latest figures only.
  if (timings.waitMs.length >= 100_000) {
    timings.waitMs.splice(0, 50_000);
    timings.runMs.splice(0, 50_000);
  }
  timings.waitMs.push(waitMs);
  timings.runMs.push(runMs);
}

/**
 * How long a call waits for a busy thread of its function before a new thread is started for it. Lambda starts a new
 * instance at once, on another machine; the twin's threads share this machine's cores, and a cold start (loading the
 * function's modules, some hundreds of milliseconds of CPU) taken for a call that a busy thread would have answered a
 * few milliseconds later slows every other call meanwhile (docs/local-twin.md#api-threads).
 */
export const SPAWN_AFTER_MS = 50;

/** How long an idle thread is kept before it is stopped (Lambda keeps an idle instance for minutes too). */
export const IDLE_THREAD_MS = 5 * 60_000;

export function createLocalFunction(
  spec: LocalFunctionSpec,
  options: {
    idleMs?: number;
    maxInstances?: number;
    spawnAfterMs?: number;
    /** The function's bundle (bundle.ts), a file URL; without one the thread loads the entry's source through tsx. */
    bundle?: string;
    log?: (line: string) => void;
  } = {},
): LocalFunction {
  const idleMs = options.idleMs ?? IDLE_THREAD_MS;
  const maxInstances = options.maxInstances ?? 4;
  const spawnAfterMs = options.spawnAfterMs ?? SPAWN_AFTER_MS;
  const idle: Instance[] = [];
  /** Started by warm() and not yet taken by a call. */
  const warming: Instance[] = [];
  const all = new Set<Instance>();
  const waiting: ((instance: Instance) => void)[] = [];
  let closed = false;

  function discard(instance: Instance): void {
    if (!all.delete(instance)) return;
    for (const list of [idle, warming]) {
      const at = list.indexOf(instance);
      if (at >= 0) list.splice(at, 1);
    }
    clearTimeout(instance.idleTimer);
    void instance.worker.terminate();
    // Room for one more: hand it to a waiting call.
    const next = closed ? undefined : waiting.shift();
    if (next) next(spawn());
  }

  function spawn(): Instance {
    const memoryMb = spec.declaration.memoryMb;
    const worker = new Worker(options.bundle ? `import(${JSON.stringify(options.bundle)});` : BOOT, {
      eval: true,
      env: spec.env,
      workerData: {
        entry: spec.declaration.entry,
        statements: spec.statements,
        region: spec.region,
        account: LOCAL_ACCOUNT,
        functionName: spec.functionName,
        memoryMb,
      } satisfies WorkerData,
      resourceLimits: { maxOldGenerationSizeMb: memoryMb },
    });
    const instance: Instance = { worker, ready: Promise.resolve() };
    instance.ready = new Promise<void>((resolve, reject) => {
      const onInit = (message: WorkerReply) => {
        if (message.type === 'ready') resolve();
        if (message.type === 'init-error') {
          reject(new LambdaInvokeError(message.error.name, message.error.message, message.error.stack));
        }
        if (message.type === 'ready' || message.type === 'init-error') worker.off('message', onInit);
      };
      worker.on('message', onInit);
      instance.onFailure = reject;
    });
    instance.ready.catch(() => undefined);
    worker.on('error', (error: Error & { code?: string }) => {
      const failure =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new LambdaInvokeError(
              'Runtime.OutOfMemory',
              `Runtime exited with error: out of memory (Memory Size: ${memoryMb} MB)`,
            )
          : new LambdaInvokeError('Runtime.ExitError', `Runtime exited with error: ${error.name}`);
      instance.onFailure?.(failure);
    });
    worker.once('exit', (code) => {
      instance.onFailure?.(
        new LambdaInvokeError('Runtime.ExitError', `Runtime exited with error: exit status ${code}`),
      );
      discard(instance);
    });
    all.add(instance);
    return instance;
  }

  function acquire(): Promise<Instance> {
    const warm = idle.pop() ?? warming.pop();
    if (warm) {
      clearTimeout(warm.idleTimer);
      return Promise.resolve(warm);
    }
    // The first thread starts at once; a further one only when no busy thread has come free within spawnAfterMs.
    if (all.size === 0) return Promise.resolve(spawn());
    return new Promise((resolve) => {
      waiting.push(resolve);
      if (all.size >= maxInstances) return;
      const timer = setTimeout(() => {
        const at = waiting.indexOf(resolve);
        if (at < 0 || closed || all.size >= maxInstances) return;
        waiting.splice(at, 1);
        resolve(spawn());
      }, spawnAfterMs);
      timer.unref();
    });
  }

  function release(instance: Instance): void {
    if (!all.has(instance)) return;
    const next = waiting.shift();
    if (next) return next(instance);
    idle.push(instance);
    instance.idleTimer = setTimeout(() => discard(instance), idleMs);
    instance.idleTimer.unref();
  }

  async function invoke(event: unknown, requestId: string = randomUUID()): Promise<unknown> {
    if (closed) throw new LambdaInvokeError('Runtime.Unavailable', 'The local function is stopped');
    const called = performance.now();
    const instance = await acquire();
    const acquired = performance.now();
    const timeoutMs = spec.declaration.timeoutSeconds * 1000;
    const deadline = Date.now() + timeoutMs;
    try {
      await instance.ready;
    } catch (error) {
      discard(instance);
      throw error;
    }
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        fail(
          new LambdaInvokeError(
            'Sandbox.Timedout',
            `RequestId: ${requestId} Error: Task timed out after ${spec.declaration.timeoutSeconds.toFixed(2)} seconds`,
          ),
        );
      }, timeoutMs);
      const settle = () => {
        clearTimeout(timer);
        instance.worker.off('message', onMessage);
        instance.onFailure = undefined;
      };
      // A thread that failed (memory, time, a crash) takes no further calls: the next one gets a fresh thread.
      const fail = (error: Error) => {
        settle();
        discard(instance);
        reject(error);
      };
      const onMessage = (message: WorkerReply) => {
        if (message.type !== 'result' || message.requestId !== requestId) return;
        settle();
        release(instance);
        recordTiming(spec.functionName, acquired - called, performance.now() - acquired);
        if (message.error)
          reject(new LambdaInvokeError(message.error.name, message.error.message, message.error.stack));
        else resolve(message.value);
      };
      instance.onFailure = fail;
      instance.worker.on('message', onMessage);
      instance.worker.postMessage({ type: 'invoke', requestId, event, deadline } satisfies WorkerRequest);
    });
  }

  return {
    invoke,
    warm() {
      if (closed || all.size > 0) return Promise.resolve();
      const instance = spawn();
      warming.push(instance);
      instance.ready.then(
        () => {
          const at = warming.indexOf(instance);
          if (at < 0) return;
          warming.splice(at, 1);
          release(instance);
        },
        () => discard(instance),
      );
      return instance.ready.catch(() => undefined);
    },
    instances: () => all.size,
    async close() {
      closed = true;
      const instances = [...all];
      all.clear();
      idle.length = 0;
      warming.length = 0;
      await Promise.all(
        instances.map((instance) => {
          clearTimeout(instance.idleTimer);
          return instance.worker.terminate();
        }),
      );
    },
  };
}
