import { Field } from '@chakra-ui/react';
import type { ReactNode } from 'react';

type Props = { label: ReactNode; error?: string; required?: boolean; helperText?: ReactNode; children: ReactNode };

export function FormField({ label, error, required, helperText, children }: Props) {
  return (
    <Field.Root invalid={!!error} required={required}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      {children}
      {helperText && !error && <Field.HelperText>{helperText}</Field.HelperText>}
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
    </Field.Root>
  );
}
