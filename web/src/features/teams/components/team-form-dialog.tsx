import { Button, HStack, Input, SimpleGrid, Stack, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { UserPageSchema, type Department, type Team, type TeamInput } from '#shared/schemas/api/organisation.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { ErrorBox } from '#web/components/ui/page-states.tsx';
import { SearchSelect } from '#web/components/ui/search-select.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { TeamSettingsFields } from '#web/features/teams/components/team-settings-fields.tsx';
import {
  draftFromTeam,
  EMPTY_TEAM_DRAFT,
  parseTeamDraft,
  type TeamDraft,
} from '#web/features/teams/utils/team-form.ts';

type Props = {
  team?: Team;
  departments: Department[];
  onClose(): void;
  onSave(input: TeamInput): Promise<unknown>;
};

/** Create or edit a team (hospital admin): department, lead, description, data policy, max members, priority, tags, settings. */
export function TeamFormDialog({ team, departments, onClose, onSave }: Props) {
  const [draft, setDraft] = useState<TeamDraft>(() => (team ? draftFromTeam(team) : EMPTY_TEAM_DRAFT));
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const parsed = parseTeamDraft(draft);
  const errors = submitted && !parsed.ok ? parsed.errors : {};
  const set = <K extends keyof TeamDraft>(key: K, value: TeamDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const save = async () => {
    setSubmitted(true);
    if (!parsed.ok) return;
    setSaving(true);
    setError(undefined);
    try {
      await onSave(parsed.value);
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      size="lg"
      title={team ? 'Edit Team' : 'Create Team'}
      footer={
        <HStack>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} loading={saving}>
            {team ? 'Save Changes' : 'Create Team'}
          </Button>
        </HStack>
      }
    >
      <Stack gap="4">
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
          <FormField label="Team Name" required error={errors.name}>
            <Input name="teamName" value={draft.name} onChange={(e) => set('name', e.target.value)} />
          </FormField>
          <FormField label="Department" required error={errors.departmentId}>
            <Select
              aria-label="Department"
              name="departmentId"
              value={draft.departmentId}
              placeholder="Select department"
              onChange={(v) => set('departmentId', v)}
              options={departments.map((d) => ({ value: d.id, label: d.name }))}
            />
          </FormField>
          <FormField label="Team Lead">
            <SearchSelect
              label="Team Lead"
              path="/api/users"
              schema={UserPageSchema}
              searchable
              value={draft.leadUserId}
              selectedLabel={team?.leadUserId === draft.leadUserId ? team.leadName : undefined}
              placeholder="No lead yet"
              onChange={(v) => set('leadUserId', v)}
              toOption={(u) =>
                u.role === 'HOSPITAL_ADMIN' || u.status === 'DISABLED'
                  ? null
                  : { value: u.id, label: `${u.firstName} ${u.lastName}` }
              }
            />
          </FormField>
          <FormField label="Max Members" error={errors.maxMembers}>
            <Input
              type="number"
              name="maxMembers"
              min={1}
              value={draft.maxMembers}
              onChange={(e) => set('maxMembers', e.target.value)}
            />
          </FormField>
          <FormField label="Data Policy">
            <Select
              aria-label="Data Policy"
              value={draft.dataPolicy}
              onChange={(v) => set('dataPolicy', v as TeamDraft['dataPolicy'])}
              options={[
                { value: 'shared', label: 'Shared: members see the team\u2019s datasets' },
                { value: 'individual', label: 'Individual: members see their own datasets' },
              ]}
            />
          </FormField>
          <FormField label="Priority">
            <Select
              aria-label="Priority"
              value={draft.priority}
              onChange={(v) => set('priority', v as TeamDraft['priority'])}
              options={[
                { value: 'high', label: 'High' },
                { value: 'medium', label: 'Medium' },
              ]}
            />
          </FormField>
        </SimpleGrid>
        <FormField label="Description" error={errors.description}>
          <Textarea rows={2} value={draft.description} onChange={(e) => set('description', e.target.value)} />
        </FormField>
        <FormField label="Tags" helperText="Separate several with commas" error={errors.tags}>
          <Input value={draft.tags} onChange={(e) => set('tags', e.target.value)} />
        </FormField>
        <TeamSettingsFields value={draft.settings} onChange={(v) => set('settings', v)} />
        {error && <ErrorBox message={error} />}
      </Stack>
    </Modal>
  );
}
