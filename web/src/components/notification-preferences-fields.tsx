import { Heading, Stack, Switch } from '@chakra-ui/react';
import { NOTIFICATION_FREQUENCIES, type NotificationPreferences } from '#shared/schemas/api/policies.ts';
import {
  FREQUENCY_LABELS,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_TOPICS,
} from '#web/components/notification-preferences.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Select } from '#web/components/ui/select.tsx';

function Toggle(props: { label: string; checked: boolean; onChange(on: boolean): void }) {
  return (
    <Switch.Root checked={props.checked} onCheckedChange={(e) => props.onChange(e.checked)}>
      <Switch.HiddenInput aria-label={props.label} />
      <Switch.Control />
      <Switch.Label>{props.label}</Switch.Label>
    </Switch.Root>
  );
}

/** The notification preference fields: channels, frequency and topics (the settings page and hospital settings). */
export function NotificationPreferencesFields({
  value,
  onChange,
}: {
  value: NotificationPreferences;
  onChange(value: NotificationPreferences): void;
}) {
  return (
    <Stack gap="4">
      <Heading size="md">Channels</Heading>
      {NOTIFICATION_CHANNELS.map((c) => (
        <Toggle
          key={c.key}
          label={c.label}
          checked={value[c.key]}
          onChange={(on) => onChange({ ...value, [c.key]: on })}
        />
      ))}
      <FormField label="Frequency">
        <Select
          aria-label="Frequency"
          value={value.frequency}
          options={NOTIFICATION_FREQUENCIES.map((f) => ({ value: f, label: FREQUENCY_LABELS[f] }))}
          onChange={(f) => onChange({ ...value, frequency: f as NotificationPreferences['frequency'] })}
        />
      </FormField>
      <Heading size="md">Topics</Heading>
      {NOTIFICATION_TOPICS.map((t) => (
        <Toggle
          key={t.key}
          label={t.label}
          checked={value[t.key]}
          onChange={(on) => onChange({ ...value, [t.key]: on })}
        />
      ))}
    </Stack>
  );
}
