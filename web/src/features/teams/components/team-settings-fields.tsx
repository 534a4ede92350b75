import { SimpleGrid, Stack, Text, Wrap } from '@chakra-ui/react';
import { GRANTABLE_PERMISSIONS, type GrantablePermission } from '#shared/vocabulary/roles.ts';
import type { TeamSettings } from '#shared/schemas/api/organisation.ts';
import { Checkbox } from '#web/components/ui/checkbox.tsx';

type Props = { value: TeamSettings; onChange(value: TeamSettings): void; disabled?: boolean };

const TOGGLES: { key: keyof TeamSettings; label: string }[] = [
  { key: 'allowMemberInvitations', label: 'Members may invite' },
  { key: 'requireApprovalForDataSharing', label: 'Require approval for data sharing' },
  { key: 'allowGuestAccess', label: 'Allow guest access' },
];
// "Allow public sharing" is not offered: every share names its recipient, so no public share exists for it to allow
// (docs/domain.md#share-policy).

/** The team's settings (docs/screens.md#teams-page), shared by the team form and the lead's Settings tab. */
export function TeamSettingsFields({ value, onChange, disabled }: Props) {
  const set = <K extends keyof TeamSettings>(key: K, v: TeamSettings[K]) => onChange({ ...value, [key]: v });
  const togglePermission = (p: GrantablePermission, on: boolean) =>
    set('defaultPermissions', on ? [...value.defaultPermissions, p] : value.defaultPermissions.filter((x) => x !== p));
  return (
    <Stack gap="4">
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
        {TOGGLES.map((t) => (
          <Checkbox
            key={t.key}
            disabled={disabled}
            checked={value[t.key] as boolean}
            onCheckedChange={(v) => set(t.key, v as never)}
          >
            {t.label}
          </Checkbox>
        ))}
      </SimpleGrid>
      <Stack gap="2">
        <Text fontWeight="medium" fontSize="sm">
          Default permissions of new members
        </Text>
        <Wrap gap="3">
          {GRANTABLE_PERMISSIONS.map((p) => (
            <Checkbox
              key={p}
              disabled={disabled}
              checked={value.defaultPermissions.includes(p)}
              onCheckedChange={(on) => togglePermission(p, on)}
            >
              {p}
            </Checkbox>
          ))}
        </Wrap>
      </Stack>
    </Stack>
  );
}
