import { describe, expect, it } from 'vitest';
import {
  createDicomNode,
  createDicomWebClient,
  listIntegrations,
  revokeIntegration,
  type IntegrationDeps,
} from '#shared/domain/integrations/manage-integrations.ts';
import { admitAssociation } from '#shared/domain/intake/listener.ts';
import { caller, fakeAudit, fakeDirectory } from '#tests/unit/domain/fakes.ts';
import { createMemoryIntegrationStore, createMemoryMachineClients } from '#functions/adapters/memory/index.ts';

function world() {
  const integrations = { store: createMemoryIntegrationStore(), machineClients: createMemoryMachineClients() };
  const audit = fakeAudit();
  let n = 0;
  const deps: IntegrationDeps = {
    integrations: integrations.store,
    machineClients: integrations.machineClients,
    directory: fakeDirectory(),
    audit,
    clock: { now: () => `2026-02-01T00:00:0${n}.000Z` },
    ids: { newId: () => `int-${++n}` },
    endpoints: {
      dicomWebUrl: 'https://x/dicomweb',
      tokenUrl: 'https://auth/oauth2/token',
      calledAeTitle: 'IWS-INTAKE',
    },
  };
  return { deps, integrations, audit };
}

const ADMIN = caller('HOSPITAL_ADMIN');

describe('integrations (docs/dicom-intake.md#integrations)', () => {
  it('creates a DICOMweb client whose secret is answered once and kept nowhere, named by our ids', async () => {
    // Arrange
    const { deps, integrations, audit } = world();
    // Act
    const created = await createDicomWebClient({ name: 'Dr. Smith PACS', teamId: 't1' }, ADMIN, deps);
    // Assert
    expect(created.clientSecret).toBe('secret-1');
    expect(created.integration).toMatchObject({
      kind: 'DICOMWEB_CLIENT',
      clientId: 'client-1',
      teamName: 'Neuroradiology',
    });
    expect(created.integration.scopes).toEqual(['imaging-dicomweb/read', 'imaging-dicomweb/write']);
    expect(integrations.machineClients.created).toEqual(['dicomweb-h1-int-1']);
    expect(JSON.stringify([...integrations.store.items.values()])).not.toContain('secret-1');
    const events = audit.events.filter((e) => e.hospitalId === 'h1');
    expect(JSON.stringify(events)).not.toContain('secret-1');
    expect(events.map((e) => e.action)).toEqual(['INTEGRATION_CREATED']);
  });

  it('refuses a team of another hospital or an unknown one', async () => {
    const { deps } = world();
    await expect(createDicomWebClient({ name: 'X', teamId: 'not-ours' }, ADMIN, deps)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('claims an AE title once over the deployment and frees it on revoke', async () => {
    // Arrange
    const { deps } = world();
    const node = { name: 'CT', teamId: 't1', aeTitle: 'CT01', allowedAddresses: ['10.0.0.0/8'] };
    const first = await createDicomNode(node, ADMIN, deps);
    // Act + Assert
    await expect(createDicomNode(node, caller('HOSPITAL_ADMIN', { hospitalId: 'h2' }), deps)).rejects.toMatchObject({
      code: 'AE_TITLE_TAKEN',
    });
    await revokeIntegration(first.id, ADMIN, deps);
    await expect(createDicomNode(node, ADMIN, deps)).resolves.toMatchObject({ aeTitle: 'CT01', status: 'ACTIVE' });
  });

  it('revokes: the app client is deleted, the status before and after audited; another hospital gets 404', async () => {
    // Arrange
    const { deps, integrations, audit } = world();
    const { integration } = await createDicomWebClient({ name: 'PACS', teamId: 't1' }, ADMIN, deps);
    // Act
    await expect(
      revokeIntegration(integration.id, caller('HOSPITAL_ADMIN', { hospitalId: 'h2' }), deps),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const revoked = await revokeIntegration(integration.id, ADMIN, deps);
    // Assert
    expect(revoked.status).toBe('REVOKED');
    expect(integrations.machineClients.removed).toEqual(['client-1']);
    const events = audit.events.filter((e) => e.hospitalId === 'h1');
    expect(events.at(-1)).toMatchObject({
      action: 'INTEGRATION_REVOKED',
      details: { before: { status: 'ACTIVE' }, after: { status: 'REVOKED' } },
    });
    expect((await listIntegrations(ADMIN, deps)).items[0]!.status).toBe('REVOKED');
  });

  it('admits an association only from an active node, its addresses and our called AE title', async () => {
    const { deps } = world();
    await createDicomNode(
      { name: 'MR', teamId: 't1', aeTitle: 'MR01', allowedAddresses: ['10.1.0.0/16'] },
      ADMIN,
      deps,
    );
    const admit = (callingAeTitle: string, peerAddress: string, calledAeTitle = 'IWS-INTAKE') =>
      admitAssociation({ callingAeTitle, calledAeTitle, peerAddress }, { ...deps, directory: fakeDirectory() });
    expect(await admit('MR01', '10.1.2.3')).toMatchObject({ accept: true });
    expect(await admit('MR01', '10.2.0.1')).toEqual({ accept: false, reason: 'CALLING_AE_NOT_RECOGNIZED' });
    expect(await admit('NOBODY', '10.1.2.3')).toEqual({ accept: false, reason: 'CALLING_AE_NOT_RECOGNIZED' });
    expect(await admit('MR01', '10.1.2.3', 'OTHER')).toEqual({ accept: false, reason: 'CALLED_AE_NOT_RECOGNIZED' });
  });
});
