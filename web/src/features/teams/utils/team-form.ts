import {
  DEFAULT_TEAM_SETTINGS,
  TeamInputSchema,
  type Team,
  type TeamInput,
  type TeamSettings,
} from '#shared/schemas/api/organisation.ts';

/** The team form while typing: numbers and tags as text. */
export type TeamDraft = {
  name: string;
  departmentId: string;
  leadUserId: string;
  description: string;
  dataPolicy: 'shared' | 'individual';
  maxMembers: string;
  priority: 'high' | 'medium';
  tags: string;
  settings: TeamSettings;
};
export type TeamDraftErrors = Partial<Record<keyof TeamDraft, string>>;

export const EMPTY_TEAM_DRAFT: TeamDraft = {
  name: '',
  departmentId: '',
  leadUserId: '',
  description: '',
  dataPolicy: 'shared',
  maxMembers: '15',
  priority: 'medium',
  tags: '',
  settings: DEFAULT_TEAM_SETTINGS,
};

export function draftFromTeam(team: Team): TeamDraft {
  return {
    name: team.name,
    departmentId: team.departmentId,
    leadUserId: team.leadUserId ?? '',
    description: team.description,
    dataPolicy: team.dataPolicy,
    maxMembers: String(team.maxMembers),
    priority: team.priority,
    tags: team.tags.join(', '),
    settings: team.settings,
  };
}

/** Parses the draft with the shared TeamInputSchema: the request, or the first message per field. */
export function parseTeamDraft(
  draft: TeamDraft,
): { ok: true; value: TeamInput } | { ok: false; errors: TeamDraftErrors } {
  const parsed = TeamInputSchema.safeParse({
    ...draft,
    departmentId: draft.departmentId || undefined,
    leadUserId: draft.leadUserId || null,
    maxMembers: draft.maxMembers.trim() === '' ? Number.NaN : Number(draft.maxMembers),
    tags: draft.tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  });
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: TeamDraftErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as keyof TeamDraft;
    errors[key] ??= key === 'departmentId' ? 'Required' : issue.message;
  }
  return { ok: false, errors };
}
