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

/** Chakra's checkbox parts assembled once, with a boolean API. */
export function Checkbox({ checked, onCheckedChange, children, disabled, name, ...rest }: Props) {
  return (
    <ChakraCheckbox.Root
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
