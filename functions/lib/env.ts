import { z } from 'zod';
import { ENV } from '#shared/definitions/env.ts';

/**
 * Reads the environment once, through a schema. A function gets the name of a table, bucket, secret or state machine
 * only when it is granted that resource (infra/function-declarations.ts), so those are optional here and
 * requireResource() fails on first use, naming the variable, when a function reaches for something it was not given.
 * Names come from shared/definitions/env.ts.
 */
const optional = z.string().min(1).optional();
const EnvSchema = z.object({
  [ENV.STAGE]: z.string().min(1).default('local'),
  [ENV.TABLE_NAME]: optional,
  [ENV.UPLOADS_BUCKET]: optional,
  [ENV.STUDIES_BUCKET]: optional,
  [ENV.ASSETS_BUCKET]: optional,
  [ENV.STATE_MACHINE_ARN]: optional,
  [ENV.USER_POOL_ID]: optional,
  [ENV.USER_POOL_CLIENT_ID]: optional,
  [ENV.PSEUDONYM_SECRET_ARN]: optional,
  [ENV.DYNAMODB_ENDPOINT]: optional,
  [ENV.S3_ENDPOINT]: optional,
  [ENV.S3_PUBLIC_ENDPOINT]: optional,
  [ENV.SFN_ENDPOINT]: optional,
  [ENV.COGNITO_ENDPOINT]: optional,
  [ENV.LAMBDA_ENDPOINT]: optional,
  [ENV.SES_ENDPOINT]: optional,
  [ENV.SNS_ENDPOINT]: optional,
  [ENV.SECRETS_MANAGER_ENDPOINT]: optional,
  [ENV.KMS_ENDPOINT]: optional,
  [ENV.AUDIT_DIGEST_BUCKET]: optional,
  [ENV.AUDIT_DIGEST_KEY_ID]: optional,
  [ENV.AUDIT_APPENDER_FUNCTION]: optional,
  [ENV.JOB_WORKER_FUNCTION]: optional,
  [ENV.SITE_ORIGIN]: optional,
  [ENV.MAIL_FROM]: optional,
  [ENV.MAIL_CONFIGURATION_SET]: optional,
  [ENV.OAUTH_TOKEN_URL]: optional,
  [ENV.DICOMWEB_URL]: optional,
  [ENV.DICOM_PORT]: optional,
  AWS_REGION: z.string().min(1).default('us-east-1'),
});

export type ServerEnv = z.infer<typeof EnvSchema>;

/** A resource this function was not granted: its name is not in the environment. */
export class MissingResourceError extends Error {
  override name = 'MissingResourceError';
  constructor(variable: string) {
    super(`${variable} is not set: this function is not granted that resource (see its declaration)`);
  }
}

/** The value of a resource variable, or MissingResourceError when the function has no grant for it. */
export function requireResource(env: ServerEnv, variable: (typeof ENV)[keyof typeof ENV]): string {
  const value = (env as Record<string, string | undefined>)[variable];
  if (!value) throw new MissingResourceError(variable);
  return value;
}

let cached: ServerEnv | undefined;

export function readEnv(source: Record<string, string | undefined> = process.env): ServerEnv {
  const parsed = EnvSchema.safeParse(Object.fromEntries(Object.entries(source).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const names = parsed.error.issues.map((i) => i.path.join('.') || i.message).join(', ');
    throw new Error(`Invalid environment: ${names}`);
  }
  return parsed.data;
}

export function serverEnv(): ServerEnv {
  return (cached ??= readEnv());
}

/** Reads the environment again on next use (after a host changed it, as tests do). */
export function resetEnvCache(): void {
  cached = undefined;
}
