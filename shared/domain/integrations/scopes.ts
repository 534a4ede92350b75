import { RuleError } from '#shared/domain/errors.ts';
import { DICOMWEB_RESOURCE_SERVER, type DicomWebScope } from '#shared/vocabulary/integrations.ts';
import type { IntegrationRecord } from './ports.ts';

/**
 * A DICOMweb route's scopes must be granted twice (docs/dicom-intake.md#dicomweb-clients): by the access token (what
 * the pool issued, perhaps narrowed by the client's `scope` request, RFC 6749 4.4.2) and by the integration as stored
 * (what the admin chose). The stored integration is read on every call, so a token minted before a change never grants more than
 * the client now has. A missing scope is insufficient_scope (RFC 6750 3.1): 403 INSUFFICIENT_SCOPE naming it.
 */
export function requireScopes(
  required: readonly DicomWebScope[],
  granted: ReadonlySet<string>,
  integration: Pick<IntegrationRecord, 'scopes'>,
): void {
  const allowed = new Set(integration.scopes ?? []);
  for (const scope of required)
    if (!granted.has(scope) || !allowed.has(scope))
      throw new RuleError('INSUFFICIENT_SCOPE', { scope: scope.slice(DICOMWEB_RESOURCE_SERVER.length + 1) });
}
