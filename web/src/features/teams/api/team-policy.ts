import useSWR, { mutate } from 'swr';
import { TeamPolicyResponseSchema, type TeamPolicyOverrides } from '#shared/schemas/api/policies.ts';
import { apiRequest } from '#web/lib/api-client.ts';

const policyPath = (teamId: string) => `/api/teams/${encodeURIComponent(teamId)}/policy`;
const key = (teamId: string) => ['/api/teams', teamId, 'policy'];

/** The team's overrides, the hospital's policy they tighten, and the result (GET /api/teams/{teamId}/policy). */
export function useTeamPolicy(teamId: string) {
  return useSWR(key(teamId), () => apiRequest(policyPath(teamId), TeamPolicyResponseSchema));
}

export async function saveTeamPolicy(teamId: string, overrides: TeamPolicyOverrides) {
  const saved = await apiRequest(policyPath(teamId), TeamPolicyResponseSchema, {
    method: 'PUT',
    body: { overrides },
  });
  await mutate(key(teamId), saved, { revalidate: false });
  return saved;
}
