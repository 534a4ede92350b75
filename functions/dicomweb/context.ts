import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { ServerDeps } from '#functions/lib/server-deps.ts';
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
