import { describe, expect, it } from 'vitest';
import {
  createHospital,
  deleteHospital,
  hospitalAdminOverview,
  listHospitals,
  restoreHospital,
  slugOf,
  updateHospital,
} from '#shared/domain/organisation/hospitals.ts';
import { CreateHospitalRequestSchema } from '#shared/schemas/api/organisation.ts';
import { as, organisationPorts } from './fixtures.ts';
import { runStartedJobs } from '#tests/unit/domain/fakes.ts';
import { newHospitalBody } from '#tests/helpers/fixtures.ts';

const NEW_HOSPITAL = CreateHospitalRequestSchema.parse(
  newHospitalBody({ subscriptionPlan: 'ENTERPRISE', adminEmail: 'Robin@Riverside.test' }),
);

describe('hospital management (super admin)', () => {
  it('computes the summary cards from the counters: revenue = plan price x users, subscriptions without trials', async () => {
    // Prepare
    const deps = organisationPorts();

    // Act
    const page = await listHospitals({ limit: 24 }, as('SUPER_ADMIN'), deps);

    // Assess
    expect(page.items.map((h) => h.name)).toEqual(['Lakeview Medical', 'Northside General']);
    expect(page.summary).toEqual({
      totalHospitals: 2,
      activeSubscriptions: 2,
      totalUsers: 6,
      monthlyRevenue: 5 * 25 + 15,
    });
    expect(page.items.find((h) => h.id === 'h1')!.monthlyRevenue).toBe(125);
  });

  it('searches by name or city prefix and filters by plan', async () => {
    const deps = organisationPorts();
    expect((await listHospitals({ q: 'LAKE', limit: 24 }, as('SUPER_ADMIN'), deps)).items.map((h) => h.id)).toEqual([
      'h2',
    ]);
    expect((await listHospitals({ q: 'chic', limit: 24 }, as('SUPER_ADMIN'), deps)).items).toHaveLength(2);
    expect((await listHospitals({ plan: 'PRO', limit: 24 }, as('SUPER_ADMIN'), deps)).items.map((h) => h.id)).toEqual([
      'h1',
    ]);
  });

  it('refuses every other role', async () => {
    const deps = organisationPorts();
    await expect(listHospitals({ limit: 24 }, as('HOSPITAL_ADMIN'), deps)).rejects.toMatchObject({
      code: 'ACCESS_DENIED',
    });
  });

  it('creates a hospital with a slug and its first admin INVITED (no identity yet), audited, counted', async () => {
    const deps = organisationPorts();
    const created = await createHospital(NEW_HOSPITAL, as('SUPER_ADMIN'), deps);
    expect(created).toMatchObject({ slug: 'riverside-clinic', status: 'ACTIVE', userCount: 1, monthlyRevenue: 50 });
    const admin = [...deps.org.users.values()].find((u) => u.hospitalId === created.id)!;
    expect(admin).toMatchObject({ role: 'HOSPITAL_ADMIN', status: 'INVITED', email: 'robin@riverside.test' });
    // The hospital's users by status count that admin as INVITED from the start (docs/domain.md#counters).
    expect(deps.org.hospitals.get(created.id)!.users_INVITED).toBe(1);
    expect(deps.identityCalls).toEqual([]);
    expect(deps.audit.events.at(-1)).toMatchObject({ action: 'HOSPITAL_CREATED', actorUserId: 'user-super_admin' });
    const summary = (await listHospitals({ limit: 24 }, as('SUPER_ADMIN'), deps)).summary;
    expect(summary).toEqual({
      totalHospitals: 3,
      activeSubscriptions: 3,
      totalUsers: 7,
      monthlyRevenue: 125 + 15 + 50,
    });
    await expect(createHospital(NEW_HOSPITAL, as('SUPER_ADMIN'), deps)).rejects.toMatchObject({ code: 'EMAIL_IN_USE' });
  });

  it('moves the revenue with a plan change', async () => {
    const deps = organisationPorts();
    const { subscriptionPlan: _p, adminEmail: _e, adminFirstName: _f, adminLastName: _l, ...details } = NEW_HOSPITAL;
    await updateHospital(
      'h2',
      { ...details, name: 'Lakeview Medical', subscriptionPlan: 'TRIAL' },
      as('SUPER_ADMIN'),
      deps,
    );
    const summary = (await listHospitals({ limit: 24 }, as('SUPER_ADMIN'), deps)).summary;
    expect(summary).toMatchObject({ activeSubscriptions: 1, monthlyRevenue: 125 });
    expect(deps.audit.events.at(-1)).toMatchObject({
      action: 'HOSPITAL_UPDATED',
      details: { before: { subscriptionPlan: 'BASIC' }, after: { subscriptionPlan: 'TRIAL' } },
    });
  });

  it('refuses a typed name that is not exactly the hospital name', async () => {
    const deps = organisationPorts();
    for (const confirmName of ['northside general', 'Northside General ', 'Northside'])
      await expect(
        deleteHospital('h1', { confirmName, acknowledgeImpact: true }, as('SUPER_ADMIN'), deps),
      ).rejects.toMatchObject({ code: 'HOSPITAL_NAME_MISMATCH' });
    expect(deps.org.hospitals.get('h1')!.status).toBe('ACTIVE');
  });

  it('asks for the second confirmation when the hospital has users or datasets', async () => {
    const deps = organisationPorts();
    await expect(
      deleteHospital('h1', { confirmName: 'Northside General', acknowledgeImpact: false }, as('SUPER_ADMIN'), deps),
    ).rejects.toMatchObject({ code: 'HOSPITAL_DELETE_NEEDS_CONFIRMATION' });
    deps.org.hospitals.get('h2')!.userCount = 0;
    const empty = await deleteHospital(
      'h2',
      { confirmName: 'Lakeview Medical', acknowledgeImpact: false },
      as('SUPER_ADMIN'),
      deps,
    );
    expect(empty.status).toBe('DEACTIVATED');
  });

  it('deactivates: every user disabled and signed out at the identity provider, data kept; restore re-enables the active ones', async () => {
    const deps = organisationPorts();
    deps.user('h1', 'TEAM_MEMBER', { id: 'disabled-one', email: 'd@x.test', status: 'DISABLED' });
    deps.user('h1', 'TEAM_MEMBER', { id: 'invited-one', email: 'i@x.test', status: 'INVITED' });
    const deleted = await deleteHospital(
      'h1',
      { confirmName: 'Northside General', acknowledgeImpact: true },
      as('SUPER_ADMIN'),
      deps,
    );
    expect(deleted).toMatchObject({ status: 'DEACTIVATED', deactivatedAt: expect.any(String) });
    expect(deleted.job).toMatchObject({ kind: 'HOSPITAL_DEACTIVATION', status: 'QUEUED', total: 5 });
    await runStartedJobs(deps);
    expect(deps.identityCalls.filter((c) => c.startsWith('disable')).sort()).toEqual([
      'disable disabled-one',
      'disable user-guest',
      'disable user-hospital_admin',
      'disable user-team_lead',
      'disable user-team_member',
    ]);
    expect(deps.identityCalls.filter((c) => c.startsWith('signOut'))).toHaveLength(5);
    expect(deps.org.users.size).toBeGreaterThan(5);
    expect((await listHospitals({ limit: 24 }, as('SUPER_ADMIN'), deps)).summary).toMatchObject({
      activeSubscriptions: 1,
      monthlyRevenue: 15,
    });

    deps.identityCalls.length = 0;
    const restored = await restoreHospital('h1', as('SUPER_ADMIN'), deps);
    expect(restored.status).toBe('ACTIVE');
    await runStartedJobs(deps);
    expect(deps.identityCalls.sort()).toEqual([
      'enable user-guest',
      'enable user-hospital_admin',
      'enable user-team_lead',
      'enable user-team_member',
    ]);
    expect(deps.audit.events.map((e) => e.action)).toEqual(['HOSPITAL_DEACTIVATED', 'HOSPITAL_RESTORED']);
  });

  it("turns off the grant of the hospital's active DICOMweb clients on deactivation, and on again with their scopes at restore", async () => {
    // Arrange
    const deps = organisationPorts();
    const client = async (id: string, hospitalId: string, scopes: string[], status: 'ACTIVE' | 'REVOKED') => {
      const { clientId } = await deps.machineClients.create(`dicomweb-${hospitalId}-${id}`, scopes);
      await deps.integrations.create({
        id,
        hospitalId,
        name: id,
        kind: 'DICOMWEB_CLIENT',
        status,
        quietSeconds: 60,
        scopes,
        clientId,
        createdAt: '2026-01-01T00:00:00.000Z',
        createdByUserId: 'user-hospital_admin',
        createdByName: 'Pat HOSPITAL_ADMIN',
      });
      return clientId;
    };
    const reader = await client('int-1', 'h1', ['imaging-dicomweb/read'], 'ACTIVE');
    const revoked = await client('int-2', 'h1', ['imaging-dicomweb/read'], 'REVOKED');
    const other = await client('int-3', 'h2', ['imaging-dicomweb/read', 'imaging-dicomweb/write'], 'ACTIVE');
    await deps.machineClients.suspend(revoked);
    const request = { confirmName: 'Northside General', acknowledgeImpact: true };

    // Act
    await deleteHospital('h1', request, as('SUPER_ADMIN'), deps);
    await runStartedJobs(deps);
    const whileDeactivated = new Map(deps.machineClients.grants);
    await restoreHospital('h1', as('SUPER_ADMIN'), deps);
    await runStartedJobs(deps);

    // Assert
    expect(whileDeactivated.get(reader)).toEqual([]);
    expect(whileDeactivated.get(other)).toEqual(['imaging-dicomweb/read', 'imaging-dicomweb/write']);
    expect(deps.machineClients.grants.get(reader)).toEqual(['imaging-dicomweb/read']);
    expect(deps.machineClients.grants.get(revoked)).toEqual([]);
    expect(deps.audit.events.map((e) => [e.action, e.details.clientsSuspended ?? e.details.clientsResumed])).toEqual([
      ['HOSPITAL_DEACTIVATED', 1],
      ['HOSPITAL_RESTORED', 1],
    ]);
  });

  it("records an identity the provider refused as that user's failed result; a retried delete walks them again without counting twice", async () => {
    // Arrange
    const deps = organisationPorts();
    const request = { confirmName: 'Northside General', acknowledgeImpact: true };
    let calls = 0;
    const disable = deps.identity.disable;
    deps.identity.disable = async (u) => {
      if (++calls === 2) throw new Error('throttled');
      return disable(u);
    };

    // Act
    const first = await deleteHospital('h1', request, as('SUPER_ADMIN'), deps);
    await runStartedJobs(deps);
    const firstJob = await deps.jobs.get({ ownerHospitalId: 'system', jobId: first.jobId });
    await deleteHospital('h1', request, as('SUPER_ADMIN'), deps);
    await runStartedJobs(deps);

    // Assert
    expect(firstJob).toMatchObject({ status: 'SUCCEEDED', processed: 4, succeeded: 3, failed: 1 });
    expect(deps.org.hospitals.get('h1')!.status).toBe('DEACTIVATED');
    expect(new Set(deps.identityCalls.filter((c) => c.startsWith('disable')))).toEqual(
      new Set([
        'disable user-guest',
        'disable user-hospital_admin',
        'disable user-team_lead',
        'disable user-team_member',
      ]),
    );
    expect((await listHospitals({ limit: 24 }, as('SUPER_ADMIN'), deps)).summary).toMatchObject({ monthlyRevenue: 15 });
  });

  it('answers 404 for the system tenant and unknown ids', async () => {
    const deps = organisationPorts();
    await expect(restoreHospital('system', as('SUPER_ADMIN'), deps)).rejects.toMatchObject({
      code: 'HOSPITAL_NOT_FOUND',
    });
  });

  it('gives the hospital admin the overview from the counters', async () => {
    const deps = organisationPorts();
    deps.org.hospitals.get('h1')!.pendingInvitationCount = 4;
    expect(await hospitalAdminOverview(as('HOSPITAL_ADMIN'), deps)).toEqual({
      hospital: { id: 'h1', name: 'Northside General', subscriptionPlan: 'PRO' },
      teamsCount: 2,
      departmentsCount: 1,
      membersCount: 5,
      pendingInvitations: 4,
      datasetsCount: 0,
      storageUsedBytes: 0,
    });
  });

  it('makes URL-safe slugs', () => {
    expect(slugOf('  Saint Mary’s Hôpital & Clinic ')).toBe('saint-mary-s-hopital-clinic');
  });
});
