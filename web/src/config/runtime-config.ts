import { z } from 'zod';
import { apiUrl as apiUrlUnder } from '#shared/client/api-client.ts';
import { RoleSchema } from '#shared/schemas/roles.ts';

/**
 * Settings the deployment hands the site at run time (`GET /config.json`), so one build serves every
 * environment. Locally `userPoolEndpoint` points at the Cognito-compatible stand-in and `mode` is 'local'.
 */
const RuntimeConfigSchema = z.object({
  region: z.string().min(1),
  userPoolId: z.string().min(1),
  userPoolClientId: z.string().min(1),
  apiBaseUrl: z.string(),
  userPoolEndpoint: z.string().optional(),
  mode: z.enum(['local', 'cloud']).default('cloud'),
  demoAccounts: z.array(z.object({ email: z.string(), role: RoleSchema })).default([]),
  /** Single sign-on (docs/sso.md): the hosted-login domain; which e-mail goes there the API answers. */
  sso: z.object({ domain: z.string().min(1) }).optional(),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfigSchema>;

let current: RuntimeConfig | undefined;

export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  const response = await fetchImpl('/config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`The site configuration could not be loaded (HTTP ${response.status}).`);
  current = RuntimeConfigSchema.parse(await response.json());
  return current;
}

export function setRuntimeConfig(config: RuntimeConfig): void {
  current = config;
}

export function getRuntimeConfig(): RuntimeConfig {
  if (!current) throw new Error('Runtime configuration used before it was loaded');
  return current;
}

/** Absolute API URL for a path of the route table (`/api/...`) under the deployment's apiBaseUrl. */
export function apiUrl(path: string): string {
  return apiUrlUnder(getRuntimeConfig().apiBaseUrl, path);
}
