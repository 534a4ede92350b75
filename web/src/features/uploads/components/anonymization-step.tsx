import { Button, Flex, Stack, Switch, Text } from '@chakra-ui/react';
import type { AnonymizationOptions } from '#shared/vocabulary/deidentification.ts';

const OPTIONS: { key: keyof AnonymizationOptions; label: string; help: string }[] = [
  {
    key: 'retainPhysicianIdentity',
    label: 'Keep physician information',
    help: 'Off: referring, performing and reading physician names are removed (Basic Profile).',
  },
  {
    key: 'retainInstitutionIdentity',
    label: 'Keep institution information',
    help: 'Off: institution name, address and department are removed.',
  },
  {
    key: 'retainUids',
    label: 'Keep original UIDs',
    help: 'Off: study, series and instance UIDs are replaced consistently, so re-uploads still link up.',
  },
  {
    key: 'retainLongitudinalDates',
    label: 'Keep dates (longitudinal studies)',
    help: 'Off: dates and times are removed or emptied.',
  },
  {
    key: 'retainPatientCharacteristics',
    label: 'Keep patient characteristics',
    help: 'Off: age, sex, size and weight are removed.',
  },
  {
    key: 'keepPrivate',
    label: 'Keep safe private attributes',
    help: 'Vendor attributes that processing needs (diffusion b-values and gradients, slice timing) are kept either way; on keeps every listed safe private attribute.',
  },
];

type Props = {
  value: AnonymizationOptions;
  onChange(value: AnonymizationOptions): void;
  onBack(): void;
  onContinue(): void;
};

/** Step 4: options of the PS3.15 Annex E Basic Profile (docs/domain.md#options: identities are removed by default). */
export function AnonymizationStep({ value, onChange, onBack, onContinue }: Props) {
  return (
    <Stack gap="5" as="section" aria-label="Anonymization">
      <Text>
        Patient name, ID, birth date and other identifiers are always removed using the DICOM PS3.15 Basic Application
        Level Confidentiality Profile. The options below keep some attributes when your study protocol needs them.
      </Text>
      <Stack gap="4">
        {OPTIONS.map((o) => (
          <Switch.Root
            key={o.key}
            checked={value[o.key]}
            onCheckedChange={(e) => onChange({ ...value, [o.key]: e.checked })}
            alignItems="flex-start"
          >
            <Switch.HiddenInput name={o.key} />
            <Switch.Control />
            <Switch.Label>
              <Stack gap="0">
                <Text fontWeight="medium">{o.label}</Text>
                <Text fontSize="sm" color="fg.muted" fontWeight="normal">
                  {o.help}
                </Text>
              </Stack>
            </Switch.Label>
          </Switch.Root>
        ))}
      </Stack>
      <Flex justify="space-between">
        <Button variant="outline" onClick={onBack}>
          Back
        </Button>
        <Button onClick={onContinue}>Start Upload</Button>
      </Flex>
    </Stack>
  );
}
