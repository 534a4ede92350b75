import { Checkbox as ChakraCheckbox } from '@chakra-ui/react';
import type { ReactNode } from 'react';

type Props = {
  checked: boolean;
  onCheckedChange(checked: boolean): void;
  children?: ReactNode;
  disabled?: boolean;
  name?: string;
  'aria-label'?: string;
};

/**
 * Chakra's checkbox parts assembled once, with a boolean API. A checkbox with a label of its own keeps its own ids:
 * inside a FormField, Ark would give every checkbox the field's input id, so several boxes of one field (Read and
 * Write) would share one id and a click on any label would toggle the first box.
 */
export function Checkbox({ checked, onCheckedChange, children, disabled, name, ...rest }: Props) {
  return (
    <ChakraCheckbox.Root
      {...(children ? { ids: {} } : {})}
      checked={checked}
      disabled={disabled}
      name={name}
      onCheckedChange={(e) => onCheckedChange(e.checked === true)}
    >
      <ChakraCheckbox.HiddenInput aria-label={rest['aria-label']} />
      <ChakraCheckbox.Control />
      {children && <ChakraCheckbox.Label>{children}</ChakraCheckbox.Label>}
    </ChakraCheckbox.Root>
  );
}
