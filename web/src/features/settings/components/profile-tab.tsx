import { Heading, Input, Text } from '@chakra-ui/react';
import type { HospitalProfile } from '#shared/schemas/api/policies.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { SettingsTab, Toggle, type PolicyTabProps } from './settings-controls.tsx';

type Props = PolicyTabProps & {
  profile: HospitalProfile;
  errors: Partial<Record<keyof HospitalProfile, string>>;
  /** The messages show once a save was tried. */
  showErrors: boolean;
  onProfileChange(field: keyof HospitalProfile, value: string): void;
};

/** Profile: the hospital's contact details, then its security settings (two-factor; single sign-on has its own tab). */
export function ProfileTab({ policy, system, change, profile, errors, showErrors, onProfileChange }: Props) {
  const profileField = (field: keyof HospitalProfile, label: string, type = 'text') => (
    <FormField label={label} required error={showErrors ? errors[field] : undefined}>
      <Input type={type} value={profile[field]} onChange={(e) => onProfileChange(field, e.currentTarget.value)} />
    </FormField>
  );
  return (
    <SettingsTab value="profile">
      {profileField('name', 'Hospital name')}
      {profileField('email', 'Primary email', 'email')}
      {profileField('phone', 'Phone', 'tel')}
      {profileField('billingContact', 'Billing contact', 'email')}
      {profileField('address', 'Address')}
      <Heading size="md">Security Settings</Heading>
      <Toggle
        label="Two-Factor Authentication"
        checked={policy.security.twoFactorRequired}
        locked={system.security.twoFactorRequired}
        onChange={(on) => change((p) => ({ ...p, security: { ...p.security, twoFactorRequired: on } }))}
      />
      <Text color="fg.muted" fontSize="sm">
        Single sign-on is set up on the SSO tab.
      </Text>
    </SettingsTab>
  );
}
