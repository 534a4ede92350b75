import { describe, expect, it } from 'vitest';
import {
  acceptInvitation,
  declineInvitation,
  previewInvitation,
} from '#shared/domain/invitations/answer-invitation.ts';
import {
  cancelInvitation,
  listHospitalInvitations,
  listTeamInvitations,
  resendInvitation,
} from '#shared/domain/invitations/manage-invitations.ts';
import {
  bulkInvitationJob,
  inviteMany,
  inviteOne,
  inviteToTeam,
  issueInvitation,
} from '#shared/domain/invitations/send-invitation.ts';
import { recordMailEvent } from '#shared/domain/invitations/record-delivery.ts';
import { type DomainError, ValidationError } from '#shared/domain/errors.ts';
import { SingleInvitationSchema, TeamInvitationSchema } from '#shared/schemas/api/invitations.ts';
import { caller, fakeInvitationWorld, runStartedJobs } from '#tests/unit/domain/fakes.ts';

const admin = caller('HOSPITAL_ADMIN');
const lead = caller('TEAM_LEAD');
const single = (over: Record<string, unknown> = {}) =>
  SingleInvitationSchema.parse({ fullName: 'Jordan Lee', email: 'jordan@x.test', role: 'team_member', ...over });
const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (error) {
    return (error as DomainError).code;
  }
  return 'none';
};
const PASSWORD = 'Correct-Horse-9';

/** The lists' first page at the routes' default size. */
const PAGE = { limit: 50 };

describe('sending an invitation', () => {
  it('stores only the hash of a single-use link, e-mails the link with the hospital name, counts it and audits it', async () => {
    // Prepare
    const w = fakeInvitationWorld();
    // Act
    const sent = await inviteOne(single({ departmentId: 'd1', teamId: 't1' }), admin, w.deps);
    // Assess
    expect(sent).toMatchObject({ status: 'PENDING', listStatus: 'sent', role: 'TEAM_MEMBER', team: 'Neuroradiology' });
    expect(sent.expiresAt).toBe('2026-03-08T09:00:00.000Z');
    const token = w.tokenFor('jordan@x.test')!;
    const stored = [...w.invitations.values()][0]!;
    expect(stored.tokenHash).toBe(`hash:${token}`);
    expect(JSON.stringify(stored)).not.toContain(`"${token}"`);
    expect(w.mailbox[0]!.subject).toContain('Northside General');
    expect(w.mailbox[0]!.html).toContain(`https://site.test/invitations/accept?token=${token}`);
    expect(w.counters.get('H#h1')).toBe(1);
    expect(w.counters.get('T#t1')).toBe(1);
    expect(w.audit.events.map((e) => e.action)).toEqual(['INVITATION_SENT']);
    expect(JSON.stringify(w.audit.events)).not.toContain('jordan@x.test');
  });

  it('refuses an e-mail that belongs to a user or to a pending invitation of the hospital, case-insensitively', async () => {
    const w = fakeInvitationWorld();
    await inviteOne(single(), admin, w.deps);
    expect(await codeOf(inviteOne(single({ email: 'JORDAN@x.test' }), admin, w.deps))).toBe('EMAIL_ALREADY_INVITED');
    w.users.set('u1', {
      id: 'u1',
      email: 'sam@x.test',
      firstName: 'Sam',
      lastName: 'Ray',
      role: 'TEAM_MEMBER',
      status: 'ACTIVE',
      hospitalId: 'h2',
      teamId: null,
      permissions: [],
      createdAt: w.state.now,
    });
    expect(await codeOf(inviteOne(single({ email: 'Sam@x.test' }), admin, w.deps))).toBe('EMAIL_ALREADY_REGISTERED');
  });

  it('lets a lapsed invitation go (settled as expired) so the e-mail can be invited again', async () => {
    const w = fakeInvitationWorld();
    await inviteOne(single(), admin, w.deps);
    w.state.now = '2026-03-09T09:00:00.000Z';
    await inviteOne(single(), admin, w.deps);
    const statuses = [...w.invitations.values()].map((i) => i.status).sort();
    expect(statuses).toEqual(['EXPIRED', 'PENDING']);
    expect(w.counters.get('H#h1')).toBe(1);
  });

  it('checks the team belongs to the department, and that both are of the hospital', async () => {
    const w = fakeInvitationWorld();
    await expect(inviteOne(single({ departmentId: 'd2', teamId: 't1' }), admin, w.deps)).rejects.toThrow(
      ValidationError,
    );
    await expect(inviteOne(single({ teamId: 't1' }), admin, w.deps)).rejects.toThrow(ValidationError);
    await expect(inviteOne(single({ departmentId: 'd9' }), admin, w.deps)).rejects.toThrow(ValidationError);
    expect(await codeOf(inviteOne(single(), lead, w.deps))).toBe('ACCESS_DENIED');
  });

  it('keeps an invitation whose e-mail could not be delivered as pending (not sent), for Resend', async () => {
    const w = fakeInvitationWorld();
    w.state.mailFails = true;
    const sent = await inviteOne(single(), admin, w.deps);
    expect(sent.listStatus).toBe('pending');
    expect(sent.sentAt).toBeNull();
    w.state.mailFails = false;
    const resent = await resendInvitation(sent.id, admin, w.deps);
    expect(resent.listStatus).toBe('sent');
  });

  it('lets another caller (e.g. Add Hospital) invite any role through the same core', async () => {
    const w = fakeInvitationWorld();
    const invitation = await issueInvitation(
      {
        hospitalId: 'h1',
        email: 'first.admin@x.test',
        fullName: 'First Admin',
        role: 'HOSPITAL_ADMIN',
        department: null,
        team: null,
        invitedBy: { userId: 'super', name: 'System Admin' },
      },
      w.deps,
    );
    expect(invitation.permissions).toEqual(['*']);
  });
});

