import type { Caller } from '#shared/domain/auth/caller.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import type { AuditLog, Clock, IdGenerator } from '#shared/domain/ports.ts';
import { NotFoundError, RuleError, ValidationError } from '#shared/domain/errors.ts';
import { DICOMWEB_SCOPE_NAMES, DICOMWEB_SCOPES } from '#shared/vocabulary/integrations.ts';
import {
  QUIET_SECONDS,
  type CreateDicomNodeRequest,
  type CreateDicomWebClientRequest,
  type CreatedDicomWebClient,
} from '#shared/schemas/api/integrations.ts';
import { raiseSecurityAlert, type AlertDeps } from '#shared/domain/notifications/alerts.ts';
import type { IntakeEndpoints, IntegrationRecord, IntegrationStore, MachineClients } from './ports.ts';

/** The alert ports (docs/domain.md#security-alerts) are optional: without them nobody is told. */
export type IntegrationDeps = Omit<AlertDeps, 'clock' | 'ids'> & {
  integrations: IntegrationStore;
  machineClients: MachineClients;
  directory: Pick<Directory, 'getTeam'>;
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
  endpoints: IntakeEndpoints;
};

/** The name of the app client in the user pool: our ids only, never the integration's free-text name. */
export const appClientName = (hospitalId: string, integrationId: string) => `dicomweb-${hospitalId}-${integrationId}`;

async function teamOf(caller: Caller, teamId: string, deps: Pick<IntegrationDeps, 'directory'>) {
  const team = await deps.directory.getTeam(caller.hospitalId, teamId);
  if (!team || team.isActive === false)
    throw new ValidationError('VALIDATION_FAILED', {}, [{ path: 'teamId', message: 'Invalid input' }]);
  return team;
}

function base(caller: Caller, deps: IntegrationDeps, name: string, team: { id: string; name: string } | undefined) {
  return {
    id: deps.ids.newId(),
    hospitalId: caller.hospitalId,
    name,
    ...(team ? { teamId: team.id, teamName: team.name } : {}),
    status: 'ACTIVE' as const,
    createdAt: deps.clock.now(),
    createdByUserId: caller.userId,
    createdByName: `${caller.firstName} ${caller.lastName}`.trim(),
  };
}

/** The hospital's integrations, newest first, with where they connect. */
export async function listIntegrations(caller: Caller, deps: IntegrationDeps) {
  const items = await deps.integrations.list(caller.hospitalId);
  items.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return { items, endpoints: deps.endpoints };
}

/**
 * A DICOMweb client: an app client of the user pool with the client-credentials grant and the DICOMweb resource
 * server's scopes the admin chose (both unless given); the integration keeps them, so a route needs its scope in the token
 * and in the stored integration. With a team it is bound to that team (docs/dicom-intake.md#dicomweb-clients); the schema already
 * refused a writer without one. Its secret is returned once and not kept.
 */
export async function createDicomWebClient(
  request: CreateDicomWebClientRequest,
  caller: Caller,
  deps: IntegrationDeps,
): Promise<CreatedDicomWebClient> {
  const team = request.teamId === undefined ? undefined : await teamOf(caller, request.teamId, deps);
  const chosen = new Set(request.scopes ?? DICOMWEB_SCOPE_NAMES);
  if (chosen.has('write') && !team)
    throw new ValidationError('VALIDATION_FAILED', {}, [
      { path: 'teamId', message: 'A client that writes needs a team' },
    ]);
  const record: IntegrationRecord = {
    ...base(caller, deps, request.name, team),
    kind: 'DICOMWEB_CLIENT',
    quietSeconds: request.quietSeconds ?? QUIET_SECONDS.default,
    scopes: DICOMWEB_SCOPE_NAMES.filter((name) => chosen.has(name)).map((name) => DICOMWEB_SCOPES[name]),
  };
  const { clientId, clientSecret } = await deps.machineClients.create(
    appClientName(caller.hospitalId, record.id),
    record.scopes!,
  );
  record.clientId = clientId;
  try {
    await deps.integrations.create(record);
  } catch (error) {
    await deps.machineClients.remove(clientId);
    throw error;
  }
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'INTEGRATION_CREATED',
    actorUserId: caller.userId,
    actorName: record.createdByName,
    details: {
      integrationId: record.id,
      kind: record.kind,
      ...(record.teamId ? { teamId: record.teamId } : {}),
      clientId,
      scopes: record.scopes!,
    },
  });
  await raiseSecurityAlert(
    caller.hospitalId,
    {
      type: 'ACCESS_TOKEN_CHANGED',
      title: 'DICOMweb client created',
      description: `${record.createdByName} created DICOMweb client ${record.id}, which can get access tokens.`,
      href: '/hospital-admin/settings',
    },
    deps,
  );
  return { integration: record, clientSecret, tokenUrl: deps.endpoints.tokenUrl };
}

