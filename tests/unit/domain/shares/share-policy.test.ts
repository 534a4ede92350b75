import { describe, expect, it } from 'vitest';
import { caller } from '#tests/unit/domain/fakes.ts';
import { CLIENT, shareWorld } from './fixtures.ts';
import { createPatientShare, listPatientShares, revokePatientShare } from '#shared/domain/shares/patient-shares.ts';
import { requestShareCode } from '#shared/domain/shares/patient-access.ts';
import { createTeamShares, listSharedWithMe } from '#shared/domain/shares/team-shares.ts';
import { decideShare, listShareApprovals } from '#shared/domain/shares/approvals.ts';
import { loadReadableDataset } from '#shared/domain/datasets/load-dataset.ts';

/** The sharing switches of docs/domain.md#share-policy, each acting where a share is created or opened. */
const INPUT = {
  recipientEmail: 'someone@gmail.example',
  expiresInHours: 168,
  maxOpens: 3,
  watermark: true,
  allowDownloads: false,
  scopes: ['viewer_only' as const],
};
const ADMIN = caller('HOSPITAL_ADMIN');
const LEAD = caller('TEAM_LEAD');
const tokenOf = (link: string) => link.split('/p/')[1]!;

describe('shareWithExternal off', () => {
  it("refuses a patient share outside the hospital's own domains, a phone alone too, and lets its own domains through", async () => {
    const w = shareWorld({
      policy: { shareWithExternal: false, recipientDomains: ['northside.example'] },
    });
    await expect(createPatientShare('ds1', INPUT, w.member, w.deps)).rejects.toMatchObject({
      code: 'SHARE_RECIPIENT_NOT_ALLOWED',
    });
    await expect(
      createPatientShare(
        'ds1',
        { ...INPUT, recipientEmail: undefined, recipientPhone: '+15551234567' } as never,
        w.member,
        w.deps,
      ),
    ).rejects.toMatchObject({ code: 'SHARE_RECIPIENT_NOT_ALLOWED' });
    // A hospital admin is held to it as well: the switch is the hospital's promise, not a role's.
    await expect(createPatientShare('ds1', INPUT, ADMIN, w.deps)).rejects.toMatchObject({
      code: 'SHARE_RECIPIENT_NOT_ALLOWED',
    });
    const ok = await createPatientShare(
      'ds1',
      { ...INPUT, recipientEmail: 'Patient@Northside.example' },
      w.member,
      w.deps,
    );
    expect(ok.share.status).toBe('ACTIVE');
    expect(w.deps.shares.patient.size).toBe(1);
  });

  it("takes the hospital admins' domains while the admin never saved a list; an empty list allows none", async () => {
    const w = shareWorld({ policy: { shareWithExternal: false } });
    // The world's admins have x.test addresses.
    await expect(
      createPatientShare('ds1', { ...INPUT, recipientEmail: 'patient@x.test' }, w.member, w.deps),
    ).resolves.toBeDefined();
    const none = shareWorld({ policy: { shareWithExternal: false, recipientDomains: [] } });
    await expect(
      createPatientShare('ds1', { ...INPUT, recipientEmail: 'patient@x.test' }, none.member, none.deps),
    ).rejects.toMatchObject({ code: 'SHARE_RECIPIENT_NOT_ALLOWED' });
  });
});