describe('bulk invitations', () => {
  const row = (fullName: string, email: string, role = 'team_member', department = '', team = '') => ({
    fullName,
    email,
    role,
    department,
    team,
  });

  it('refuses the whole batch when a row breaks the rules again on the server, and sends nothing', async () => {
    const w = fakeInvitationWorld();
    const error = await inviteMany(
      {
        mode: 'basic',
        invitations: [row('Ann Lee', 'ann@x.test'), row('Bo', 'ANN@x.test'), row('C', 'not-an-email')],
      },
      admin,
      w.deps,
    ).catch((e: ValidationError) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details).toEqual([
      { path: 'invitations.1', message: 'Duplicate email (row 1)' },
      { path: 'invitations.2', message: 'Name must be at least 2 characters' },
      { path: 'invitations.2', message: 'Invalid email format' },
    ]);
    expect(w.mailbox).toHaveLength(0);
  });

  it('resolves departments and teams by name, applies Strict rules, and reports rows taken meanwhile', async () => {
    const w = fakeInvitationWorld();
    await inviteOne(single({ email: 'taken@x.test' }), admin, w.deps);
    const strict = await inviteMany(
      { mode: 'strict', invitations: [row('Ann Lee', 'ann@x.test', 'team_lead', 'Radiology', '')] },
      admin,
      w.deps,
    ).catch((e: ValidationError) => e.details);
    expect(strict).toEqual([{ path: 'invitations.0', message: 'Team assignment recommended' }]);
    const accepted = await inviteMany(
      {
        mode: 'strict',
        invitations: [
          row('Ann Lee', 'ann@x.test', 'team_lead', 'radiology', 'NEURORADIOLOGY'),
          row('Tak En', 'taken@x.test', 'guest'),
        ],
      },
      admin,
      w.deps,
    );
    expect(accepted.job).toMatchObject({ kind: 'BULK_INVITATIONS', status: 'QUEUED', total: 2, processed: 0 });
    await runStartedJobs(w.deps);
    const ref = { ownerHospitalId: admin.hospitalId, jobId: accepted.jobId };
    expect(await w.deps.jobs.get(ref)).toMatchObject({ status: 'SUCCEEDED', processed: 2, succeeded: 1, failed: 1 });
    const results = (await w.deps.jobs.listResults(ref, 10)).items;
    expect(results).toEqual([
      { seq: 1, subject: 'ann@x.test', outcome: 'SUCCEEDED', code: null, reason: null, ref: `${accepted.jobId}.1` },
      {
        seq: 2,
        subject: 'taken@x.test',
        outcome: 'REFUSED',
        code: 'EMAIL_ALREADY_INVITED',
        reason: 'This email address already has a pending invitation.',
        ref: null,
      },
    ]);
    expect(await w.deps.invitations.get(admin.hospitalId, `${accepted.jobId}.1`)).toMatchObject({
      role: 'TEAM_LEAD',
      teamId: 't1',
      departmentId: 'd1',
    });
  });
});

