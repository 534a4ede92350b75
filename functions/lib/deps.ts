import type { ServerDeps } from './server-deps.ts';

// Re-exported for the handler wrappers that take the type with getDeps/setDeps.
export type { HealthProbe, ServerDeps } from './server-deps.ts';

let current: ServerDeps | undefined;

/** The AWS adapters are imported lazily so that tests with fakes never load the SDK clients. */
export async function getDeps(): Promise<ServerDeps> {
  if (current) return current;
  current = await (await import('#functions/adapters/index.ts')).createAwsDeps();
  return current;
}

/** Installs other ports (tests), or resets them to be built from the environment again. */
export function setDeps(deps: ServerDeps | undefined): void {
  current = deps;
}
