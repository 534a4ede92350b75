import { Switch } from '@chakra-ui/react';

/** A switch whose visible label is also its accessible name. */
export function LabelledSwitch(props: {
  label: string;
  checked: boolean;
  onChange(on: boolean): void;
  disabled?: boolean;
}) {
  return (
    <Switch.Root checked={props.checked} disabled={props.disabled} onCheckedChange={(e) => props.onChange(e.checked)}>
      <Switch.HiddenInput aria-label={props.label} />
      <Switch.Control />
      <Switch.Label>{props.label}</Switch.Label>
    </Switch.Root>
  );
}
