import { Badge, Card, HStack, Slider, Stack, Tabs, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { THRESHOLD_MAX, THRESHOLD_STEP, type Policy } from '#shared/schemas/api/policies.ts';
import { LabelledSwitch } from '#web/components/ui/labelled-switch.tsx';

/** What a tab over the hospital policy is given: the draft, the system maximums, and a way to edit the draft. */
export type PolicyTabProps = {
  policy: Policy;
  system: Policy;
  change(edit: (policy: Policy) => Policy): void;
};

/** A switch with a badge beside it; a `locked` item is disabled and says "Locked by admin". */
export function Toggle(props: {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
  disabled?: boolean;
  locked?: boolean;
  badge?: ReactNode;
}) {
  return (
    <HStack justify="space-between">
      <LabelledSwitch
        label={props.label}
        checked={props.checked}
        disabled={props.disabled || props.locked}
        onChange={props.onChange}
      />
      {props.locked ? <Badge colorPalette="gray">Locked by admin</Badge> : props.badge}
    </HStack>
  );
}

/** One tab of the form: a card holding the tab's fields. */
export function SettingsTab({ value, gap = '4', children }: { value: string; gap?: string; children: ReactNode }) {
  return (
    <Tabs.Content value={value}>
      <Card.Root>
        <Card.Body>
          <Stack gap={gap} maxW="xl">
            {children}
          </Stack>
        </Card.Body>
      </Card.Root>
    </Tabs.Content>
  );
}

export function PercentSlider(props: { label: string; value: number; min: number; onChange(value: number): void }) {
  return (
    <Slider.Root
      value={[props.value]}
      min={props.min}
      max={THRESHOLD_MAX}
      step={THRESHOLD_STEP}
      onValueChange={(e) => props.onChange(e.value[0] ?? props.value)}
    >
      <HStack justify="space-between">
        <Slider.Label>{props.label}</Slider.Label>
        <Text>{props.value}%</Text>
      </HStack>
      <Slider.Control>
        <Slider.Track>
          <Slider.Range />
        </Slider.Track>
        <Slider.Thumb index={0} aria-label={props.label}>
          <Slider.HiddenInput />
        </Slider.Thumb>
      </Slider.Control>
    </Slider.Root>
  );
}