/** A DICOM node: its calling AE title (unique over the deployment) and the addresses it may send from. */
export async function createDicomNode(
  request: CreateDicomNodeRequest,
  caller: Caller,
  deps: IntegrationDeps,
): Promise<IntegrationRecord> {
  const team = await teamOf(caller, request.teamId, deps);
  const record: IntegrationRecord = {
    ...base(caller, deps, request.name, team),
    kind: 'DICOM_NODE',
    quietSeconds: request.quietSeconds ?? QUIET_SECONDS.default,
    aeTitle: request.aeTitle,
    allowedAddresses: [...new Set(request.allowedAddresses)],
  };
  if (!(await deps.integrations.create(record))) throw new RuleError('AE_TITLE_TAKEN');
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'INTEGRATION_CREATED',
    actorUserId: caller.userId,
    actorName: record.createdByName,
    details: {
      integrationId: record.id,
      kind: record.kind,
      teamId: record.teamId,
      aeTitle: record.aeTitle,
      allowedAddresses: record.allowedAddresses,
    },
  });
  return record;
}

/**
 * Revokes an integration: a client's app client is deleted (no new token) and the integration marked REVOKED (a token
 * issued before is refused at once, docs/dicom-intake.md#revoking); a node's AE title is freed.
 */
export async function revokeIntegration(
  integrationId: string,
  caller: Caller,
  deps: IntegrationDeps,
): Promise<IntegrationRecord> {
  const existing = await deps.integrations.get(caller.hospitalId, integrationId);
  if (!existing) throw new NotFoundError();
  if (existing.status === 'REVOKED') return existing;
  const revoked = await deps.integrations.revoke(caller.hospitalId, integrationId, deps.clock.now());
  if (existing.clientId) await deps.machineClients.remove(existing.clientId);
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'INTEGRATION_REVOKED',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`.trim(),
    details: {
      integrationId,
      kind: existing.kind,
      before: { status: existing.status },
      after: { status: revoked.status },
    },
  });
  if (existing.kind === 'DICOMWEB_CLIENT')
    await raiseSecurityAlert(
      caller.hospitalId,
      {
        type: 'ACCESS_TOKEN_CHANGED',
        title: 'DICOMweb client revoked',
        description: `${`${caller.firstName} ${caller.lastName}`.trim()} revoked DICOMweb client ${integrationId}; its tokens are refused.`,
        href: '/hospital-admin/settings',
      },
      deps,
    );
  return revoked;
}

/** The hospital's active DICOMweb clients, whose app clients follow the hospital's status. */
async function activeClients(hospitalId: string, deps: Pick<IntegrationDeps, 'integrations'>) {
  const items = await deps.integrations.list(hospitalId);
  return items.filter((i) => i.kind === 'DICOMWEB_CLIENT' && i.status === 'ACTIVE' && i.clientId);
}

/**
 * Deactivation (docs/dicom-intake.md#deactivation): each active DICOMweb client's client-credentials grant is turned
 * off, so the token endpoint refuses it. Returns how many; a retry turns off again what is already off (no change).
 */
export async function suspendDicomWebClients(
  hospitalId: string,
  deps: Pick<IntegrationDeps, 'integrations' | 'machineClients'>,
): Promise<number> {
  const clients = await activeClients(hospitalId, deps);
  for (const integration of clients) await deps.machineClients.suspend(integration.clientId!);
  return clients.length;
}

/**
 * Restore: each active DICOMweb client gets its grant back with the scopes it was created with (the integration's),
 * so the same id and secret obtain tokens again. A revoked client stays revoked (its app client is deleted).
 */
export async function resumeDicomWebClients(
  hospitalId: string,
  deps: Pick<IntegrationDeps, 'integrations' | 'machineClients'>,
): Promise<number> {
  const clients = await activeClients(hospitalId, deps);
  for (const integration of clients) await deps.machineClients.resume(integration.clientId!, integration.scopes ?? []);
  return clients.length;
}
