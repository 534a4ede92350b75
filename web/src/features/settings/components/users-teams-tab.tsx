import { DEFAULT_MEMBER_ROLES, type Policy } from '#shared/schemas/api/policies.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { SettingsTab, Toggle, type PolicyTabProps } from './settings-controls.tsx';

/** Users & Teams: auto-approval of team leads (where the system allows it) and the role new members get. */
export function UsersTeamsTab({ policy, system, change }: PolicyTabProps) {
  return (
    <SettingsTab value="users-teams">
      <Toggle
        label="Auto-approve team leads"
        checked={policy.userAndTeam.autoApproveTeamLeads}
        disabled={!system.userAndTeam.autoApproveTeamLeads}
        onChange={(on) => change((p) => ({ ...p, userAndTeam: { ...p.userAndTeam, autoApproveTeamLeads: on } }))}
      />
      <FormField label="Default member role">
        <Select
          value={policy.userAndTeam.defaultMemberRole}
          options={DEFAULT_MEMBER_ROLES.map((r) => ({
            value: r,
            label: r === 'TEAM_MEMBER' ? 'Team Member' : 'Guest',
          }))}
          onChange={(value) =>
            change((p) => ({
              ...p,
              userAndTeam: {
                ...p.userAndTeam,
                defaultMemberRole: value as Policy['userAndTeam']['defaultMemberRole'],
              },
            }))
          }
        />
      </FormField>
    </SettingsTab>
  );
}
