import { NativeSelect } from '@chakra-ui/react';

type Option = { value: string; label: string };
type Props = {
  value: string;
  onChange(value: string): void;
  options: readonly Option[];
  placeholder?: string;
  size?: 'xs' | 'sm' | 'md' | 'lg';
  name?: string;
  id?: string;
  'aria-label'?: string;
  disabled?: boolean;
  width?: string;
};

/** A native select with the app's defaults (keyboard- and screen-reader-friendly, works on tablets). */
export function Select({
  value,
  onChange,
  options,
  placeholder,
  size = 'md',
  name,
  id,
  disabled,
  width,
  ...rest
}: Props) {
  return (
    <NativeSelect.Root size={size} disabled={disabled} width={width}>
      <NativeSelect.Field
        id={id}
        name={name}
        aria-label={rest['aria-label']}
        // The native control itself is disabled too (the root only styles it), so keyboards and screen readers skip
        // it; Chakra's field props leave `disabled` out, hence the spread.
        {...{ disabled }}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