describe('requireApproval', () => {
  it('holds a patient share as PENDING_APPROVAL: no code, the link does not open, until the lead approves', async () => {
    const w = shareWorld({ policy: { requireApproval: true } });
    const { share, link } = await createPatientShare('ds1', INPUT, w.member, w.deps);
    expect(share.status).toBe('PENDING_APPROVAL');
    // Counted as waiting, not as active (docs/domain.md#counters).
    expect([w.counter('patientShares_PENDING_APPROVAL'), w.counter('patientShares_ACTIVE')]).toEqual([1, 0]);
    await expect(requestShareCode(tokenOf(link), CLIENT, w.deps)).rejects.toMatchObject({
      code: 'SHARE_LINK_INVALID',
    });
    expect(w.mailbox).toHaveLength(0);
    expect(w.sms).toHaveLength(0);
    // The approvers are told (the bell), the member is not an approver.
    const leadBell = await w.notifications.listNewest('h1', 'user-team_lead', 50);
    expect(leadBell.map((n) => n.type)).toContain('SHARE_APPROVAL_REQUESTED');
    expect((await w.notifications.listNewest('h1', 'user-hospital_admin', 50)).map((n) => n.type)).toContain(
      'SHARE_APPROVAL_REQUESTED',
    );
    expect((await listShareApprovals(LEAD, w.deps)).items).toEqual([
      expect.objectContaining({ id: share.id, kind: 'PATIENT', recipient: 'someone@gmail.example' }),
    ]);
    expect((await listShareApprovals(caller('TEAM_LEAD', { teamId: 't2' }), w.deps)).items).toEqual([]);
    // The one who asked cannot approve their own share; a lead of another team does not see it.
    await expect(
      decideShare(share.id, 'APPROVED', caller('TEAM_LEAD', { teamId: 't2' }), w.deps),
    ).rejects.toMatchObject({ code: 'SHARE_NOT_FOUND' });

    w.advance(3600);
    const decided = await decideShare(share.id, 'APPROVED', LEAD, w.deps);
    expect(decided.decision).toBe('APPROVED');
    expect([w.counter('patientShares_PENDING_APPROVAL'), w.counter('patientShares_ACTIVE')]).toEqual([0, 1]);
    const sent = await requestShareCode(tokenOf(link), CLIENT, w.deps);
    expect(sent.sentTo).toBe('s***@gmail.example');
    const [listed] = (await listPatientShares('ds1', w.member, w.deps)).items;
    expect(listed!.status).toBe('ACTIVE');
    // The lifetime starts at approval.
    expect(Date.parse(listed!.expiresAt) - Date.parse(w.state.now)).toBe(168 * 3600_000);
    await expect(decideShare(share.id, 'REFUSED', ADMIN, w.deps)).rejects.toMatchObject({ code: 'SHARE_NOT_FOUND' });
    expect(w.deps.audit.events.map((e) => e.action)).toEqual(
      expect.arrayContaining(['PATIENT_SHARE_CREATED', 'SHARE_APPROVAL_REQUESTED', 'SHARE_APPROVED']),
    );
    expect((await w.notifications.listNewest('h1', w.member.userId, 50)).map((n) => n.type)).toContain(
      'SHARE_APPROVAL_DECIDED',
    );
  });

  it('a refused patient share never opens; a withdrawn one leaves the queue', async () => {
    const w = shareWorld({ policy: { requireApproval: true } });
    const first = await createPatientShare('ds1', INPUT, w.member, w.deps);
    await decideShare(first.share.id, 'REFUSED', ADMIN, w.deps);
    await expect(requestShareCode(tokenOf(first.link), CLIENT, w.deps)).rejects.toMatchObject({
      code: 'SHARE_LINK_INVALID',
    });
    expect((await listPatientShares('ds1', w.member, w.deps)).items[0]!.status).toBe('REFUSED');
    const second = await createPatientShare('ds1', INPUT, w.member, w.deps);
    await revokePatientShare('ds1', second.share.id, w.member, w.deps);
    expect((await listShareApprovals(ADMIN, w.deps)).items).toEqual([]);
    // One refused, one withdrawn (revoked) while waiting: none waits any more (docs/domain.md#counters).
    expect(
      (['PENDING_APPROVAL', 'REFUSED', 'REVOKED', 'ACTIVE'] as const).map((s) => w.counter(`patientShares_${s}`)),
    ).toEqual([0, 1, 1, 0]);
  });

  it("holds a team share: no grant, the recipient sees nothing until approved; the team's own switch acts too", async () => {
    const w = shareWorld({ teamApproval: true });
    const { items } = await createTeamShares('ds1', { teamId: 't2', permissions: ['view'] }, w.member, w.deps);
    expect(items[0]!.status).toBe('PENDING_APPROVAL');
    const recipient = caller('TEAM_MEMBER', { userId: 'stranger', teamId: 't2' });
    await expect(loadReadableDataset(recipient, 'ds1', w.deps)).rejects.toMatchObject({ code: 'DATASET_NOT_FOUND' });
    expect((await listSharedWithMe(recipient, w.deps)).items).toEqual([]);
    // Asked twice while waiting: already shared.
    await expect(
      createTeamShares('ds1', { teamId: 't2', permissions: ['view'] }, w.member, w.deps),
    ).rejects.toMatchObject({ code: 'SHARE_EXISTS' });
    await decideShare(items[0]!.id, 'APPROVED', LEAD, w.deps);
    expect((await loadReadableDataset(recipient, 'ds1', w.deps)).sharedWithYou).toEqual(['view']);
  });

  it("lets a hospital admin's share through, and a lead's only when autoApproveTeamLeads is on", async () => {
    const w = shareWorld({ policy: { requireApproval: true } });
    expect((await createPatientShare('ds1', INPUT, ADMIN, w.deps)).share.status).toBe('ACTIVE');
    const lead = await createPatientShare('ds1', INPUT, LEAD, w.deps);
    expect(lead.share.status).toBe('PENDING_APPROVAL');
    // A lead's own share waits for a hospital admin: the lead may not approve it.
    await expect(decideShare(lead.share.id, 'APPROVED', LEAD, w.deps)).rejects.toMatchObject({
      code: 'ACCESS_DENIED',
    });
    await decideShare(lead.share.id, 'APPROVED', ADMIN, w.deps);

    const auto = shareWorld({ policy: { requireApproval: true, autoApproveTeamLeads: true } });
    expect((await createPatientShare('ds1', INPUT, LEAD, auto.deps)).share.status).toBe('ACTIVE');
    expect((await createPatientShare('ds1', INPUT, auto.member, auto.deps)).share.status).toBe('PENDING_APPROVAL');
  });
});