describe('bulk invitation job', () => {
  it('never invites a row twice when its chunk runs again after a crash', async () => {
    // Arrange
    const w = fakeInvitationWorld();
    const accepted = await inviteMany(
      {
        mode: 'basic',
        invitations: [{ fullName: 'Ann Lee', email: 'ann@x.test', role: 'guest', department: '', team: '' }],
      },
      admin,
      w.deps,
    );
    const job = (await w.deps.jobs.get({ ownerHospitalId: admin.hospitalId, jobId: accepted.jobId }))!;
    const { items } = await bulkInvitationJob.chunk(job, null, w.deps);

    // Act
    const first = await bulkInvitationJob.run(job, items[0]!, w.deps);
    const again = await bulkInvitationJob.run(job, items[0]!, w.deps);

    // Assert
    expect(first).toEqual({ outcome: 'SUCCEEDED', ref: `${accepted.jobId}.1` });
    expect(again).toEqual(first);
    expect(w.mailbox.filter((m) => m.to === 'ann@x.test')).toHaveLength(1);
    expect([...w.invitations.values()].filter((i) => i.email === 'ann@x.test')).toHaveLength(1);
  });
});

describe('team invitations', () => {
  it('lets the team lead invite with a team role, permissions and 1 to 30 days; others get 404', async () => {
    const w = fakeInvitationWorld();
    const body = TeamInvitationSchema.parse({ email: 'kim@x.test', role: 'GUEST', expiresInDays: 30 });
    // None named: the role's defaults (a member's are the team's, given when they join).
    expect(body.permissions).toBeUndefined();
    const sent = await inviteToTeam('t1', body, lead, w.deps);
    expect(sent).toMatchObject({ teamRole: 'GUEST', role: 'GUEST', expiresInDays: 30, department: 'Radiology' });
    expect(sent.permissions).toEqual(['VIEW_DATASETS']);
    expect(sent.expiresAt).toBe('2026-03-31T09:00:00.000Z');
    expect(await codeOf(inviteToTeam('t2', body, lead, w.deps))).toBe('NOT_FOUND');
    expect(await codeOf(inviteToTeam('t9', body, admin, w.deps))).toBe('NOT_FOUND');
    expect(await codeOf(listTeamInvitations('t2', PAGE, lead, w.deps))).toBe('NOT_FOUND');
    const list = await listTeamInvitations('t1', PAGE, lead, w.deps);
    expect(list.items.map((i) => i.id)).toEqual([sent.id]);
    expect(TeamInvitationSchema.safeParse({ email: 'kim@x.test', expiresInDays: 31 }).success).toBe(false);
    expect(TeamInvitationSchema.safeParse({ email: 'kim@x.test', permissions: [] }).error?.issues[0]?.message).toBe(
      'At least one permission is required',
    );
  });
});

