import { z } from 'zod';
import { ENV } from '#shared/env.ts';

/**
 * Reads the environment once, through a schema, and fails fast at init when something is missing: a
 * misconfigured Lambda should die at cold start, not halfway through a request. Names come from shared/env.ts.
 */
const optional = z.string().min(1).optional();
const EnvSchema = z
  .object({
    [ENV.STAGE]: z.string().min(1).default('local'),
    [ENV.TABLE_NAME]: z.string().min(1),
    [ENV.UPLOADS_BUCKET]: z.string().min(1),
    [ENV.STUDIES_BUCKET]: z.string().min(1),
    [ENV.ASSETS_BUCKET]: z.string().min(1),
    [ENV.STATE_MACHINE_ARN]: optional,
    [ENV.USER_POOL_ID]: optional,
    [ENV.USER_POOL_CLIENT_ID]: optional,
    [ENV.PSEUDONYM_SECRET_ARN]: optional,
    [ENV.PSEUDONYM_SECRET]: optional,
    [ENV.DYNAMODB_ENDPOINT]: optional,
    [ENV.S3_ENDPOINT]: optional,
    [ENV.S3_PUBLIC_ENDPOINT]: optional,
    [ENV.SFN_ENDPOINT]: optional,
    [ENV.COGNITO_ENDPOINT]: optional,
    [ENV.SITE_ORIGIN]: optional,
    AWS_REGION: z.string().min(1).default('us-east-1'),
  })
  .refine((env) => env[ENV.PSEUDONYM_SECRET] || env[ENV.PSEUDONYM_SECRET_ARN], {
    message: `${ENV.PSEUDONYM_SECRET_ARN} (or ${ENV.PSEUDONYM_SECRET} locally) must be set`,
  });

export type ServerEnv = z.infer<typeof EnvSchema>;

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

/** Tests and the local twin change env between runs. */
export function resetEnvCache(): void {
  cached = undefined;
}
