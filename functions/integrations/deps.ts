import type { ServerDeps } from '#functions/lib/server-deps.ts';
import type { IntegrationDeps } from '#shared/domain/integrations/manage-integrations.ts';

/** The integration core's ports from the server's. */
export function integrationDeps(deps: ServerDeps): IntegrationDeps {
  return { ...deps, endpoints: deps.intakeEndpoints };
}
