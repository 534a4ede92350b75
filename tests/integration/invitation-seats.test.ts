import { describe, expect, it } from 'vitest';
import { useHarness } from '#tests/helpers/harness.ts';

/**
 * Accepting an invitation through the real handlers (docs/domain.md#invitations): the team it names must still be
 * active and have a seat at that moment, and two acceptances racing for the last seat cannot both take it.
 */
const ADMIN = 'admin@northside.demo.local';
const DEPARTMENT = 'dept-northside-radiology';
const PASSWORD = 'Correct-Horse-42!';

const h = useHarness();
let n = 0;

async function newTeam(maxMembers: number): Promise<string> {
  const created = await h.call('POST', '/api/teams', {
    as: ADMIN,
    body: { name: `Seats ${++n}`, departmentId: DEPARTMENT, maxMembers },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

/** Invites a new address to the team as the hospital admin; returns the link's token from the e-mail. */
async function invite(teamId: string): Promise<string> {
  const email = `seat-${++n}-${Date.now().toString(36)}@invitee.test`;
  const sent = await h.call('POST', `/api/teams/${teamId}/invitations`, { as: ADMIN, body: { email } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  const mail = h.mailbox.findLast((m) => m.to === email)!;
  return new URL(mail.text.match(/https?:\/\/\S+/)![0]).searchParams.get('token')!;
}

const accept = (token: string) =>
  h.call('POST', '/api/invitations/accept', {
    body: { token, firstName: 'Sam', lastName: 'Seat', password: PASSWORD },
  });

async function members(teamId: string): Promise<number> {
  const team = await h.call('GET', `/api/teams/${teamId}`, { as: ADMIN });
  return team.body.memberCount as number;
}

describe('accepting an invitation re-checks the team', () => {
  it('takes a seat in the team, and refuses with TEAM_FULL once its seats are taken', async () => {
    const team = await newTeam(1);
    const [first, second] = [await invite(team), await invite(team)];
    expect((await accept(first)).status).toBe(200);
    expect(await members(team)).toBe(1);
    const refused = await accept(second);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('TEAM_FULL');
    expect(await members(team)).toBe(1);
  });

  it('refuses with TEAM_ARCHIVED when the team was archived after the invitation was sent', async () => {
    const team = await newTeam(5);
    const token = await invite(team);
    expect((await h.call('POST', `/api/teams/${team}/archive`, { as: ADMIN })).status).toBe(200);
    const refused = await accept(token);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('TEAM_ARCHIVED');
  });

  it('lets only one of two acceptances racing for the last seat take it', async () => {
    const team = await newTeam(1);
    const tokens = [await invite(team), await invite(team)];
    const answers = await Promise.all(tokens.map(accept));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.error.code).toBe('TEAM_FULL');
    expect(await members(team)).toBe(1);
  });
});
