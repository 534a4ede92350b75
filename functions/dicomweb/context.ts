import type { APIGatewayProxyEvent } from 'aws-lambda';
import { clientRouteHandler, type ApiHandler } from '#functions/lib/http-handler.ts';
import type { ServerDeps } from '#functions/lib/server-deps.ts';
import { requireActiveHospital } from '#shared/domain/auth/hospital-status.ts';
import type { IntakeDeps, IntakeSource } from '#shared/domain/intake/ports.ts';
import type { IntegrationRecord } from '#shared/domain/integrations/ports.ts';

/** A header of the request, whatever its case. */
export function header(event: APIGatewayProxyEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** The base of RetrieveURL values: the deployment's DICOMweb URL, else the one this request reached. */
export function baseUrlOf(event: APIGatewayProxyEvent, deps: ServerDeps): string {
  if (deps.intakeEndpoints.dicomWebUrl) return deps.intakeEndpoints.dicomWebUrl.replace(/\/+$/, '');
  return `${header(event, 'x-forwarded-proto') ?? 'https'}://${header(event, 'host') ?? 'localhost'}/dicomweb`;
}

export function intakeDeps(deps: ServerDeps): IntakeDeps {
  return deps;
}

export function stowSource(integration: IntegrationRecord): IntakeSource {
  return { integration, via: 'STOW_RS' };
}

type ClientRouteKey = Parameters<typeof clientRouteHandler>[0];

/**
 * Every DICOMweb route (docs/dicom-intake.md#deactivation): the client's token and its integration are checked by
 * clientRouteHandler, then its hospital must be active. A token of a deactivated hospital's client is refused with
 * HOSPITAL_DEACTIVATED (403) whatever it still grants, and serves again once the hospital is restored. The status is
 * read on every request, as the integration's is, so no issued token outlives a deactivation.
 */
export function dicomwebRoute<K extends ClientRouteKey>(
  key: K,
  fn: Parameters<typeof clientRouteHandler<K>>[1],
): ApiHandler {
  return clientRouteHandler(key, async (request, integration, deps) => {
    await requireActiveHospital(integration.hospitalId, deps.directory);
    return fn(request, integration, deps);
  });
}
