import { Button, Card, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { MAX_OPENS_OPTIONS, SHARE_EXPIRY_OPTIONS, type TeamPolicyResponse } from '#shared/schemas/api/policies.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { saveTeamPolicy, useTeamPolicy } from '#web/features/teams/api/team-policy.ts';
import {
  expiryLabel,
  hospitalValue,
  onOff,
  opensLabel,
  overridesWith,
  shareFormOf,
  type ShareOverrideField,
  type ShareOverrideForm,
} from '#web/features/teams/utils/share-overrides.ts';

const LABELS: Record<ShareOverrideField, string> = {
  defaultExpiryHours: 'Default expiry',
  maxOpens: 'Max opens',
  requireOTP: 'Require OTP',
  watermarkEnabled: 'Watermark',
  downloadsEnabled: 'Downloads',
};
const INHERIT = '';

function choices(field: ShareOverrideField): { value: string; label: string }[] {
  if (field === 'defaultExpiryHours')
    return SHARE_EXPIRY_OPTIONS.map((o) => ({ value: String(o.hours), label: expiryLabel(o.hours) }));
  if (field === 'maxOpens') return MAX_OPENS_OPTIONS.map((n) => ({ value: String(n), label: opensLabel(n) }));
  return [
    { value: 'true', label: onOff(true) },
    { value: 'false', label: onOff(false) },
  ];
}

const toText = (value: number | boolean | undefined) => (value === undefined ? INHERIT : String(value));
function fromText(field: ShareOverrideField, text: string): number | boolean | undefined {
  if (text === INHERIT) return undefined;
  return field === 'defaultExpiryHours' || field === 'maxOpens' ? Number(text) : text === 'true';
}

/**
 * Patient-share overrides of a team (docs/screens.md#teams-page): expiry, max opens, OTP, watermark and downloads, each
 * inheriting the hospital's value unless the lead overrides it. The hospital's value is shown beside each field; the
 * server refuses a looser one with its POLICY_LESS_RESTRICTIVE message, shown here as it comes.
 */
export function ShareOverrides({ teamId }: { teamId: string }) {
  const policy = useTeamPolicy(teamId);
  if (policy.error) return <ErrorBox message={errorMessage(policy.error)} />;
  if (!policy.data) return <PageSpinner />;
  return <ShareOverridesForm teamId={teamId} policy={policy.data} />;
}

function ShareOverridesForm({ teamId, policy }: { teamId: string; policy: TeamPolicyResponse }) {
  const [form, setForm] = useState<ShareOverrideForm>(() => shareFormOf(policy.overrides));
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  useEffect(() => setForm(shareFormOf(policy.overrides)), [policy.overrides]);
  const changed = JSON.stringify(form) !== JSON.stringify(shareFormOf(policy.overrides));
  const save = async () => {
    setSaving(true);
    setRefusal(undefined);
    try {
      await saveTeamPolicy(teamId, overridesWith(policy.overrides, form));
      toaster.success({ title: 'Team settings saved' });
    } catch (e) {
      setRefusal(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };
  const fields = Object.keys(LABELS) as ShareOverrideField[];
  return (
    <Card.Root>
      <Card.Header>
        <Heading size="md">Patient share</Heading>
        <Text color="fg.muted" fontSize="sm">
          Team leads may override share settings only more restrictively than the hospital defaults.
        </Text>
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            {fields.map((field) => (
              <FormField
                key={field}
                label={LABELS[field]}
                helperText={`Hospital: ${hospitalValue(field, policy.inherited)}`}
              >
                <Select
                  aria-label={LABELS[field]}
                  value={toText(form[field])}
                  onChange={(text) => setForm({ ...form, [field]: fromText(field, text) })}
                  options={[
                    { value: INHERIT, label: `Hospital default (${hospitalValue(field, policy.inherited)})` },
                    ...choices(field),
                  ]}
                />
              </FormField>
            ))}
          </SimpleGrid>
          {refusal && <ErrorBox message={refusal} />}
          <Button alignSelf="start" onClick={save} disabled={!changed} loading={saving}>
            Save Share Settings
          </Button>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