describe('resend and cancel', () => {
  it('resend replaces the link and refreshes the expiry; the old link stops working', async () => {
    const w = fakeInvitationWorld();
    const sent = await inviteOne(single(), admin, w.deps);
    const first = w.tokenFor('jordan@x.test')!;
    w.state.now = '2026-03-05T09:00:00.000Z';
    const resent = await resendInvitation(sent.id, admin, w.deps);
    expect(resent.expiresAt).toBe('2026-03-12T09:00:00.000Z');
    expect(resent.sentAt).toBe('2026-03-05T09:00:00.000Z');
    expect(await codeOf(previewInvitation(first, w.deps))).toBe('INVITATION_LINK_INVALID');
    expect((await previewInvitation(w.tokenFor('jordan@x.test')!, w.deps)).hospitalName).toBe('Northside General');
  });

  it('offers resend and cancel only on pending invitations, and frees the counter on cancel', async () => {
    const w = fakeInvitationWorld();
    const sent = await inviteOne(single({ departmentId: 'd1', teamId: 't1' }), admin, w.deps);
    const cancelled = await cancelInvitation(sent.id, admin, w.deps);
    expect(cancelled.status).toBe('CANCELLED');
    expect(w.counters.get('H#h1')).toBe(0);
    expect(w.counters.get('T#t1')).toBe(0);
    expect(await codeOf(resendInvitation(sent.id, admin, w.deps))).toBe('INVITATION_NOT_PENDING');
    expect(await codeOf(cancelInvitation(sent.id, admin, w.deps))).toBe('INVITATION_NOT_PENDING');
    expect(await codeOf(cancelInvitation('nope', admin, w.deps))).toBe('INVITATION_NOT_FOUND');
    expect(await codeOf(cancelInvitation(sent.id, admin, w.deps, 't2'))).toBe('INVITATION_NOT_FOUND');
    expect(w.audit.events.map((e) => e.action)).toEqual(['INVITATION_SENT', 'INVITATION_CANCELLED']);
  });

  it("doesn't send a resend the mailer refused, and changes nothing", async () => {
    const w = fakeInvitationWorld();
    const sent = await inviteOne(single(), admin, w.deps);
    w.state.mailFails = true;
    expect(await codeOf(resendInvitation(sent.id, admin, w.deps))).toBe('EMAIL_NOT_SENT');
    expect((await previewInvitation(w.tokenFor('jordan@x.test')!, w.deps)).email).toBe('jordan@x.test');
  });

  it('lists with counts per filter; a lapsed one reads expired and Resend revives it', async () => {
    const w = fakeInvitationWorld();
    await inviteOne(single({ email: 'a@x.test' }), admin, w.deps);
    w.state.now = '2026-03-10T09:00:00.000Z';
    await inviteOne(single({ email: 'b@x.test' }), admin, w.deps);
    const list = await listHospitalInvitations(PAGE, admin, w.deps);
    expect(list.counts).toEqual({ all: 2, pending: 0, sent: 1, accepted: 0, expired: 1 });
    expect(list.items.map((i) => i.email)).toEqual(['b@x.test', 'a@x.test']);
    expect(list.items[1]!.status).toBe('EXPIRED');
    const revived = await resendInvitation(list.items[1]!.id, admin, w.deps);
    expect(revived).toMatchObject({ status: 'PENDING', listStatus: 'sent', expiresAt: '2026-03-17T09:00:00.000Z' });
    expect(w.counters.get('H#h1')).toBe(2);
  });
});