describe('the team switch "Allow guest access" off', () => {
  it("shows a guest of the team nothing: not the team's datasets, not what was shared with them", async () => {
    const w = shareWorld();
    const guest = caller('GUEST', { userId: 'guest-1', teamId: 't1' });
    expect((await loadReadableDataset(guest, 'ds1', w.deps)).id).toBe('ds1');
    const keptOut = { ...guest, teamGuestAccess: false };
    await expect(loadReadableDataset(keptOut, 'ds1', w.deps)).rejects.toMatchObject({ code: 'DATASET_NOT_FOUND' });

    await createTeamShares('ds1', { teamId: 't2', permissions: ['view'] }, w.member, w.deps);
    const guestOfT2 = caller('GUEST', { userId: 'guest-2', teamId: 't2' });
    expect((await listSharedWithMe(guestOfT2, w.deps)).items.map((d) => d.id)).toEqual(['ds1']);
    const t2KeptOut = { ...guestOfT2, teamGuestAccess: false };
    expect((await listSharedWithMe(t2KeptOut, w.deps)).items).toEqual([]);
    await expect(loadReadableDataset(t2KeptOut, 'ds1', w.deps)).rejects.toMatchObject({ code: 'DATASET_NOT_FOUND' });
  });
});

describe('a link opened after the policy changed', () => {
  it('no longer opens once the hospital turns external sharing off', async () => {
    const w = shareWorld();
    const { link } = await createPatientShare('ds1', INPUT, w.member, w.deps);
    await requestShareCode(tokenOf(link), CLIENT, w.deps);
    const stored = (await w.deps.settings.getHospitalPolicy('h1'))!;
    await w.deps.settings.putHospitalPolicy('h1', { ...stored, value: { ...stored.value, shareWithExternal: false } });
    await expect(requestShareCode(tokenOf(link), CLIENT, w.deps)).rejects.toMatchObject({
      code: 'SHARE_LINK_INVALID',
    });
  });
});