describe('answering an invitation', () => {
  it('accepts once: creates the identity in the group with the attributes and an ACTIVE user with the permissions', async () => {
    const w = fakeInvitationWorld();
    await inviteOne(single({ departmentId: 'd1', teamId: 't1' }), admin, w.deps);
    const token = w.tokenFor('jordan@x.test')!;
    const preview = await previewInvitation(token, w.deps);
    expect(preview).toMatchObject({ hospitalName: 'Northside General', team: 'Neuroradiology', role: 'TEAM_MEMBER' });
    const result = await acceptInvitation({ token, firstName: 'Jordan', lastName: 'Lee', password: PASSWORD }, w.deps);
    expect(result).toEqual({ email: 'jordan@x.test', hospitalName: 'Northside General' });
    expect(w.identities.get('jordan@x.test')).toMatchObject({ group: 'TEAM_MEMBER', hospitalId: 'h1' });
    const user = [...w.users.values()][0]!;
    expect(user).toMatchObject({
      status: 'ACTIVE',
      role: 'TEAM_MEMBER',
      teamId: 't1',
      department: 'Radiology',
      permissions: ['VIEW_DATASETS', 'UPLOAD_DICOM', 'SHARE_DATA'],
    });
    expect(w.counters.get('H#h1')).toBe(0);
    // One more ACTIVE user of the hospital (docs/domain.md#counters), counted once: the second answer is refused.
    expect(w.hospitalCounters.get('h1/users_ACTIVE')).toBe(1);
    expect(await codeOf(acceptInvitation({ token, firstName: 'J', lastName: 'L', password: PASSWORD }, w.deps))).toBe(
      'INVITATION_ALREADY_USED',
    );
    expect(await codeOf(inviteOne(single(), admin, w.deps))).toBe('EMAIL_ALREADY_REGISTERED');
  });

  it("activates the hospital's INVITED record of the same e-mail instead of refusing it", async () => {
    const w = fakeInvitationWorld();
    w.users.set('invited-record', {
      id: 'invited-record',
      email: 'jordan@x.test',
      firstName: 'Jordan',
      lastName: 'Lee',
      role: 'HOSPITAL_ADMIN',
      status: 'INVITED',
      hospitalId: 'h1',
      teamId: null,
      permissions: ['*'],
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    await inviteOne(single(), admin, w.deps);
    await acceptInvitation(
      { token: w.tokenFor('jordan@x.test')!, firstName: 'Jordan', lastName: 'Lee', password: PASSWORD },
      w.deps,
    );
    expect([...w.users.values()]).toEqual([
      expect.objectContaining({ id: 'sub-1', status: 'ACTIVE', createdAt: '2026-01-01T00:00:00.000Z' }),
    ]);
    // The INVITED record became the ACTIVE user: moved between the statuses, not added.
    expect(w.hospitalCounters.get('h1/users_INVITED')).toBe(-1);
    expect(w.hospitalCounters.get('h1/users_ACTIVE')).toBe(1);
  });

  it('answers expired, cancelled, declined and unknown links with the catalogue words', async () => {
    const w = fakeInvitationWorld();
    const a = await inviteOne(single({ email: 'a@x.test' }), admin, w.deps);
    await inviteOne(single({ email: 'b@x.test' }), admin, w.deps);
    await inviteOne(single({ email: 'c@x.test' }), admin, w.deps);
    await cancelInvitation(a.id, admin, w.deps);
    expect(await codeOf(previewInvitation(w.tokenFor('a@x.test')!, w.deps))).toBe('INVITATION_CANCELLED');
    await declineInvitation(w.tokenFor('b@x.test')!, w.deps);
    expect(await codeOf(previewInvitation(w.tokenFor('b@x.test')!, w.deps))).toBe('INVITATION_DECLINED');
    w.state.now = '2026-04-01T00:00:00.000Z';
    expect(await codeOf(previewInvitation(w.tokenFor('c@x.test')!, w.deps))).toBe('INVITATION_EXPIRED');
    expect(await codeOf(previewInvitation('x'.repeat(43), w.deps))).toBe('INVITATION_LINK_INVALID');
  });
});

describe('delivery events of invitation e-mail', () => {
  it('records bounces on the invitation and in the audit log, and ignores other mail', async () => {
    const w = fakeInvitationWorld();
    const sent = await inviteOne(single(), admin, w.deps);
    const tags = { kind: ['invitation'], hospitalId: ['h1'], invitationId: [sent.id] };
    expect(await recordMailEvent({ eventType: 'Bounce', tags }, w.deps)).toBe('recorded');
    expect(w.invitations.get(`h1/${sent.id}`)!.delivery).toBe('bounced');
    expect(w.audit.events.at(-1)).toMatchObject({
      action: 'INVITATION_EMAIL_FAILED',
      details: { invitationId: sent.id, delivery: 'bounced' },
    });
    expect(await recordMailEvent({ eventType: 'Delivery', tags }, w.deps)).toBe('recorded');
    expect(w.audit.events.filter((e) => e.action === 'INVITATION_EMAIL_FAILED')).toHaveLength(1);
    expect(await recordMailEvent({ eventType: 'Open', tags }, w.deps)).toBe('ignored');
    expect(await recordMailEvent({ eventType: 'Bounce', tags: { kind: ['password-reset'] } }, w.deps)).toBe('ignored');
    expect(await recordMailEvent({ eventType: 'Bounce', tags: { ...tags, invitationId: ['gone'] } }, w.deps)).toBe(
      'ignored',
    );
  });
});

describe('invitation lists a page at a time', () => {
  it('pages newest first without duplicates, and the team list holds only the team', async () => {
    // Arrange: three invitations a minute apart, the first and the last to team t1.
    const w = fakeInvitationWorld();
    const ids: string[] = [];
    for (const [n, email] of ['a@x.test', 'b@x.test', 'c@x.test'].entries()) {
      w.state.now = `2026-03-01T09:0${n}:00.000Z`;
      const toTeam = n !== 1 ? { departmentId: 'd1', teamId: 't1' } : {};
      ids.push((await inviteOne(single({ email, ...toTeam }), admin, w.deps)).id);
    }

    // Act
    const first = await listHospitalInvitations({ limit: 2 }, admin, w.deps);
    const second = await listHospitalInvitations({ limit: 2, nextToken: first.nextToken! }, admin, w.deps);
    const team = await listTeamInvitations('t1', PAGE, lead, w.deps);

    // Assert
    expect(first.items.map((i) => i.id)).toEqual([ids[2], ids[1]]);
    expect(second.items.map((i) => i.id)).toEqual([ids[0]]);
    expect(second.nextToken).toBeNull();
    expect(first.counts.all).toBe(3);
    expect(team.items.map((i) => i.id)).toEqual([ids[2], ids[0]]);
    expect(team.counts).toMatchObject({ all: 2, sent: 2 });
    expect(await codeOf(listTeamInvitations('t1', { limit: 2, nextToken: first.nextToken! }, lead, w.deps))).toBe(
      'VALIDATION_FAILED',
    );
  });
});
